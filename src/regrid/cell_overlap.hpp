// CellOverlap: the area of the overlap of two cells, clipped exactly on the sphere.
#pragma once

#include <cstddef>

#include "regrid/cell_shapes.hpp"
#include "regrid/lonlat_moments.hpp"
#include "regrid/spherical_polygon.hpp"

namespace ferry::regrid::detail {

/// Not collective, not thread-safe (it keeps its clipping buffers). Overlaps of the
/// cells of a source and a destination grid:
/// - two rectangles overlap in a rectangle, of exact area (lonlat_cell.hpp);
/// - cells whose caps are apart, or whose boxes are apart, do not overlap;
/// - otherwise the cell with parallels (a rectangle), or else the source cell, is
///   clipped by the other, a convex polygon with great-circle edges; if nothing of it
///   is cut away, the overlap is that cell, of its own area.
/// The result depends only on the two cells, never on where it is computed.
class CellOverlap {
 public:
  /// The area on the unit sphere of the overlap of source cell i and destination cell j.
  double area(const CellShapes& src, std::size_t i, const CellShapes& dst, std::size_t j);
  /// Its area as area() gives it, and its moments about (lon0, lat0), radians (see
  /// lonlat_moments.hpp).
  double area_and_moments(const CellShapes& src, std::size_t i, const CellShapes& dst,
                          std::size_t j, double lon0, double lat0, LonLatMoments& moments);

 private:
  // The overlap of two cells that are not both rectangles, where not apart: the
  // subject itself (`whole`, cell `s` of `subject`) if nothing was cut away, else the
  // clipped polygon.
  struct Clipped {
    bool apart;
    bool whole;
    const CellShapes* subject;
    std::size_t s;
    ClippedPolygon polygon;
  };
  Clipped clip(const CellShapes& src, std::size_t i, const CellShapes& dst, std::size_t j);

  PolygonClipper clipper_;
};

}  // namespace ferry::regrid::detail
