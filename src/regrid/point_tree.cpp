#include "regrid/point_tree.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "regrid/sphere_vector.hpp"
#include "util/check.hpp"

namespace ferry::regrid::detail {

namespace {

constexpr std::uint32_t kLeafSize = 12;
// A node is skipped only when it is clearly beyond the worst candidate: rounding in
// its bounds must never drop a point at exactly that distance.
constexpr double kPruneSlack = 1 + 1e-12;
constexpr double kAngleSlack = 1e-12;
// Rounding of the bound below (a few 1e-16 in chord2): subtracted so that the bound
// stays below every true distance.
constexpr double kChord2Slack = 1e-14;
// The deepest a stack of nodes to visit gets: one per level, and the tree has at most
// 32 levels (2^32 points).
constexpr std::size_t kMaxStack = 64;

// The angle between two unit vectors at squared chord distance `d2`, accurate for
// small angles too.
double angle_of_chord2(double d2) { return 2 * std::asin(std::min(1.0, std::sqrt(d2) / 2)); }

// A lower bound of chord2 from `query` to any point of the cap of the angle whose
// cosine and sine are given around the unit vector `centre` (a free function, so that
// the search inlines it). The query at angle t from the centre, outside the cap of
// radius r: the nearest point of the cap is at angle t - r, chord2 = 2 - 2 cos(t - r),
// with cos t the dot product and sin t the cross product's length (no trigonometric
// call).
double cap_floor2(const double centre[3], double cos_radius, double sin_radius,
                  const double query[3]) {
  const double* c = centre;
  const double cos_t = c[0] * query[0] + c[1] * query[1] + c[2] * query[2];
  if (cos_t >= cos_radius) return 0;
  const double cross[3] = {c[1] * query[2] - c[2] * query[1], c[2] * query[0] - c[0] * query[2],
                           c[0] * query[1] - c[1] * query[0]};
  const double sin_t = std::sqrt(cross[0] * cross[0] + cross[1] * cross[1] + cross[2] * cross[2]);
  const double cos_gap = cos_t * cos_radius + sin_t * sin_radius;
  return std::max(0.0, 2 - 2 * cos_gap - kChord2Slack);
}

}  // namespace

PointTree::PointTree(std::vector<SpherePoint> points) : points_(std::move(points)) {
  FERRY_CHECK(points_.size() < std::numeric_limits<std::uint32_t>::max(), Errc::Overflow,
              "PointTree: ", points_.size(), " points on one rank; at most 2^32 - 2 fit");
  if (!points_.empty()) build(0, static_cast<std::uint32_t>(points_.size()));
}

std::uint32_t PointTree::build(std::uint32_t begin, std::uint32_t end) {
  const auto index = static_cast<std::uint32_t>(nodes_.size());
  nodes_.push_back({begin, end, -1, 0.0, 0, 0, {1, 0, 0}, -1, 0});  // the whole sphere
  {
    double sum[3] = {0, 0, 0};
    for (std::uint32_t i = begin; i < end; ++i)
      for (int a = 0; a < 3; ++a) sum[a] += points_[i].xyz[a];
    const double norm = std::sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]);
    Node& node = nodes_[index];
    if (norm > 1e-6) {
      // The angle grows with the chord: one arcsine for the farthest point.
      double far2 = 0;
      for (int a = 0; a < 3; ++a) node.centre[a] = sum[a] / norm;
      for (std::uint32_t i = begin; i < end; ++i)
        far2 = std::max(far2, chord2(node.centre, points_[i].xyz));
      const double radius = angle_of_chord2(far2) + kAngleSlack;
      if (radius < kPi) {
        node.cos_radius = std::cos(radius);
        node.sin_radius = std::sin(radius);
      }
    }
  }
  if (end - begin <= kLeafSize) return index;
  double low[3] = {2, 2, 2};
  double high[3] = {-2, -2, -2};
  for (std::uint32_t i = begin; i < end; ++i)
    for (int a = 0; a < 3; ++a) {
      low[a] = std::min(low[a], points_[i].xyz[a]);
      high[a] = std::max(high[a], points_[i].xyz[a]);
    }
  int axis = 0;
  for (int a = 1; a < 3; ++a)
    if (high[a] - low[a] > high[axis] - low[axis]) axis = a;
  const std::uint32_t mid = begin + (end - begin) / 2;
  std::nth_element(points_.begin() + begin, points_.begin() + mid, points_.begin() + end,
                   [axis](const SpherePoint& a, const SpherePoint& b) {
                     return a.xyz[axis] < b.xyz[axis];
                   });
  const double split = points_[mid].xyz[axis];
  const std::uint32_t left = build(begin, mid);
  const std::uint32_t right = build(mid, end);
  Node& node = nodes_[index];
  node.axis = axis;
  node.split = split;
  node.left = left;
  node.right = right;
  return index;
}

void PointTree::nearest(const double query[3], int k, double bound2,
                        std::vector<Neighbour>& out) const {
  if (nodes_.empty() || k < 1) return;
  // A max-heap in the `nearer` order at the end of `out` (no allocation once `out`
  // has grown): its front is the worst candidate kept.
  const auto start = static_cast<std::ptrdiff_t>(out.size());
  const auto full = static_cast<std::size_t>(k);
  const auto order = [](const Neighbour& a, const Neighbour& b) { return nearer(a, b); };
  const auto kept = [&] { return out.size() - static_cast<std::size_t>(start); };
  auto worst2 = [&] { return kept() < full ? bound2 : out[static_cast<std::size_t>(start)].d2; };

  // Nodes to visit with a lower bound of chord2 to their points, nearest on top.
  std::pair<std::uint32_t, double> stack[kMaxStack];
  std::size_t depth = 0;
  const auto floor2 = [&](std::uint32_t index) {
    const Node& node = nodes_[index];
    return cap_floor2(node.centre, node.cos_radius, node.sin_radius, query);
  };
  stack[depth++] = {0u, floor2(0)};
  while (depth > 0) {
    const auto [index, bound] = stack[--depth];
    if (bound > worst2() * kPruneSlack) continue;
    const Node& node = nodes_[index];
    if (node.axis < 0) {
      for (std::uint32_t i = node.begin; i < node.end; ++i) {
        const Neighbour candidate{points_[i].id, chord2(query, points_[i].xyz)};
        if (candidate.d2 > bound2) continue;
        if (kept() == full) {
          if (!nearer(candidate, out[static_cast<std::size_t>(start)])) continue;
          std::pop_heap(out.begin() + start, out.end(), order);
          out.pop_back();
        }
        out.push_back(candidate);
        std::push_heap(out.begin() + start, out.end(), order);
      }
      continue;
    }
    const double gap = query[node.axis] - node.split;
    const std::uint32_t near_child = gap <= 0 ? node.left : node.right;
    const std::uint32_t far_child = gap <= 0 ? node.right : node.left;
    const double near_bound = std::max(bound, floor2(near_child));
    const double far_bound =
        std::max({bound, gap * gap, floor2(far_child)});
    // The nearer child first: its candidates make the bound that prunes the other.
    FERRY_ASSERT(depth + 2 <= kMaxStack, "PointTree: a stack of ", depth, " nodes");
    if (far_bound < near_bound) {
      stack[depth++] = {near_child, near_bound};
      stack[depth++] = {far_child, far_bound};
    } else {
      stack[depth++] = {far_child, far_bound};
      stack[depth++] = {near_child, near_bound};
    }
  }
  std::sort_heap(out.begin() + start, out.end(), order);
}

}  // namespace ferry::regrid::detail
