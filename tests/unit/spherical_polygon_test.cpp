// The cell geometry of conservative remapping: areas and moments against closed forms,
// clipping against tilings of the sphere (every cell's overlaps must add up to its
// area), and the hard cases: shared and nearly coincident edges, corners on edges,
// repeated and nearly collinear corners, cells holding a pole or crossing the date
// line, parallels that cross a great circle twice.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "ferry/geodesic_mesh.hpp"
#include "regrid/cell_bins.hpp"
#include "regrid/cell_overlap.hpp"
#include "regrid/cell_polygon.hpp"
#include "regrid/cell_shapes.hpp"
#include "regrid/spherical_polygon.hpp"

namespace {

using ferry::regrid::detail::CellOverlap;
using ferry::regrid::detail::CellShapes;
using ferry::regrid::detail::ConvexPolygon;
using ferry::regrid::detail::convex_polygon_of;
using ferry::regrid::detail::EdgeKind;
using ferry::regrid::detail::kPi;
using ferry::regrid::detail::kRadiansPerDegree;
using ferry::regrid::detail::LonLatCell;
using ferry::regrid::detail::PolygonClipper;
using ferry::regrid::detail::PolygonCorner;
using ferry::regrid::detail::sphere_point;
using ferry::regrid::detail::Vec3;

double rad(double degrees) { return degrees * kRadiansPerDegree; }

// Closed forms for a longitude-latitude rectangle.
double rectangle_area(const LonLatCell& c) {
  return rad(c.width) * (std::sin(rad(c.north)) - std::sin(rad(c.south)));
}
// With differences of sines as products, so thin rectangles keep their digits.
Vec3 rectangle_moment(const LonLatCell& c) {
  const double n = rad(c.north), s = rad(c.south);
  const double k = (n - s) / 2 + std::cos(n + s) * std::sin(n - s) / 2;  // integral of cos^2
  const double middle = rad(c.west + c.width / 2);
  const double half = 2 * std::sin(rad(c.width) / 2);
  return {k * std::cos(middle) * half, k * std::sin(middle) * half,
          rad(c.width) * std::sin(n - s) * std::sin(n + s) / 2};
}

std::vector<PolygonCorner> great_circle_polygon(const std::vector<Vec3>& corners) {
  std::vector<PolygonCorner> out;
  for (const Vec3& p : corners) out.push_back({p, EdgeKind::GreatCircle});
  return out;
}

void expect_near_relative(double got, double want, double tolerance) {
  EXPECT_LE(std::abs(got - want), tolerance * std::abs(want)) << "got " << got << ", want " << want;
}

// A polygon cell of degrees corners, checked.
std::vector<Vec3> cell(std::vector<double> lon, std::vector<double> lat) {
  ConvexPolygon out;
  const std::string why = convex_polygon_of(lon.data(), lat.data(), static_cast<int>(lon.size()), out);
  EXPECT_EQ(why, "");
  return out.corners;
}

// A curvilinear grid: a regular nx x ny lon-lat grid seen from a pole at (pole_lon,
// pole_lat), its cells with great-circle edges; corners of the rotated lines.
struct RotatedGrid {
  int nx, ny;
  double pole_lon, pole_lat;
  // The geographic point of rotated coordinates (lon, lat), degrees.
  Vec3 point(double lon, double lat) const {
    const Vec3 p = sphere_point(lon, lat);
    // Rotate about y by (90 - pole_lat), then about z by pole_lon.
    const double t = rad(90 - pole_lat);
    const Vec3 q{p.x * std::cos(t) + p.z * std::sin(t), p.y, -p.x * std::sin(t) + p.z * std::cos(t)};
    const double r = rad(pole_lon);
    return {q.x * std::cos(r) - q.y * std::sin(r), q.x * std::sin(r) + q.y * std::cos(r), q.z};
  }
  std::vector<Vec3> corners(int i, int j) const {
    const double w = i * 360.0 / nx, e = (i + 1) * 360.0 / nx;
    const double s = -90 + j * 180.0 / ny, n = -90 + (j + 1) * 180.0 / ny;
    std::vector<Vec3> c{point(w, s), point(e, s), point(e, n), point(w, n)};
    // Corners at a rotated pole coincide: keep one.
    std::vector<Vec3> out;
    for (const Vec3& p : c)
      if (out.empty() || ferry::regrid::detail::length(p - out.back()) > 1e-12) out.push_back(p);
    if (ferry::regrid::detail::length(out.front() - out.back()) <= 1e-12) out.pop_back();
    return out;
  }
};

CellShapes rotated_shapes(const RotatedGrid& g) {
  CellShapes shapes;
  shapes.lonlat = false;
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) {
      const std::vector<Vec3> c = g.corners(i, j);
      shapes.add_polygon(j * g.nx + i, c.data(), c.size());
    }
  return shapes;
}

