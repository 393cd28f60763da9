#include "regrid/cell_shapes.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "regrid/cell_polygon.hpp"
#include "regrid/spherical_polygon.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::regrid::detail {

namespace {

// "(lon, lat), (lon, lat), ...": a cell's corners for an error message.
std::string listed(const double* lon, const double* lat, int corners) {
  std::ostringstream out;
  for (int c = 0; c < corners; ++c) out << (c ? ", (" : "(") << lon[c] << ", " << lat[c] << ")";
  return out.str();
}

// "source cell" or "source grid "torc" cell", as messages name a cell.
std::string cell_label(const GridCells& grid, const char* which) {
  if (grid.name.empty()) return ferry::detail::cat(which, " cell");
  return ferry::detail::cat(which, " grid \"", grid.name, "\" cell");
}

bool valid(const GridCells& grid, std::size_t i) { return grid.mask.empty() || grid.mask[i] != 0; }

// The corners of local cell i.
struct CellCorners {
  const double* lon;
  const double* lat;
  int n;
};

CellCorners corners_of(const GridCells& grid, std::size_t i) {
  const std::size_t at = i * static_cast<std::size_t>(grid.corners);
  return {&grid.corner_lon[at], &grid.corner_lat[at],
          grid.corner_counts.empty() ? grid.corners : grid.corner_counts[i]};
}

// Array sizes, corner counts and coordinates of this rank's cells.
void check_arrays(const char* caller, const GridCells& grid, const char* which, int rank) {
  const auto n = static_cast<std::size_t>(grid.layout.local_size());
  const int corners = grid.corners;
  FERRY_CHECK(corners >= 3, Errc::Arg, caller, ": the ", which, " cells on rank ", rank, " have ",
              corners, " corners; give 3 or more (4 for a longitude-latitude rectangle)");
  const std::size_t expected = n * static_cast<std::size_t>(corners);
  FERRY_CHECK(grid.corner_lon.size() == expected && grid.corner_lat.size() == expected,
              Errc::ArgSize, caller, ": the ", which, " cells on rank ", rank, " have ",
              grid.corner_lon.size(), " corner longitudes and ", grid.corner_lat.size(),
              " corner latitudes, expected ", expected, " (", n, " cells x ", corners,
              " corners). Give the corners of each layout cell, cell after cell");
  FERRY_CHECK(grid.corner_counts.empty() || grid.corner_counts.size() == n, Errc::ArgSize, caller,
              ": the ", which, " corner counts on rank ", rank, " are ",
              grid.corner_counts.size(), ", expected ", n,
              " (one per layout cell) or none (every cell has `corners`)");
  FERRY_CHECK(grid.mask.empty() || grid.mask.size() == n, Errc::ArgSize, caller, ": the ", which,
              " mask on rank ", rank, " has ", grid.mask.size(), " values, expected ", n,
              " (the layout's local size) or none");
  FERRY_CHECK(grid.edges == CellEdges::Auto || grid.edges == CellEdges::GreatCircle ||
                  grid.edges == CellEdges::LonLat,
              Errc::Arg, caller, ": the ", which, " grid's edges are ",
              static_cast<int>(grid.edges), "; give CellEdges::Auto, GreatCircle or LonLat");
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t id = grid.layout.ids()[i];
    if (!grid.corner_counts.empty())
      FERRY_CHECK(grid.corner_counts[i] >= 1 && grid.corner_counts[i] <= corners, Errc::Arg,
                  caller, ": ", cell_label(grid, which), " ", id, " (rank ", rank, ") has ",
                  grid.corner_counts[i], " corners, outside 1..", corners,
                  ". Give each cell's corner count, at most `corners`");
    const CellCorners c = corners_of(grid, i);
    bool finite = true;
    for (int k = 0; k < c.n; ++k)
      finite = finite && std::isfinite(c.lon[k]) && std::isfinite(c.lat[k]) &&
               std::abs(c.lat[k]) <= 90;
    FERRY_CHECK(finite, Errc::Arg, caller, ": ", cell_label(grid, which), " ", id, " (rank ",
                rank, ") has corners ", listed(c.lon, c.lat, c.n),
                ". Give corners in degrees, finite, latitudes within -90..90");
  }
}

