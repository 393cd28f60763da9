// Whole grids of polygon cells for the regrid tests, known to every rank: a rotated
// (curvilinear) lon-lat grid, the geodesic mesh of hexagons and pentagons, a regular
// lon-lat grid; and this rank's share of one for a layout, as GridCells.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "ferry/geodesic_mesh.hpp"
#include "ferry/online_weights.hpp"

namespace regrid_test {

/// Cells as corner lists in degrees, with an optional mask (empty: all valid).
struct PolygonGrid {
  std::vector<std::vector<double>> lon;
  std::vector<std::vector<double>> lat;
  std::vector<std::int32_t> mask;
  ferry::CellEdges edges = ferry::CellEdges::Auto;
  std::int64_t size() const { return static_cast<std::int64_t>(lon.size()); }
  bool valid(std::int64_t i) const { return mask.empty() || mask[static_cast<std::size_t>(i)]; }
};

inline constexpr double kTestPi = 3.14159265358979323846;

/// Degrees of longitude and latitude of a unit vector.
inline void to_degrees(const double v[3], double& lon, double& lat) {
  lon = std::atan2(v[1], v[0]) * 180 / kTestPi;
  lat = std::atan2(v[2], std::hypot(v[0], v[1])) * 180 / kTestPi;
}

/// A regular nx x ny lon-lat grid seen from a pole at (pole_lon, pole_lat): a
/// curvilinear grid of great-circle cells, cells at the rotated poles triangles (the
/// corners there repeated). Cell (i, j) has id j * nx + i.
inline PolygonGrid rotated_grid(int nx, int ny, double pole_lon, double pole_lat) {
  const double d = kTestPi / 180;
  auto point = [&](double lon, double lat, double& out_lon, double& out_lat) {
    const double p[3] = {std::cos(lat * d) * std::cos(lon * d), std::cos(lat * d) * std::sin(lon * d),
                         std::sin(lat * d)};
    const double t = (90 - pole_lat) * d;
    const double q[3] = {p[0] * std::cos(t) + p[2] * std::sin(t), p[1],
                         -p[0] * std::sin(t) + p[2] * std::cos(t)};
    const double r = pole_lon * d;
    const double v[3] = {q[0] * std::cos(r) - q[1] * std::sin(r),
                         q[0] * std::sin(r) + q[1] * std::cos(r), q[2]};
    to_degrees(v, out_lon, out_lat);
  };
  PolygonGrid g;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const double w = i * 360.0 / nx, e = (i + 1) * 360.0 / nx;
      const double s = -90 + j * 180.0 / ny, n = -90 + (j + 1) * 180.0 / ny;
      std::vector<double> lon(4), lat(4);
      point(w, s, lon[0], lat[0]);
      point(e, s, lon[1], lat[1]);
      point(e, n, lon[2], lat[2]);
      point(w, n, lon[3], lat[3]);
      g.lon.push_back(lon);
      g.lat.push_back(lat);
    }
  return g;
}

/// The geodesic mesh of `frequency` (10 f^2 + 2 cells: hexagons and 12 pentagons).
inline PolygonGrid geodesic_grid(int frequency) {
  const ferry::GeodesicMesh mesh(frequency);
  PolygonGrid g;
  for (std::int64_t c = 0; c < mesh.cell_count(); ++c) {
    std::vector<double> lon, lat;
    const auto degree = static_cast<int>(mesh.offsets()[c + 1] - mesh.offsets()[c]);
    for (int k = 0; k < degree; ++k) {
      const auto p = mesh.corner(c, k);
      double x = 0, y = 0;
      to_degrees(p.data(), x, y);
      lon.push_back(x);
      lat.push_back(y);
    }
    g.lon.push_back(lon);
    g.lat.push_back(lat);
  }
  return g;
}

/// A regular lon-lat grid of nx x ny cells from longitude lon0 (rectangles).
inline PolygonGrid lonlat_grid(int nx, int ny, double lon0) {
  PolygonGrid g;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const double w = lon0 + i * 360.0 / nx, e = lon0 + (i + 1) * 360.0 / nx;
      const double s = -90 + j * 180.0 / ny, n = -90 + (j + 1) * 180.0 / ny;
      g.lon.push_back({w, e, e, w});
      g.lat.push_back({s, s, n, n});
    }
  return g;
}

/// This rank's share of `grid` for `layout`. `counts`: per-cell corner counts (slots
/// padded with zeros); else cells with fewer corners than the most repeat their last.
inline ferry::GridCells share(const PolygonGrid& grid, const ferry::Layout& layout,
                              bool counts = false, const std::string& name = "") {
  std::size_t most = 3;
  for (const auto& c : grid.lon) most = std::max(most, c.size());
  ferry::GridCells cells;
  cells.layout = layout;
  cells.corners = static_cast<int>(most);
  cells.edges = grid.edges;
  cells.name = name;
  for (std::int64_t id : layout.ids()) {
    const auto i = static_cast<std::size_t>(id);
    const std::size_t n = grid.lon[i].size();
    for (std::size_t k = 0; k < most; ++k) {
      const std::size_t from = std::min(k, n - 1);
      cells.corner_lon.push_back(k < n || !counts ? grid.lon[i][from] : 0);
      cells.corner_lat.push_back(k < n || !counts ? grid.lat[i][from] : 0);
    }
    if (counts) cells.corner_counts.push_back(static_cast<std::int32_t>(n));
    if (!grid.mask.empty()) cells.mask.push_back(grid.mask[i]);
  }
  return cells;
}

/// A source and a destination grid for conservative weights.
struct GridPair {
  const char* name;
  PolygonGrid src;
  PolygonGrid dst;
};

/// Every kind of pair: great circles both ways (the geodesic mesh has a cell around
/// each pole, the rotated grids triangles at their own poles and edges passing over the
/// geographic ones), mixed with rectangles, rectangles.
inline std::vector<GridPair> grid_pairs() {
  return {{"rotated -> geodesic", rotated_grid(30, 16, 20, 50), geodesic_grid(6)},
          {"geodesic -> rotated", geodesic_grid(5), rotated_grid(24, 12, 150, 20)},
          {"lonlat -> rotated", lonlat_grid(36, 18, -5), rotated_grid(24, 12, -40, 70)},
          {"geodesic -> lonlat", geodesic_grid(6), lonlat_grid(30, 15, 3)},
          {"lonlat -> lonlat", lonlat_grid(36, 18, -5), lonlat_grid(30, 15, 3)}};
}

/// grid_pairs() with some masked cells on both sides.
inline std::vector<GridPair> masked_grid_pairs() {
  std::vector<GridPair> pairs = grid_pairs();
  for (GridPair& pair : pairs) {
    for (std::int64_t i = 0; i < pair.src.size(); ++i) pair.src.mask.push_back(i % 5 == 2 ? 0 : 1);
    for (std::int64_t i = 0; i < pair.dst.size(); ++i) pair.dst.mask.push_back(i % 9 == 4 ? 0 : 1);
  }
  return pairs;
}

}  // namespace regrid_test
