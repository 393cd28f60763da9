#include "regrid/bilinear_cells.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

#include "core/rendezvous.hpp"
#include "regrid/blocks.hpp"
#include "regrid/grid_input.hpp"
#include "regrid/id_set.hpp"
#include "regrid/neighbour_search.hpp"
#include "regrid/sphere_vector.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::regrid::detail {

namespace {

using ferry::detail::route;

// SCRIP's and CDO's Newton iteration: its tolerance and its number of steps.
constexpr double kConverge = 1e-10;
constexpr int kMaxIterations = 100;
// A point on a cell's edge may come out a rounding error outside it.
constexpr double kEdgeTolerance = 1e-12;
// The nearest source points whose surrounding cells are tried.
constexpr int kNearest = 4;
// A cell whose corners' longitudes span less than pi - kWide radians cannot hold a
// pole: it is not tested on the sphere.
constexpr double kWide = 1e-3;

struct Request {
  std::int64_t id;
  std::int32_t from;
};

// The corners (i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1) of the cell whose
// first corner has id `cell`.
void cell_corners(std::int64_t cell, std::int64_t nx, std::int64_t out[4]) {
  const std::int64_t i = cell % nx;
  const std::int64_t j = cell / nx;
  const std::int64_t next = (i + 1) % nx;
  out[0] = j * nx + i;
  out[1] = j * nx + next;
  out[2] = (j + 1) * nx + next;
  out[3] = (j + 1) * nx + i;
}

// Appends the cells that have source point `id` as a corner.
void cells_around(std::int64_t id, std::int64_t nx, std::int64_t ny, bool periodic,
                  std::vector<std::int64_t>& cells) {
  const std::int64_t i = id % nx;
  const std::int64_t j = id / nx;
  for (std::int64_t cj = j - 1; cj <= j; ++cj)
    for (std::int64_t ci = i - 1; ci <= i; ++ci) {
      if (cj < 0 || cj + 1 >= ny) continue;
      std::int64_t c = ci;
      if (c < 0) {
        if (!periodic) continue;
        c += nx;
      }
      if (!periodic && c + 1 >= nx) continue;
      cells.push_back(cj * nx + c);
    }
}

// SCRIP's Newton iteration for the position (a, b) of the point (u, v) in the cell
// whose corners are (u[c], v[c]) under the bilinear map. True if it converges inside
// the cell.
bool solve_bilinear_map(const double u[4], const double v[4], double pu, double pv, double& a,
                        double& b) {
  const double dth1 = u[1] - u[0];
  const double dth2 = u[3] - u[0];
  const double dth3 = u[2] - u[1] - dth2;
  const double dph1 = v[1] - v[0];
  const double dph2 = v[3] - v[0];
  const double dph3 = v[2] - v[1] - dph2;
  a = 0.5;
  b = 0.5;
  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    const double dthp = pu - u[0] - dth1 * a - dth2 * b - dth3 * a * b;
    const double dphp = pv - v[0] - dph1 * a - dph2 * b - dph3 * a * b;
    const double mat1 = dth1 + dth3 * b;
    const double mat2 = dth2 + dth3 * a;
    const double mat3 = dph1 + dph3 * b;
    const double mat4 = dph2 + dph3 * a;
    const double determinant = mat1 * mat4 - mat2 * mat3;
    if (determinant == 0) return false;
    const double deli = (dthp * mat4 - dphp * mat2) / determinant;
    const double delj = (dphp * mat1 - dthp * mat3) / determinant;
    if (std::abs(deli) < kConverge && std::abs(delj) < kConverge)
      return a >= -kEdgeTolerance && a <= 1 + kEdgeTolerance && b >= -kEdgeTolerance &&
             b <= 1 + kEdgeTolerance;
    a += deli;
    b += delj;
  }
  return false;
}

// A cell's corners in radians, longitudes taken within half a turn of a point's, and
// the span of those longitudes.
struct LonLatCell {
  double lon[4];
  double lat[4];
  double span;
};

LonLatCell lonlat_cell(const SourcePoint* corner[4], double plon) {
  LonLatCell cell;
  for (int c = 0; c < 4; ++c) {
    cell.lon[c] = corner[c]->lon;
    cell.lat[c] = corner[c]->lat;
    while (cell.lon[c] - plon > kPi) cell.lon[c] -= 2 * kPi;
    while (cell.lon[c] - plon < -kPi) cell.lon[c] += 2 * kPi;
  }
  cell.span = std::max(std::max(cell.lon[0], cell.lon[1]), std::max(cell.lon[2], cell.lon[3])) -
              std::min(std::min(cell.lon[0], cell.lon[1]), std::min(cell.lon[2], cell.lon[3]));
  return cell;
}

