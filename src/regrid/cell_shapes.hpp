// CellShapes: the cells of one grid as conservative remapping clips them.
#pragma once

#include <cstdint>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/online_weights.hpp"
#include "regrid/cell_polygon.hpp"
#include "regrid/lonlat_cell.hpp"
#include "regrid/lonlat_moments.hpp"
#include "regrid/spherical_polygon.hpp"

namespace ferry::regrid::detail {

/// A spherical cap around a cell: every point of the cell is within the angle
/// `radius` of `centre` (a unit vector); its cosine and sine are kept.
struct Cap {
  Vec3 centre;
  double cos_radius;
  double sin_radius;
};

/// Cells of one grid: longitude-latitude rectangles when the grid's edges are
/// meridians and parallels, convex polygons with great-circle edges otherwise.
struct CellShapes {
  bool lonlat = true;
  std::vector<std::int64_t> id;
  /// The rectangle itself (lonlat), or a box around the polygon.
  std::vector<LonLatCell> box;
  /// Cell i has corners[first[i] .. first[i + 1]), anticlockwise (a rectangle with its
  /// parallels as parallel edges); a polygon has the inward unit normal of the edge
  /// leaving each corner in normals[...] (same places; none for rectangles).
  std::vector<std::uint32_t> first{0};
  std::vector<PolygonCorner> corners;
  std::vector<Vec3> normals;
  /// Area on the unit sphere and a cap around each cell.
  std::vector<double> area;
  std::vector<Cap> cap;

  std::size_t size() const { return id.size(); }
  /// The centroid (radians) about which second-order remapping expands a field in
  /// cell i: the mean latitude, and the longitude about which the integral of
  /// (longitude - lon) cos(latitude) vanishes (SCRIP's longitude moment), within half a
  /// turn of the cell's cap centre; for a cell around a pole, whose eastward direction
  /// turns a whole turn, the longitude of its cap centre. Returns whether the cell goes
  /// round a pole. The same corners give the same bits anywhere.
  bool centroid(std::size_t i, double& lon, double& lat) const;
  /// Makes room for `cells` cells of `corners` corners in all (a rectangle has 4).
  void reserve(std::size_t cells, std::size_t corners);
  /// Appends cell `id`, a rectangle of a lonlat grid.
  void add_rectangle(std::int64_t id, const LonLatCell& rectangle);
  /// Appends cell `id`, a convex polygon: its corners anticlockwise (normals, box, area
  /// and cap computed from them, so the same corners give the same bits anywhere).
  void add_polygon(std::int64_t id, const Vec3* corners, std::size_t n);
  /// Appends cell `id`, a polygon convex_polygon_of checked, with the normals and area
  /// it measured (its box and cap computed here): the same bits as add_polygon on the
  /// same corners.
  void add_convex(std::int64_t id, const ConvexPolygon& polygon);
  /// Appends cell `id`, a convex polygon with the box and area add_polygon measured
  /// elsewhere (its normals and cap, cheap, are computed again): the same bits as
  /// add_polygon on the same corners.
  void add_measured(std::int64_t id, const LonLatCell& cell_box, const Vec3* cell_corners,
                    std::size_t n, double cell_area);
  /// Appends cell i of `from` (of the same kind, lonlat or not) as it is: its corners,
  /// normals, box, area and cap, the bits the other add_ functions give its corners.
  void add_copy(const CellShapes& from, std::size_t i);

 private:
  // Appends cell `id` and its n corners; returns where they start.
  std::size_t add_corners(std::int64_t id, const Vec3* cell_corners, std::size_t n);
  // Appends the area and cap of the last cell added.
  void measure_last();
  // The cap of the last cell added.
  Cap last_cap() const;
};

/// One grid as this rank gives it, checked.
struct CellInput {
  /// The valid (unmasked) cells.
  CellShapes shapes;
  /// Per local cell (layout order): its area on the unit sphere (0 for a masked cell
  /// that is not a valid shape) and a point inside it (degrees), for the id checks.
  std::vector<double> area;
  GridPoints centres;
};

/// Collective over `comm`. Checks this rank's cells of `grid` (called `which`,
/// "source" or "destination") and turns the valid ones into shapes: rectangles when
/// every valid cell of the grid on every rank is one and the grid's edges are Auto or
/// LonLat, polygons otherwise. Raises on every rank alike, naming `caller`, the grid,
/// the first bad cell, its rank and corners (see conservative_weights).
CellInput read_cells(const Comm& comm, const char* caller, const GridCells& grid,
                     const char* which);

}  // namespace ferry::regrid::detail
