// Polygons on the unit sphere: exact areas and first moments, and clipping by a convex cell.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "regrid/sphere_vector.hpp"

namespace ferry::regrid::detail {

/// A point closer than this to the plane of a great circle (the sine of its angle to
/// the plane, about 64 nm on the Earth) lies on the circle: a corner on the edge of
/// another cell is on it, not a rounding error outside. An overlap then misses or
/// gains slivers no wider than this, at most kOnPlane x its perimeter of area.
inline constexpr double kOnPlane = 1e-14;

/// How an edge runs from one corner to the next.
enum class EdgeKind : std::uint8_t {
  GreatCircle = 0,  ///< the shorter arc of the great circle (meridians are great circles)
  Parallel = 1,     ///< along the circle of latitude of both ends, the shorter way round
};

/// A corner of a polygon and the kind of the edge from it to the next corner.
/// Polygons run anticlockwise seen from outside the sphere (the inside on the left).
struct PolygonCorner {
  Vec3 p;
  EdgeKind next;
};

/// Not collective. The area on the unit sphere of a polygon (negative if it runs
/// clockwise): a fan of triangles from its first corner, each by Van Oosterom and
/// Strackee's formula with corner differences (exact for small cells to about 1e-16
/// relative), their angles added as the argument of a product of complex numbers (one
/// arc tangent per polygon), plus for each parallel edge the sliver between it and the
/// great circle through its ends.
double polygon_area(const PolygonCorner* corners, std::size_t n);

/// Not collective: polygon_area of a polygon whose edges are all great circles, the
/// same bits, from its bare corners.
double great_circle_area(const Vec3* corners, std::size_t n);

/// Not collective. The first moment of a polygon, the integral of the position x over
/// it: half the integral of (x - o) x dx around it, o its first corner, in closed form
/// edge by edge (exact, and for small cells to about 1e-16 relative). Divided by the
/// area it is the mean point of the polygon (inside the sphere), the centre about
/// which second-order remapping expands a field.
Vec3 polygon_moment(const PolygonCorner* corners, std::size_t n);

/// A polygon a PolygonClipper made: its corners [begin(), end()), held by the clipper.
struct ClippedPolygon {
  const PolygonCorner* corners;
  std::size_t n;
  std::size_t size() const { return n; }
  const PolygonCorner* begin() const { return corners; }
  const PolygonCorner* end() const { return corners + n; }
};

/// Clips polygons by convex cells bounded by great circles (Sutherland and Hodgman on
/// the sphere). Not thread-safe: it keeps its buffers between calls, so clipping
/// allocates nothing once they have grown.
class PolygonClipper {
 public:
  /// The part of `subject` (n corners, any polygon whose edges are great circles or
  /// parallels) inside the cell whose edges have the inward unit normals
  /// normals[0 .. m) (edge_normal of each edge of an anticlockwise convex cell). The
  /// result is empty, or 3 or more corners, or 2 between which a parallel and a great
  /// circle enclose a sliver; it is valid until the next call. A corner
  /// within kOnPlane of an edge's plane counts as inside; crossings of an edge with a
  /// plane are computed from the edge's ends in a fixed order, so two subjects sharing
  /// an edge get the same crossing bits. `cut` tells whether anything was cut away
  /// (if not, the result is the subject itself).
  ClippedPolygon clip(const PolygonCorner* subject, std::size_t n, const Vec3* normals,
                      std::size_t m, bool& cut);

 private:
  // One Sutherland-Hodgman pass of the n corners of `in` against the plane `normal`
  // into `out` (room for 3 n corners: an edge adds at most 3); returns how many.
  std::size_t clip_by_plane(const PolygonCorner* in, std::size_t n, const Vec3& normal,
                            PolygonCorner* out, bool& cut);

  // Corners are written in place, not pushed: the buffers only grow.
  std::vector<PolygonCorner> current_;
  std::vector<PolygonCorner> next_;
  std::vector<double> distance_;
};

}  // namespace ferry::regrid::detail