// Solves the bilinear map of a cell for the point (SCRIP's iteration, in radians). True,
// with the position (a, b) in the cell, if it converges inside the cell; false for a
// cell whose corners span more than half a turn.
bool position_in_cell(const LonLatCell& cell, double plon, double plat, double& a, double& b) {
  // A cell half a turn away in longitude (a cell at a pole, seen from a point across
  // it) comes out of the shift spanning most of a turn, which contains any point.
  if (cell.span > kPi) return false;
  return solve_bilinear_map(cell.lat, cell.lon, plat, plon, a, b);
}

// The point of the unit sphere at a source point's place (radians).
Vec3 sphere_point_of(const SourcePoint& p) {
  return {std::cos(p.lat) * std::cos(p.lon), std::cos(p.lat) * std::sin(p.lon), std::sin(p.lat)};
}

// True if a corner of the cell is on a pole (a lon-lat grid's polar row): its
// picture in longitude and latitude is the cell, and it keeps SCRIP's map.
bool corner_on_a_pole(const SourcePoint* corner[4]) {
  const double pole = 90 * kRadiansPerDegree;
  for (int c = 0; c < 4; ++c)
    if (std::abs(corner[c]->lat) == pole) return true;
  return false;
}

// True if a pole lies in the cell (corners `at`, none on a pole) or on its edges
// (great circles): every edge's plane has the pole on the same side (within 1e-12
// radians), so the cell winds round the polar axis. Such a cell (the ORCA grids'
// cells round the North Pole) is none in longitude and latitude, where the pole is a
// line: SCRIP's map has no solution there.
bool round_a_pole(const Vec3 at[4]) {
  constexpr double kPoleTolerance = 1e-12;
  bool north_side = true;
  bool south_side = true;
  for (int c = 0; c < 4; ++c) {
    const Vec3 normal = cross(at[c] - at[(c + 1) % 4], at[c] + at[(c + 1) % 4]);
    const double size = length(normal);
    if (!(size > 0)) return false;
    north_side = north_side && normal.z >= -kPoleTolerance * size;
    south_side = south_side && normal.z <= kPoleTolerance * size;
  }
  return north_side || south_side;
}

// Solves the bilinear map of a cell (corners `at`) for the point `p` in the gnomonic
// projection of the sphere onto the plane tangent at the cell's centre, where its
// great-circle edges are straight lines and a pole is an ordinary point. The same
// Newton iteration as in longitude and latitude; true, with (a, b), if it converges
// inside the cell.
bool position_on_sphere(const Vec3 at[4], const Vec3& p, double& a, double& b) {
  const Vec3 centre = unit(at[0] + at[1] + at[2] + at[3]);
  // Axes of the plane: along the cell's i direction, and across it.
  const Vec3 along = (at[1] - at[0]) + (at[2] - at[3]);
  const Vec3 x_axis = unit(along - dot(along, centre) * centre);
  const Vec3 y_axis = cross(centre, x_axis);
  double x[4];
  double y[4];
  for (int c = 0; c < 4; ++c) {
    const double height = dot(at[c], centre);
    if (!(height > 0)) return false;
    x[c] = dot(at[c], x_axis) / height;
    y[c] = dot(at[c], y_axis) / height;
  }
  const double height = dot(p, centre);
  if (!(height > 0)) return false;
  return solve_bilinear_map(y, x, dot(p, y_axis) / height, dot(p, x_axis) / height, a, b);
}

}  // namespace

std::vector<SourcePoint> fetch_source_points(const Comm& comm, const GridPoints& src,
                                             const std::vector<std::int64_t>& ids) {
  const Blocks blocks(src.layout.global_size(), comm.size());
  std::vector<SourcePoint> mine;
  mine.reserve(src.lon.size());
  for (std::size_t i = 0; i < src.lon.size(); ++i)
    mine.push_back({src.layout.ids()[i], src.lon[i] * kRadiansPerDegree,
                    src.lat[i] * kRadiansPerDegree,
                    src.mask.empty() ? 1 : src.mask[i], 0});
  // This rank's block of the directory, each point at its id's place in the block.
  const std::int64_t first = blocks.first(comm.rank());
  std::vector<SourcePoint> directory(static_cast<std::size_t>(blocks.count(comm.rank())),
                                     SourcePoint{-1, 0, 0, 0, 0});
  for (const SourcePoint& c :
       route(comm, std::move(mine), [&](const SourcePoint& c) { return blocks.owner(c.id); }))
    directory[static_cast<std::size_t>(c.id - first)] = c;

  std::vector<Request> requests;
  requests.reserve(ids.size());
  for (std::int64_t id : ids) requests.push_back({id, comm.rank()});
  const std::vector<Request> asked = route(
      comm, requests, [&](const Request& r) { return blocks.owner(r.id); });
  std::vector<SourcePoint> answers;
  answers.reserve(asked.size());
  for (const Request& r : asked) {
    SourcePoint c = directory[static_cast<std::size_t>(r.id - first)];
    FERRY_ASSERT(c.id == r.id, "source point ", r.id, " missing from the directory");
    c.to = r.from;
    answers.push_back(c);
  }
  // Sorted by id as they arrive: `ids` ascending asks the owners of ascending blocks
  // in rank order, and route keeps each rank's records in order, grouped by rank.
  return route(comm, answers, [](const SourcePoint& c) { return c.to; });
}