CellShapes geodesic_shapes(int frequency) {
  const ferry::GeodesicMesh mesh(frequency);
  CellShapes shapes;
  shapes.lonlat = false;
  for (std::int64_t c = 0; c < mesh.cell_count(); ++c) {
    std::vector<Vec3> corners;
    const auto degree = static_cast<int>(mesh.offsets()[c + 1] - mesh.offsets()[c]);
    for (int k = 0; k < degree; ++k) {
      const auto p = mesh.corner(c, k);
      corners.push_back({p[0], p[1], p[2]});
    }
    shapes.add_polygon(c, corners.data(), corners.size());
  }
  return shapes;
}

CellShapes lonlat_shapes(const std::vector<double>& lons, const std::vector<double>& lats) {
  CellShapes shapes;
  std::int64_t id = 0;
  for (std::size_t j = 0; j + 1 < lats.size(); ++j)
    for (std::size_t i = 0; i + 1 < lons.size(); ++i)
      shapes.add_rectangle(id++, {lons[i], lons[i + 1] - lons[i], lats[j], lats[j + 1]});
  return shapes;
}

std::vector<double> steps(double from, double to, int n) {
  std::vector<double> v;
  for (int k = 0; k <= n; ++k) v.push_back(from + (to - from) * k / n);
  return v;
}

bool boxes_overlap(const LonLatCell& a, const LonLatCell& b) {
  if (a.north < b.south || b.north < a.south) return false;
  for (const double shift : {-360.0, 0.0, 360.0})
    if (a.west <= b.west + b.width + shift && b.west + shift <= a.west + a.width) return true;
  return false;
}

// The sum of the overlaps of destination cell t with every source cell.
double overlap_sum(const CellShapes& src, const CellShapes& dst, std::size_t t) {
  CellOverlap overlap;
  double sum = 0;
  for (std::size_t s = 0; s < src.size(); ++s) sum += overlap.area(src, s, dst, t);
  return sum;
}

// Every cell of both grids: its overlaps with the other grid add up to its area (both
// tile the whole sphere), to `tolerance` relative.
void expect_tilings_agree(const CellShapes& src, const CellShapes& dst, double tolerance) {
  CellOverlap overlap;
  std::vector<double> src_sum(src.size(), 0);
  std::vector<double> dst_sum(dst.size(), 0);
  for (std::size_t t = 0; t < dst.size(); ++t)
    for (std::size_t s = 0; s < src.size(); ++s) {
      if (!boxes_overlap(src.box[s], dst.box[t])) continue;
      const double a = overlap.area(src, s, dst, t);
      EXPECT_GE(a, -1e-18);
      src_sum[s] += a;
      dst_sum[t] += a;
    }
  double worst = 0;
  for (std::size_t s = 0; s < src.size(); ++s) {
    const double area = src.area[s];
    worst = std::max(worst, std::abs(src_sum[s] - area) / area);
  }
  for (std::size_t t = 0; t < dst.size(); ++t) {
    const double area = dst.area[t];
    worst = std::max(worst, std::abs(dst_sum[t] - area) / area);
  }
  EXPECT_LE(worst, tolerance);
  testing::Test::RecordProperty("worst_relative_error", std::to_string(worst));
}