// Whether every valid cell of this rank is a longitude-latitude rectangle.
bool all_rectangles(const GridCells& grid) {
  LonLatCell cell{};
  for (std::size_t i = 0; i < grid.corner_lon.size() / static_cast<std::size_t>(grid.corners); ++i) {
    if (!valid(grid, i)) continue;
    const CellCorners c = corners_of(grid, i);
    if (!rectangle_of(c.lon, c.lat, c.n, cell).empty()) return false;
  }
  return true;
}

}  // namespace

void CellShapes::reserve(std::size_t cells, std::size_t corner_count) {
  id.reserve(cells);
  box.reserve(cells);
  first.reserve(cells + 1);
  area.reserve(cells);
  cap.reserve(cells);
  corners.reserve(corner_count);
  if (!lonlat) normals.reserve(corner_count);
}

void CellShapes::add_rectangle(std::int64_t cell, const LonLatCell& rectangle) {
  id.push_back(cell);
  box.push_back(rectangle);
  PolygonCorner outline[4];
  const std::size_t n = rectangle_polygon(rectangle, outline);
  corners.insert(corners.end(), outline, outline + n);
  first.push_back(static_cast<std::uint32_t>(corners.size()));
  measure_last();
}

std::size_t CellShapes::add_corners(std::int64_t cell, const Vec3* cell_corners, std::size_t n) {
  id.push_back(cell);
  const std::size_t at = corners.size();
  for (std::size_t k = 0; k < n; ++k) corners.push_back({cell_corners[k], EdgeKind::GreatCircle});
  return at;
}

void CellShapes::add_polygon(std::int64_t cell, const Vec3* cell_corners, std::size_t n) {
  const std::size_t at = add_corners(cell, cell_corners, n);
  normals.resize(corners.size());
  edge_normals(cell_corners, n, &normals[at]);
  box.push_back(polygon_box(cell_corners, &normals[at], n));
  first.push_back(static_cast<std::uint32_t>(corners.size()));
  measure_last();
}

void CellShapes::add_convex(std::int64_t cell, const ConvexPolygon& polygon) {
  const std::size_t n = polygon.corners.size();
  add_corners(cell, polygon.corners.data(), n);
  normals.insert(normals.end(), polygon.normals.begin(), polygon.normals.end());
  box.push_back(polygon_box(polygon.corners.data(), polygon.normals.data(), n));
  first.push_back(static_cast<std::uint32_t>(corners.size()));
  area.push_back(polygon.area);
  cap.push_back(last_cap());
}

void CellShapes::add_measured(std::int64_t cell, const LonLatCell& cell_box,
                              const Vec3* cell_corners, std::size_t n, double cell_area) {
  const std::size_t at = add_corners(cell, cell_corners, n);
  normals.resize(corners.size());
  edge_normals(cell_corners, n, &normals[at]);
  box.push_back(cell_box);
  first.push_back(static_cast<std::uint32_t>(corners.size()));
  area.push_back(cell_area);
  cap.push_back(last_cap());
}

void CellShapes::add_copy(const CellShapes& from, std::size_t i) {
  id.push_back(from.id[i]);
  box.push_back(from.box[i]);
  corners.insert(corners.end(), from.corners.begin() + from.first[i],
                 from.corners.begin() + from.first[i + 1]);
  if (!lonlat)
    normals.insert(normals.end(), from.normals.begin() + from.first[i],
                   from.normals.begin() + from.first[i + 1]);
  first.push_back(static_cast<std::uint32_t>(corners.size()));
  area.push_back(from.area[i]);
  cap.push_back(from.cap[i]);
}

bool CellShapes::centroid(std::size_t i, double& lon, double& lat) const {
  const double lon0 = longitude_of(cap[i].centre);
  const double lat0 = latitude_of(cap[i].centre);
  const LonLatMoments m =
      lonlat ? rectangle_lonlat_moments(box[i], lon0, lat0)
             : polygon_lonlat_moments(&corners[first[i]], first[i + 1] - first[i], lon0, lat0);
  lon = m.around_pole ? lon0 : lon0 + m.lon / m.cos;
  lat = lat0 + m.lat / area[i];
  return m.around_pole;
}

