// PointTree: a k-d tree over points on the unit sphere, for exact k-nearest queries.
#pragma once

#include <cstdint>
#include <vector>

namespace ferry::regrid::detail {

/// A point on the unit sphere (x, y, z) with its global id.
struct SpherePoint {
  double xyz[3];
  std::int64_t id;
};

/// A candidate neighbour: its global id and its squared chord distance to the query.
struct Neighbour {
  std::int64_t id;
  double d2;
};

/// The order of neighbours everywhere: nearer first, then the lower global id. Any
/// search that returns the k first points in this order returns the same points.
inline bool nearer(const Neighbour& a, const Neighbour& b) {
  return a.d2 != b.d2 ? a.d2 < b.d2 : a.id < b.id;
}

/// Squared chord distance, always summed as x, then y, then z: the same bits wherever
/// it is computed.
inline double chord2(const double a[3], const double b[3]) {
  const double dx = a[0] - b[0];
  const double dy = a[1] - b[1];
  const double dz = a[2] - b[2];
  return dx * dx + dy * dy + dz * dz;
}

/// Not collective. Built once over one rank's points; answers exact queries.
class PointTree {
 public:
  explicit PointTree(std::vector<SpherePoint> points);

  /// Appends to `out` the (at most) k points with chord2 <= bound2 that come first in
  /// the `nearer` order, in that order.
  void nearest(const double query[3], int k, double bound2, std::vector<Neighbour>& out) const;

  std::size_t size() const noexcept { return points_.size(); }

 private:
  // Every point of a node lies within the angle `radius` of the unit vector
  // `centre` (kept as its cosine and sine). Planes alone prune badly for a query far
  // from a node: its chord distances then hardly depend on the coordinates the node is
  // split on.
  struct Node {
    std::uint32_t begin, end;  // points_[begin, end)
    std::int32_t axis;         // split axis, -1 for a leaf
    double split;              // points of the left child have coordinate <= split
    std::uint32_t left, right;
    double centre[3];
    double cos_radius, sin_radius;
  };
  std::uint32_t build(std::uint32_t begin, std::uint32_t end);

  std::vector<SpherePoint> points_;
  std::vector<Node> nodes_;
};

}  // namespace ferry::regrid::detail