CellSearch locate_in_cells(const Comm& comm, const char* caller, const GridPoints& src,
                           const GridPoints& dst, const BilinearOptions& options) {
  const std::int64_t nx = options.nx;
  const std::int64_t size = src.layout.global_size();
  ferry::detail::agree_on(comm, [&] {
    FERRY_CHECK(options.unmapped == Unmapped::Fill || options.unmapped == Unmapped::Nearest ||
                    options.unmapped == Unmapped::FourNearest,
                Errc::Arg, caller, ": unmapped is ", static_cast<int>(options.unmapped),
                "; give Unmapped::Fill, Unmapped::Nearest or Unmapped::FourNearest");
    FERRY_CHECK(nx >= 2 && size % nx == 0 && size / nx >= 2, Errc::Arg, caller,
                ": the source grid has ", size, " points and nx is ", nx,
                "; give nx >= 2 dividing the size into 2 or more rows of nx points (point "
                "(i, j) has id j * nx + i)");
  });
  check_grids(comm, caller, src, dst);
  const std::int64_t ny = size / nx;
  const bool periodic = options.periodic;
  // Every source point, masked or not, shapes the cells. A row of points on a pole
  // (LMDZ's last) counts once, by its first point: its nx copies, all as near as each
  // other, would fill the 4 nearest with points of arbitrary longitude and hide the
  // cells of the row next to it, which place the point.
  std::vector<LocatedPoint> sources = located_points(src, false);
  sources.erase(std::remove_if(sources.begin(), sources.end(),
                               [&](const LocatedPoint& p) {
                                 return std::abs(p.lat) == 90 && p.point.id % nx != 0;
                               }),
                sources.end());
  const NeighbourLists lists =
      find_nearest(comm, sources, located_points(dst, true), kNearest);
  // The nearest points (for the misses) and the corners of every cell around them,
  // which hold the corners of every query's candidate cells: found from the distinct
  // nearest points, a few per source point, not from every query's cells. They lie in
  // the rows next to those of the nearest points.
  std::int64_t low = size;
  std::int64_t high = -1;
  for (const Neighbour& n : lists.neighbours) {
    low = std::min(low, n.id);
    high = std::max(high, n.id);
  }
  const std::int64_t first_row = high < 0 ? 0 : std::max<std::int64_t>(low / nx - 1, 0);
  const std::int64_t end_row = high < 0 ? 0 : std::min(high / nx + 2, ny);
  IdSet nearest(first_row * nx, (end_row - first_row) * nx);
  for (const Neighbour& n : lists.neighbours) nearest.insert(n.id);
  IdSet needed = nearest;
  std::vector<std::int64_t> around;
  for (std::int64_t id : nearest.ids()) {
    around.clear();
    cells_around(id, nx, ny, periodic, around);
    for (std::int64_t cell : around) {
      std::int64_t corner[4];
      cell_corners(cell, nx, corner);
      for (std::int64_t c : corner) needed.insert(c);
    }
  }
  const std::vector<SourcePoint> corners = fetch_source_points(comm, src, needed.ids());
  auto corner_of = [&](std::int64_t id) { return &corners[needed.position(id)]; };
  CellSearch found;
  for (std::size_t q = 0; q < lists.queries.size(); ++q) {
    const LocatedPoint& p = lists.queries[q];
    const double plat = p.lat * kRadiansPerDegree;
    const double plon = p.lon * kRadiansPerDegree;
    // The candidate cells: those around its nearest points, by ascending cell id.
    around.clear();
    for (int n = 0; n < kNearest; ++n)
      cells_around(lists.neighbours[q * kNearest + static_cast<std::size_t>(n)].id, nx, ny,
                   periodic, around);
    std::sort(around.begin(), around.end());
    around.erase(std::unique(around.begin(), around.end()), around.end());
    // The first cell that contains the point: a cell round a pole on the sphere, any
    // other in longitude and latitude (SCRIP's map); then, if none does but one is round
    // a pole, the others on the sphere too. Their lon-lat pictures next to a pole leave
    // slivers along the great-circle edges of the cell round it.
    bool pole_nearby = false;
    bool hit_valid = false;
    auto place = [&](bool on_sphere_only) {
      for (std::int64_t cell : around) {
        CellHit hit{p.point.id, {}, 0, 0};
        cell_corners(cell, nx, hit.corner);
        const SourcePoint* corner[4] = {corner_of(hit.corner[0]), corner_of(hit.corner[1]),
                                        corner_of(hit.corner[2]), corner_of(hit.corner[3])};
        const LonLatCell picture = lonlat_cell(corner, plon);
        // Corners within less than half a turn of longitude leave a pole outside.
        const bool maybe_round = on_sphere_only || picture.span >= kPi - kWide;
        Vec3 at[4];
        if (maybe_round)
          for (int c = 0; c < 4; ++c) at[c] = sphere_point_of(*corner[c]);
        const bool polar_corner = maybe_round && corner_on_a_pole(corner);
        const bool round = maybe_round && !polar_corner && round_a_pole(at);
        pole_nearby = pole_nearby || round;
        bool inside = false;
        if (round || on_sphere_only)
          inside = !polar_corner && position_on_sphere(at, sphere_point(p.lon, p.lat), hit.a, hit.b);
        else
          inside = position_in_cell(picture, plon, plat, hit.a, hit.b);
        if (!inside) continue;
        hit_valid = corner[0]->mask && corner[1]->mask && corner[2]->mask && corner[3]->mask;
        if (hit_valid) found.hits.push_back(hit);
        return true;
      }
      return false;
    };
    if (!place(false) && pole_nearby) place(true);
    if (hit_valid) continue;
    NearestFour miss{p, {}, {}, {}};
    for (int n = 0; n < kNearest; ++n) {
      const Neighbour& neighbour = lists.neighbours[q * kNearest + static_cast<std::size_t>(n)];
      miss.source[n] = neighbour.id;
      miss.d2[n] = neighbour.d2;
      miss.valid[n] = corner_of(neighbour.id)->mask != 0;
    }
    found.misses.push_back(miss);
  }
  return found;
}