void CellShapes::measure_last() {
  const std::size_t i = id.size() - 1;
  area.push_back(lonlat ? cell_area(box[i])
                        : polygon_area(&corners[first[i]], first[i + 1] - first[i]));
  cap.push_back(last_cap());
}

Cap CellShapes::last_cap() const {
  const std::size_t i = id.size() - 1;
  const PolygonCorner* c = &corners[first[i]];
  const std::size_t n = first[i + 1] - first[i];
  // The corners' mean direction; for a rectangle its parallels' middles count too,
  // since a parallel bulges beyond the great circle through its ends.
  Vec3 sum{0, 0, 0};
  for (std::size_t k = 0; k < n; ++k) sum = sum + c[k].p;
  const Vec3 centre = unit(sum);
  double cos_radius = 1;
  for (std::size_t k = 0; k < n; ++k) {
    cos_radius = std::min(cos_radius, dot(centre, c[k].p));
    if (c[k].next == EdgeKind::Parallel) {
      const Vec3& q = c[(k + 1) % n].p;
      const Vec3 middle = unit(Vec3{(c[k].p.x + q.x) / 2, (c[k].p.y + q.y) / 2, 0});
      const double r = std::sqrt((1 - c[k].p.z) * (1 + c[k].p.z));
      cos_radius = std::min(cos_radius, dot(centre, Vec3{r * middle.x, r * middle.y, c[k].p.z}));
    }
  }
  // A margin for rounding.
  cos_radius = std::max(-1.0, cos_radius - 1e-12);
  return {centre, cos_radius, std::sqrt(std::max(0.0, 1 - cos_radius * cos_radius))};
}

CellInput read_cells(const Comm& comm, const char* caller, const GridCells& grid,
                     const char* which) {
  ferry::detail::agree_on(comm, [&] { check_arrays(caller, grid, which, comm.rank()); });
  int lonlat = grid.edges != CellEdges::GreatCircle && all_rectangles(grid) ? 1 : 0;
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, &lonlat, 1, MPI_INT, MPI_LAND, comm.get()));

  CellInput input;
  input.shapes.lonlat = lonlat != 0 || grid.edges == CellEdges::LonLat;
  const auto n = static_cast<std::size_t>(grid.layout.local_size());
  input.shapes.reserve(n, n * static_cast<std::size_t>(grid.corners));
  input.area.assign(n, 0);
  input.centres = GridPoints{grid.layout, std::vector<double>(n), std::vector<double>(n),
                             grid.mask};
  ferry::detail::agree_on(comm, [&] {
    ConvexPolygon polygon;
    for (std::size_t i = 0; i < n; ++i) {
      const CellCorners c = corners_of(grid, i);
      const std::int64_t id = grid.layout.ids()[i];
      input.centres.lon[i] = c.lon[0];
      input.centres.lat[i] = c.lat[0];
      std::string why;
      if (input.shapes.lonlat) {
        LonLatCell cell{};
        why = rectangle_of(c.lon, c.lat, c.n, cell);
        if (why.empty()) {
          input.area[i] = cell_area(cell);
          if (valid(grid, i)) input.shapes.add_rectangle(id, cell);
        }
        FERRY_CHECK(why.empty() || !valid(grid, i), Errc::Arg, caller, ": ",
                    cell_label(grid, which), " ", id, " (rank ", comm.rank(), ") with corners ",
                    listed(c.lon, c.lat, c.n), " is not a longitude-latitude rectangle: ", why,
                    ". Give cells whose edges are meridians and parallels, or CellEdges::Auto "
                    "or GreatCircle for cells with great-circle edges");
        continue;
      }
      why = convex_polygon_of(c.lon, c.lat, c.n, polygon);
      FERRY_CHECK(why.empty() || !valid(grid, i), Errc::Arg, caller, ": ",
                  cell_label(grid, which), " ", id, " (rank ", comm.rank(), ") with corners ",
                  listed(c.lon, c.lat, c.n), " is not a valid cell: ", why,
                  ". Give each valid cell's corners in order around it (either way round), "
                  "or mask the cell");
      if (!why.empty()) continue;
      if (!valid(grid, i)) {
        input.area[i] = polygon.area;
        continue;
      }
      input.shapes.add_convex(id, polygon);
      input.area[i] = polygon.area;
    }
  });
  return input;
}

}  // namespace ferry::regrid::detail