TEST(SphericalPolygon, RectangleWithParallelsHasTheExactArea) {
  for (const LonLatCell& c : std::vector<LonLatCell>{{10, 2, 40, 41},
                                                     {350, 20, -60, -20},
                                                     {0, 179, -10, 80},
                                                     {100, 0.001, 89.9, 90},
                                                     {200, 3.75, -90, -88.7},
                                                     {5, 1e-3, 30, 30 + 1e-3},
                                                     {10, 0.25, 45, 45.25},
                                                     {300, 3.75, -62.5, -60},
                                                     {0, 90, -45, 45}}) {
    PolygonCorner corners[4];
    const std::size_t n = ferry::regrid::detail::rectangle_polygon(c, corners);
    // Corners as unit vectors carry rounding of 1e-16: relative to the cell's smallest
    // side L (radians), its area and moment are good to about 1e-16 / L.
    const double side = std::min(rad(c.width) * std::cos(rad(std::max(std::abs(c.south),
                                                                       std::abs(c.north)))),
                                 rad(c.north - c.south));
    const double tolerance = 1e-15 * (1 + 1 / std::max(side, 1e-300));
    SCOPED_TRACE(c.west);
    expect_near_relative(ferry::regrid::detail::polygon_area(corners, n), rectangle_area(c),
                         std::min(tolerance, 1e-9));
    const Vec3 m = ferry::regrid::detail::polygon_moment(corners, n);
    const Vec3 want = rectangle_moment(c);
    const double scale = ferry::regrid::detail::length(want) * std::min(tolerance, 1e-9);
    EXPECT_NEAR(m.x, want.x, scale);
    EXPECT_NEAR(m.y, want.y, scale);
    EXPECT_NEAR(m.z, want.z, scale);
  }
}