void four_nearest_links(const NearestFour& miss, std::vector<WeightLink>& links) {
  // SCRIP's distances are arcs, 1e-14 keeps a coincident point finite.
  constexpr double kTiny = 1e-14;
  double inverse[4];
  double sum = 0;
  for (int n = 0; n < kNearest; ++n) {
    const double arc = 2 * std::asin(std::min(1.0, std::sqrt(miss.d2[n]) / 2));
    inverse[n] = miss.valid[n] ? 1 / (arc + kTiny) : 0;
    sum += inverse[n];
  }
  if (sum == 0) return;
  for (int n = 0; n < kNearest; ++n)
    if (miss.valid[n]) links.push_back({miss.target.point.id, miss.source[n], inverse[n] / sum, n});
}

std::vector<WeightLink> unmapped_links(const Comm& comm, const GridPoints& src,
                                       const BilinearOptions& options, const CellSearch& search) {
  std::vector<WeightLink> fill;
  if (options.unmapped == Unmapped::Fill) return fill;
  // Every valid destination point is a hit or a miss of the rank that located it, so
  // the misses without links are known here: no search for the rows without links.
  std::vector<LocatedPoint> unlinked;
  for (const NearestFour& miss : search.misses) {
    const std::size_t linked = fill.size();
    if (options.unmapped == Unmapped::FourNearest) four_nearest_links(miss, fill);
    if (fill.size() == linked) unlinked.push_back(miss.target);
  }
  const std::vector<LocatedPoint> sources = located_points(src, true);
  // No search without points to fill or valid points to fill them from.
  std::int64_t counts[2] = {static_cast<std::int64_t>(unlinked.size()),
                            static_cast<std::int64_t>(sources.size())};
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_INT64_T, MPI_SUM, comm.get()));
  if (counts[0] == 0 || counts[1] == 0) return fill;
  const NeighbourLists nearest = find_nearest(comm, sources, unlinked, 1);
  for (std::size_t q = 0; q < nearest.queries.size(); ++q)
    fill.push_back({nearest.queries[q].point.id, nearest.neighbours[q].id, 1.0, 0});
  return fill;
}

const char* unmapped_title(Unmapped unmapped, bool bicubic) {
  switch (unmapped) {
    case Unmapped::Nearest:
      return bicubic ? "ferry bicubic, nearest fill" : "ferry bilinear, nearest fill";
    case Unmapped::FourNearest:
      return bicubic ? "ferry bicubic, four-nearest fill" : "ferry bilinear, four-nearest fill";
    case Unmapped::Fill:
      break;
  }
  return bicubic ? "ferry bicubic" : "ferry bilinear";
}

}  // namespace ferry::regrid::detail
