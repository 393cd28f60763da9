// CellOverlap: the area of the overlap of two cells, clipped exactly on the sphere.
#pragma once

#include <cstddef>
#include <vector>

#include "regrid/cell_shapes.hpp"
#include "regrid/spherical_polygon.hpp"

namespace ferry::regrid::detail {

/// Not collective: the area on the unit sphere of cell i: exact for a rectangle, by
/// polygon_area for a polygon. The same corners give the same bits anywhere.
double shape_area(const CellShapes& shapes, std::size_t i);

/// Not collective, not thread-safe (it keeps its clipping buffers). Overlaps of the
/// cells of a source and a destination grid:
/// - two rectangles overlap in a rectangle, of exact area (lonlat_cell.hpp);
/// - otherwise the cell with parallels (a rectangle), or else the source cell, is
///   clipped by the other, a convex polygon with great-circle edges.
/// The result depends only on the two cells, never on where it is computed.
class CellOverlap {
 public:
  /// The area on the unit sphere of the overlap of source cell i and destination cell j.
  double area(const CellShapes& src, std::size_t i, const CellShapes& dst, std::size_t j);

 private:
  PolygonClipper clipper_;
  std::vector<PolygonCorner> subject_;
};

}  // namespace ferry::regrid::detail