TEST(SphericalPolygon, OctantAreaAndMoment) {
  const std::vector<PolygonCorner> octant =
      great_circle_polygon({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
  EXPECT_NEAR(ferry::regrid::detail::polygon_area(octant.data(), 3), kPi / 2, 1e-15);
  const Vec3 m = ferry::regrid::detail::polygon_moment(octant.data(), 3);
  EXPECT_NEAR(m.x, kPi / 4, 1e-15);
  EXPECT_NEAR(m.y, kPi / 4, 1e-15);
  EXPECT_NEAR(m.z, kPi / 4, 1e-15);
}

TEST(SphericalPolygon, CellsAreCheckedAndCleaned) {
  ConvexPolygon out;
  // Repeated corners (a polar cell given with 4), either way round.
  EXPECT_EQ(convex_polygon_of(std::vector<double>{0, 10, 55, 20}.data(),
                              std::vector<double>{80, 80, 90, 90}.data(), 4, out),
            "");
  EXPECT_EQ(out.corners.size(), 3u);
  EXPECT_EQ(convex_polygon_of(std::vector<double>{0, 0, 10, 10}.data(),
                              std::vector<double>{0, 5, 5, 0}.data(), 4, out),
            "");
  EXPECT_GT(out.area, 0);
  // Corners 1e-10 degrees apart are one corner.
  EXPECT_EQ(convex_polygon_of(std::vector<double>{0, 1, 1 + 1e-10, 1, 0}.data(),
                              std::vector<double>{0, 0, 1e-10, 1, 1}.data(), 5, out),
            "");
  EXPECT_EQ(out.corners.size(), 4u);
  // Fewer than 3 distinct corners, out of order, no area.
  EXPECT_NE(convex_polygon_of(std::vector<double>{0, 1, 1, 0}.data(),
                              std::vector<double>{0, 0, 0, 0}.data(), 4, out)
                .find("2 distinct corners"),
            std::string::npos);
  EXPECT_NE(convex_polygon_of(std::vector<double>{0, 1, 0, 1}.data(),
                              std::vector<double>{0, 0, 1, 1}.data(), 4, out)
                .find("not given in order"),
            std::string::npos);
  EXPECT_NE(convex_polygon_of(std::vector<double>{0, 1, 2}.data(),
                              std::vector<double>{0, 0, 0}.data(), 3, out)
                .find("no area"),
            std::string::npos);
  // A nearly collinear corner on an edge keeps the cell convex.
  EXPECT_EQ(convex_polygon_of(std::vector<double>{0, 1, 2, 2, 0}.data(),
                              std::vector<double>{0, 1e-13, 0, 1, 1}.data(), 5, out),
            "");
}

// A cell checked by convex_polygon_of keeps what it measured (normals, area): the
// same bits as a cell measured from its corners alone, given either way round.
TEST(SphericalPolygon, CheckedCellsKeepTheirMeasures) {
  const std::vector<std::vector<double>> lons{
      {10, 10.3, 10.7, 10.2}, {10.2, 10.7, 10.3, 10}, {179.9, -179.8, -179.7, 179.8}, {0, 120, 240}};
  const std::vector<std::vector<double>> lats{
      {20, 19.8, 20.4, 20.6}, {20.6, 20.4, 19.8, 20}, {-0.2, -0.1, 0.3, 0.2}, {85, 86, 84}};
  ConvexPolygon polygon;
  CellShapes checked;
  CellShapes measured;
  checked.lonlat = measured.lonlat = false;
  for (std::size_t c = 0; c < lons.size(); ++c) {
    ASSERT_EQ(convex_polygon_of(lons[c].data(), lats[c].data(), static_cast<int>(lons[c].size()),
                                polygon),
              "");
    checked.add_convex(static_cast<std::int64_t>(c), polygon);
    measured.add_polygon(static_cast<std::int64_t>(c), polygon.corners.data(),
                         polygon.corners.size());
    EXPECT_EQ(polygon.area, ferry::regrid::detail::polygon_area(
                                great_circle_polygon(polygon.corners).data(), polygon.corners.size()));
  }
  EXPECT_EQ(checked.first, measured.first);
  ASSERT_EQ(checked.normals.size(), measured.normals.size());
  for (std::size_t k = 0; k < checked.normals.size(); ++k) {
    EXPECT_EQ(checked.normals[k].x, measured.normals[k].x);
    EXPECT_EQ(checked.normals[k].y, measured.normals[k].y);
    EXPECT_EQ(checked.normals[k].z, measured.normals[k].z);
  }
  for (std::size_t c = 0; c < lons.size(); ++c) {
    EXPECT_GT(checked.area[c], 0);
    EXPECT_EQ(checked.area[c], measured.area[c]) << "cell " << c;
    EXPECT_EQ(checked.box[c].west, measured.box[c].west);
    EXPECT_EQ(checked.box[c].width, measured.box[c].width);
    EXPECT_EQ(checked.box[c].south, measured.box[c].south);
    EXPECT_EQ(checked.box[c].north, measured.box[c].north);
    EXPECT_EQ(checked.cap[c].cos_radius, measured.cap[c].cos_radius);
  }
}

TEST(SphericalPolygon, BoxesHoldTheirCells) {
  // A cell across the date line, one holding the north pole, a tripolar-like cell.
  CellShapes shapes;
  const std::vector<Vec3> date_line = cell({179, -179, -179, 179}, {-1, -1, 1, 1});
  shapes.add_polygon(0, date_line.data(), date_line.size());
  EXPECT_NEAR(shapes.box[0].west, 179, 1e-6);
  EXPECT_NEAR(shapes.box[0].width, 2, 1e-6);
  const std::vector<Vec3> cap = cell({0, 72, 144, 216, 288}, {85, 85, 85, 85, 85});
  shapes.add_polygon(1, cap.data(), cap.size());
  EXPECT_EQ(shapes.box[1].width, 360);
  EXPECT_EQ(shapes.box[1].north, 90);
  // The edge from (0, 60) to (60, 60) bulges north of 60 degrees.
  const std::vector<Vec3> bulge = cell({0, 60, 30}, {60, 60, 50});
  shapes.add_polygon(2, bulge.data(), bulge.size());
  EXPECT_GT(shapes.box[2].north, 63);
  EXPECT_LT(shapes.box[2].south, 50);
  // At its middle, latitude atan(tan 60 / cos 30) = atan 2; the same to the south.
  const double bulge_lat = std::atan(2.0) / kRadiansPerDegree;
  EXPECT_NEAR(shapes.box[2].north, bulge_lat, 1e-6);
  const std::vector<Vec3> south_bulge = cell({0, 30, 60}, {-60, -50, -60});
  shapes.add_polygon(3, south_bulge.data(), south_bulge.size());
  EXPECT_NEAR(shapes.box[3].south, -bulge_lat, 1e-6);
  EXPECT_NEAR(shapes.box[3].north, -50, 1e-6);
}

TEST(SphericalPolygon, BinsListEveryBoxAQueryMeetsAcrossTheDateLine) {
  // Boxes at and around 0/360 degrees, some reaching past 360, against every query:
  // the candidates hold every box that overlaps the query (once), whichever side of
  // the wrap either box is given on.
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> offset(-2, 2);
  std::uniform_real_distribution<double> size(0.01, 1.5);
  auto box_near_wrap = [&] {
    double west = offset(random);
    if (west < 0) west += 360;
    const double south = offset(random) * 20;
    return LonLatCell{west, size(random), south, south + size(random)};
  };
  std::vector<LonLatCell> cells(400);
  for (LonLatCell& c : cells) c = box_near_wrap();
  const ferry::regrid::detail::CellBins bins(cells);
  std::vector<std::uint32_t> candidates;
  for (int q = 0; q < 400; ++q) {
    const LonLatCell query = box_near_wrap();
    bins.candidates(query, candidates);
    std::vector<std::uint32_t> sorted = candidates;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_TRUE(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
    for (std::uint32_t k = 0; k < cells.size(); ++k) {
      LonLatCell common{};
      if (ferry::regrid::detail::overlap_rectangle(cells[k], query, common))
        EXPECT_TRUE(std::binary_search(sorted.begin(), sorted.end(), k))
            << "query west " << query.west << " width " << query.width << ", cell " << k
            << " west " << cells[k].west << " width " << cells[k].width;
    }
  }
}

TEST(SphericalPolygon, RotatedGridTilesGeodesicMesh) {
  expect_tilings_agree(rotated_shapes({36, 18, 30, 50}), geodesic_shapes(6), 1e-12);
}

TEST(SphericalPolygon, LonLatGridTilesRotatedAndGeodesicGrids) {
  // Rectangles (with parallels) against great-circle cells: the mixed case.
  std::vector<double> lats = steps(-90, 90, 20);
  const CellShapes lonlat = lonlat_shapes(steps(-10, 350, 30), lats);
  expect_tilings_agree(lonlat, rotated_shapes({24, 12, 100, 70}), 1e-12);
  expect_tilings_agree(geodesic_shapes(5), lonlat, 1e-12);
}

TEST(SphericalPolygon, IdenticalAndSharedEdges) {
  // A grid against itself: each cell overlaps itself wholly, its neighbours not at all.
  const CellShapes g = rotated_shapes({12, 6, 20, 60});
  CellOverlap overlap;
  for (std::size_t t = 0; t < g.size(); ++t)
    for (std::size_t s = 0; s < g.size(); ++s) {
      const double a = overlap.area(g, s, g, t);
      if (s == t)
        expect_near_relative(a, g.area[t], 1e-14);
      else
        EXPECT_LE(a, 1e-17) << s << " " << t;
    }
  // A finer grid whose lines contain every line of a coarser one (shared edges and
  // corners on edges).
  expect_tilings_agree(rotated_shapes({24, 12, 20, 60}), rotated_shapes({12, 6, 20, 60}), 1e-12);
}

TEST(SphericalPolygon, NearlyCoincidentEdges) {
  // The same grid turned by 1e-15 and by 1e-12 degrees: edges nearly on each other.
  for (const double shift : {1e-15, 1e-13, 1e-12}) {
    const CellShapes a = rotated_shapes({12, 6, 20, 60});
    const CellShapes b = rotated_shapes({12, 6, 20 + shift, 60});
    expect_tilings_agree(a, b, 1e-12);
  }
}

TEST(SphericalPolygon, ParallelCrossesAGreatCircleTwice) {
  // The great circle through A = (-5, 60.5) and B = (45, 60.5) rises above 62 N
  // between 0 and 40 E, below it at both: the rectangle's northern parallel crosses it
  // twice. The triangles A B (20, 89) and B A (20, 30) share that edge and together
  // hold the rectangle, so its two overlaps add up to its area.
  const Vec3 a = sphere_point(-5, 60.5);
  const Vec3 b = sphere_point(45, 60.5);
  const Vec3 n = ferry::regrid::detail::edge_normal(a, b);
  auto gc_latitude = [&](double lon) {
    return std::atan(-(n.x * std::cos(rad(lon)) + n.y * std::sin(rad(lon))) / n.z) / rad(1);
  };
  ASSERT_LT(gc_latitude(0), 62);
  ASSERT_LT(gc_latitude(40), 62);
  ASSERT_GT(gc_latitude(20), 62);
  ASSERT_GT(gc_latitude(0), 61);
  CellShapes rectangle;
  rectangle.add_rectangle(0, {0, 40, 61, 62});
  CellShapes triangles;
  triangles.lonlat = false;
  const std::vector<Vec3> north = cell({-5, 45, 20}, {60.5, 60.5, 89});
  const std::vector<Vec3> south = cell({45, -5, 20}, {60.5, 60.5, 30});
  triangles.add_polygon(0, north.data(), north.size());
  triangles.add_polygon(1, south.data(), south.size());
  CellOverlap overlap;
  const double top = overlap.area(triangles, 0, rectangle, 0);
  const double bottom = overlap.area(triangles, 1, rectangle, 0);
  EXPECT_GT(top, 0);
  EXPECT_GT(bottom, 0);
  expect_near_relative(top + bottom, rectangle_area({0, 40, 61, 62}), 1e-13);
}

TEST(SphericalPolygon, ParallelCrossingsLieOnTheParallelAndThePlane) {
  // Rectangles of 0.25 degrees and of 3 degrees, clipped by cells of rotated grids
  // whose edges cross their parallels: a crossing is at the parallel's z to the last
  // bit and on the plane of the edge it crosses to rounding.
  std::mt19937 random(7);
  std::uniform_real_distribution<double> unit(0, 1);
  for (const double size : {0.25, 3.0}) {
    int parallel_crossings = 0;
    for (int trial = 0; trial < 200; ++trial) {
      const double west = 360 * unit(random);
      const double south = -80 + 160 * unit(random);
      PolygonCorner rectangle[4];
      const std::size_t n =
          ferry::regrid::detail::rectangle_polygon({west, size, south, south + size}, rectangle);
      // A quadrilateral about the rectangle's centre, turned by 10 to 80 degrees.
      const double turn = rad(10 + 70 * unit(random));
      const double lon0 = west + size / 2;
      const double lat0 = south + size / 2;
      std::vector<double> lons;
      std::vector<double> lats;
      for (int k = 0; k < 4; ++k) {
        const double a = turn + k * kPi / 2;
        lons.push_back(lon0 + 0.6 * size * std::cos(a) / std::cos(rad(lat0)));
        lats.push_back(lat0 + 0.6 * size * std::sin(a));
      }
      const std::vector<Vec3> quad = cell(lons, lats);
      std::vector<Vec3> normals(quad.size());
      ferry::regrid::detail::edge_normals(quad.data(), quad.size(), normals.data());
      PolygonClipper clipper;
      bool cut = false;
      const ferry::regrid::detail::ClippedPolygon out =
          clipper.clip(rectangle, n, normals.data(), normals.size(), cut);
      ASSERT_TRUE(cut);
      ASSERT_GE(out.size(), 3u);
      for (const PolygonCorner& c : out) {
        double nearest_plane = 1;
        for (const Vec3& normal : normals)
          nearest_plane =
              std::min(nearest_plane, std::abs(ferry::regrid::detail::dot(normal, c.p)));
        const bool on_parallel = c.p.z == rectangle[0].p.z || c.p.z == rectangle[2].p.z;
        const bool subject_corner =
            std::any_of(rectangle, rectangle + n, [&](const PolygonCorner& r) {
              return r.p.x == c.p.x && r.p.y == c.p.y && r.p.z == c.p.z;
            });
        if (subject_corner) continue;
        if (on_parallel) ++parallel_crossings;
        EXPECT_LE(nearest_plane, 1e-15);
        EXPECT_NEAR(ferry::regrid::detail::length(c.p), 1, 1e-15);
        // A corner reached along a parallel, or leaving along one, is on it exactly.
        if (c.next == EdgeKind::Parallel) EXPECT_TRUE(on_parallel);
      }
    }
    EXPECT_GT(parallel_crossings, 100) << "cells of " << size << " degrees";
  }
}

TEST(SphericalPolygon, TinyAndThinCells) {
  // A 1e-5 degree grid against a shifted copy of itself, and long thin cells.
  std::vector<double> lons = steps(20, 20 + 1e-4, 10);
  std::vector<double> lats = steps(45, 45 + 1e-4, 10);
  CellShapes fine;
  fine.lonlat = false;
  CellShapes shifted;
  shifted.lonlat = false;
  std::int64_t id = 0;
  for (int j = 0; j < 10; ++j)
    for (int i = 0; i < 10; ++i) {
      const std::vector<Vec3> c = cell({lons[i], lons[i + 1], lons[i + 1], lons[i]},
                                       {lats[j], lats[j], lats[j + 1], lats[j + 1]});
      fine.add_polygon(id, c.data(), c.size());
      ++id;
    }
  id = 0;
  for (int j = 0; j < 5; ++j) {
    // Cells 1e-4 long and 2e-5 wide, turned a little.
    const std::vector<Vec3> c =
        cell({20, 20 + 1e-4, 20 + 1e-4, 20},
             {45 + j * 2e-5, 45 + j * 2e-5 + 1e-7, 45 + (j + 1) * 2e-5 + 1e-7, 45 + (j + 1) * 2e-5});
    shifted.add_polygon(id++, c.data(), c.size());
  }
  // Every thin cell but the last lies inside the fine grid's patch (the top row leans
  // out by 1e-7 degrees): its overlaps add up to its area.
  for (std::size_t t = 0; t + 1 < shifted.size(); ++t)
    expect_near_relative(overlap_sum(fine, shifted, t),
                         shifted.area[t], 1e-9);
}

TEST(SphericalPolygon, PolarAndDateLineCells) {
  // A pentagon cap over the north pole and cells across the date line, against a
  // lon-lat grid from -180 and a rotated grid: tilings of the whole sphere.
  CellShapes caps;
  caps.lonlat = false;
  const std::vector<Vec3> north = cell({0, 72, 144, 216, 288}, {80, 80, 80, 80, 80});
  caps.add_polygon(0, north.data(), north.size());
  const std::vector<Vec3> south = cell({0, 288, 216, 144, 72}, {-80, -80, -80, -80, -80});
  caps.add_polygon(1, south.data(), south.size());
  const CellShapes lonlat = lonlat_shapes(steps(-180, 180, 72), steps(-90, 90, 90));
  for (std::size_t t = 0; t < caps.size(); ++t)
    expect_near_relative(overlap_sum(lonlat, caps, t), caps.area[t],
                         1e-12);
}

TEST(SphericalPolygon, ClippingIsSymmetricInTheSharedEdge) {
  // Two subjects sharing an edge get the same crossing points: their overlaps with a
  // cell that the edge cuts add up exactly to the overlap of their union.
  CellShapes halves;
  halves.lonlat = false;
  const std::vector<Vec3> left = cell({0, 2, 0}, {0, 0, 1});
  const std::vector<Vec3> right = cell({2, 2, 0}, {0, 1, 1});
  const std::vector<Vec3> whole = cell({0, 2, 2, 0}, {0, 0, 1, 1});
  halves.add_polygon(0, left.data(), left.size());
  halves.add_polygon(1, right.data(), right.size());
  halves.add_polygon(2, whole.data(), whole.size());
  CellShapes target;
  target.lonlat = false;
  const std::vector<Vec3> t = cell({0.5, 1.7, 1.6, 0.4}, {0.2, 0.3, 0.8, 0.7});
  target.add_polygon(0, t.data(), t.size());
  CellOverlap overlap;
  const double a = overlap.area(halves, 0, target, 0);
  const double b = overlap.area(halves, 1, target, 0);
  const double c = overlap.area(halves, 2, target, 0);
  expect_near_relative(a + b, c, 1e-14);
  expect_near_relative(c, target.area[0], 1e-14);
}

}  // namespace

namespace {

// ORCA2 cell 17906 and LMDZ cell 4714: the ORCA cell's northern edge passes a
// thousandth of a degree north of the LMDZ cell's southern parallel, a sliver of
// overlap 2 degrees long (CDO finds it: weight 0.0016 of the LMDZ cell).
TEST(SphericalPolygon, SliverAlongAParallel) {
  CellShapes orca;
  orca.lonlat = false;
  const std::vector<Vec3> c = cell({219.01682437, 217.01667173, 217.00905284, 219.0091388},
                                   {32.95872275, 32.96674147, 31.28736746, 31.28217878});
  orca.add_polygon(0, c.data(), c.size());
  CellShapes lmdz;
  lmdz.add_rectangle(0, {-144.375, 3.75, 32.95774555, 35.49295998});
  CellOverlap overlap;
  const double a = overlap.area(orca, 0, lmdz, 0);
  EXPECT_NEAR(a / lmdz.area[0], 0.0016319, 2e-6);
}

}  // namespace
