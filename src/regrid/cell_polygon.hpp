// Grid cells as convex polygons on the sphere: their corners checked, their boxes.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "regrid/lonlat_cell.hpp"
#include "regrid/spherical_polygon.hpp"

namespace ferry::regrid::detail {

/// A cell's corners as convex_polygon_of leaves them, and what it measured of them on
/// the way: the inward normals of its edges (edge_normals) and its area
/// (great_circle_area), so that nothing is measured twice. Kept from cell to cell, its
/// vectors only grow.
struct ConvexPolygon {
  std::vector<Vec3> corners;
  std::vector<Vec3> normals;
  double area = 0;
};

/// Not collective. Reads the n corners (degrees, finite, latitudes within -90..90) of
/// a cell with great-circle edges into `out` as unit vectors. A corner less than 1e-9
/// degrees from the one before is the same corner and is dropped (so is a last corner
/// equal to the first); a cell given clockwise is turned round. Returns "" if what
/// remains is a convex polygon of 3 or more corners with positive area, else why not,
/// for an error message (and `out` is of no use).
std::string convex_polygon_of(const double* lon, const double* lat, int n, ConvexPolygon& out);

/// Not collective: the inward unit normal of each edge of an anticlockwise polygon,
/// normals[i] for the edge from corner i to corner i + 1.
void edge_normals(const Vec3* corners, std::size_t n, Vec3* normals);

/// Not collective: a longitude-latitude box holding a convex polygon with great-circle
/// edges (normals from edge_normals), widened by a rounding margin: its corners'
/// longitudes the way its edges go round, its latitudes with the bulge of each edge
/// towards a pole, and all longitudes up to the pole for a polygon holding one. The
/// box's width may reach 360 degrees.
LonLatCell polygon_box(const Vec3* corners, const Vec3* normals, std::size_t n);

/// Not collective: the polygon of a longitude-latitude rectangle, anticlockwise from its
/// south-west corner: parallels as parallel edges, meridians as great circles, the
/// corners at a pole merged into one. Returns the number of corners (3 or 4).
std::size_t rectangle_polygon(const LonLatCell& cell, PolygonCorner out[4]);

}  // namespace ferry::regrid::detail
