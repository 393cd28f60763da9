#include "ferry/geodesic_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include "halo/sphere.hpp"
#include "util/check.hpp"

namespace ferry {

namespace {

using detail::Vec3;

constexpr double kPhi = 1.6180339887498948482;

// The regular icosahedron; faces counterclockwise seen from outside, listed so that
// consecutive faces mostly share an edge (top cap, two middle bands, bottom cap).
constexpr Vec3 kCorners[12] = {{-1, kPhi, 0}, {1, kPhi, 0}, {-1, -kPhi, 0}, {1, -kPhi, 0},
                               {0, -1, kPhi}, {0, 1, kPhi}, {0, -1, -kPhi}, {0, 1, -kPhi},
                               {kPhi, 0, -1}, {kPhi, 0, 1}, {-kPhi, 0, -1}, {-kPhi, 0, 1}};
constexpr int kFaces[20][3] = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                               {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                               {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                               {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};

// A geodesic point has degree 5 (icosahedron corner) or 6.
constexpr int kMaxDegree = 6;

std::int64_t cells_of(std::int64_t frequency) { return 10 * frequency * frequency + 2; }

// Points on a face edge belong to two faces and corners to five: they are numbered
// when first met. Key: (lower corner, higher corner, weight on the higher corner);
// a corner alone is (corner, -1, 0).
using BoundaryKey = std::tuple<int, int, int>;

BoundaryKey boundary_key(const int corner[3], const int weight[3]) {
  int ids[2] = {-1, -1};
  int weights[2] = {0, 0};
  int count = 0;
  for (int v = 0; v < 3; ++v)
    if (weight[v] > 0) {
      ids[count] = corner[v];
      weights[count] = weight[v];
      ++count;
    }
  if (count == 1) return {ids[0], -1, 0};
  if (ids[0] > ids[1]) {
    std::swap(ids[0], ids[1]);
    std::swap(weights[0], weights[1]);
  }
  return {ids[0], ids[1], weights[1]};
}

// Adjacency while the triangles are read: up to six neighbours per point.
class NeighbourSlots {
 public:
  explicit NeighbourSlots(std::int64_t points)
      : slots_(static_cast<std::size_t>(points) * kMaxDegree, -1),
        count_(static_cast<std::size_t>(points), 0) {}

  void connect(std::int64_t a, std::int64_t b) {
    add(a, b);
    add(b, a);
  }
  int degree(std::int64_t a) const { return count_[static_cast<std::size_t>(a)]; }
  std::int64_t* begin(std::int64_t a) { return &slots_[static_cast<std::size_t>(a) * kMaxDegree]; }

 private:
  void add(std::int64_t a, std::int64_t b) {
    std::int64_t* list = begin(a);
    int& n = count_[static_cast<std::size_t>(a)];
    if (std::find(list, list + n, b) != list + n) return;
    FERRY_ASSERT(n < kMaxDegree, "geodesic point ", a, " has more than six neighbours");
    list[n++] = b;
  }

  std::vector<std::int64_t> slots_;
  std::vector<int> count_;
};

}  // namespace

GeodesicMesh::GeodesicMesh(int frequency) : frequency_(frequency) {
  FERRY_CHECK(frequency >= 1, Errc::Arg, "GeodesicMesh: frequency must be >= 1; got ", frequency,
              ". The mesh has 10 f^2 + 2 cells");
  FERRY_CHECK(cells_of(frequency) <= std::numeric_limits<std::int32_t>::max(), Errc::Arg,
              "GeodesicMesh: frequency ", frequency, " gives ", cells_of(frequency),
              " cells, more than this generator supports (2^31 - 1). Use a frequency up to 14654");
  const int n = frequency;
  const std::int64_t total = cells_of(n);
  centres_.reserve(static_cast<std::size_t>(total));
  std::map<BoundaryKey, std::int64_t> boundary;
  NeighbourSlots slots(total);

  // Ids of one face's points, row i (weight on corner B) by column j (weight on C).
  std::vector<std::int64_t> face_ids(static_cast<std::size_t>((n + 1) * (n + 2) / 2));
  auto at = [n](int i, int j) {
    return static_cast<std::size_t>(i * (n + 1) - i * (i - 1) / 2 + j);
  };
  for (const auto& face : kFaces) {
    for (int i = 0; i <= n; ++i)
      for (int j = 0; j <= n - i; ++j) {
        const int weight[3] = {n - i - j, i, j};
        const bool interior = weight[0] > 0 && weight[1] > 0 && weight[2] > 0;
        std::int64_t id = static_cast<std::int64_t>(centres_.size());
        if (!interior) {
          const auto [it, fresh] = boundary.emplace(boundary_key(face, weight), id);
          if (!fresh) {
            face_ids[at(i, j)] = it->second;
            continue;
          }
        }
        Vec3 point{0, 0, 0};
        for (int v = 0; v < 3; ++v)
          point = detail::add(point, detail::scale(weight[v], kCorners[face[v]]));
        centres_.push_back(detail::normalize(point));
        face_ids[at(i, j)] = id;
      }
    // The face's small triangles: (i,j) (i+1,j) (i,j+1) and (i+1,j) (i+1,j+1) (i,j+1).
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n - i; ++j) {
        const std::int64_t a = face_ids[at(i, j)], b = face_ids[at(i + 1, j)],
                           c = face_ids[at(i, j + 1)];
        slots.connect(a, b);
        slots.connect(b, c);
        slots.connect(c, a);
      }
  }
  FERRY_ASSERT(static_cast<std::int64_t>(centres_.size()) == total, "generated ",
               centres_.size(), " points, expected ", total);

  // Counterclockwise around the outward normal, starting from a fixed tangent direction.
  offsets_.reserve(static_cast<std::size_t>(total) + 1);
  neighbours_.reserve(static_cast<std::size_t>(total) * kMaxDegree);
  offsets_.push_back(0);
  std::vector<std::pair<double, std::int64_t>> around;
  for (std::int64_t c = 0; c < total; ++c) {
    const Vec3& x = centres_[static_cast<std::size_t>(c)];
    const Vec3 axis = std::fabs(x[2]) < 0.9 ? Vec3{0, 0, 1} : Vec3{1, 0, 0};
    const Vec3 e1 = detail::normalize(detail::cross(axis, x));
    const Vec3 e2 = detail::cross(x, e1);
    around.clear();
    for (int k = 0; k < slots.degree(c); ++k) {
      const std::int64_t other = slots.begin(c)[k];
      const Vec3 d = detail::sub(centres_[static_cast<std::size_t>(other)], x);
      around.emplace_back(std::atan2(detail::dot(d, e2), detail::dot(d, e1)), other);
    }
    std::sort(around.begin(), around.end());
    for (const auto& entry : around) neighbours_.push_back(entry.second);
    offsets_.push_back(static_cast<std::int64_t>(neighbours_.size()));
  }
}

int GeodesicMesh::frequency_for(std::int64_t cells) {
  if (cells <= cells_of(1)) return 1;
  const int guess = static_cast<int>(std::sqrt(static_cast<double>(cells - 2) / 10.0));
  // The closer of the two frequencies around the square root.
  const std::int64_t below = std::llabs(cells_of(guess) - cells);
  const std::int64_t above = std::llabs(cells_of(guess + 1) - cells);
  return std::max(1, above < below ? guess + 1 : guess);
}

const std::array<double, 3>& GeodesicMesh::centre(std::int64_t cell) const {
  FERRY_CHECK(cell >= 0 && cell < cell_count(), Errc::ArgRange, "GeodesicMesh::centre: cell ",
              cell, " is outside 0..", cell_count() - 1);
  return centres_[static_cast<std::size_t>(cell)];
}

std::array<double, 3> GeodesicMesh::corner(std::int64_t cell, int k) const {
  FERRY_CHECK(cell >= 0 && cell < cell_count(), Errc::ArgRange, "GeodesicMesh::corner: cell ",
              cell, " is outside 0..", cell_count() - 1);
  const std::int64_t first = offsets_[static_cast<std::size_t>(cell)];
  const auto degree = static_cast<int>(offsets_[static_cast<std::size_t>(cell) + 1] - first);
  const int wrapped = ((k % degree) + degree) % degree;
  std::int64_t ids[3] = {cell, neighbours_[static_cast<std::size_t>(first + wrapped)],
                         neighbours_[static_cast<std::size_t>(first + (wrapped + 1) % degree)]};
  std::sort(ids, ids + 3);
  return detail::circumcentre(centres_[static_cast<std::size_t>(ids[0])],
                              centres_[static_cast<std::size_t>(ids[1])],
                              centres_[static_cast<std::size_t>(ids[2])]);
}

double GeodesicMesh::area(std::int64_t cell) const {
  const Vec3& x = centre(cell);
  const auto degree = static_cast<int>(offsets_[static_cast<std::size_t>(cell) + 1] -
                                       offsets_[static_cast<std::size_t>(cell)]);
  double sum = 0;
  Vec3 previous = corner(cell, degree - 1);
  for (int k = 0; k < degree; ++k) {
    const Vec3 next = corner(cell, k);
    sum += detail::triangle_area(x, previous, next);
    previous = next;
  }
  return sum;
}

CellGraph GeodesicMesh::cell_graph(const std::vector<int>& owner, int rank) const {
  FERRY_CHECK(static_cast<std::int64_t>(owner.size()) == cell_count(), Errc::ArgSize,
              "GeodesicMesh::cell_graph: the owner array has ", owner.size(),
              " entries, expected one per cell (", cell_count(),
              "). Partition this mesh's cells, e.g. with partition_cells(mesh.offsets(), "
              "mesh.neighbours(), ...)");
  CellGraph graph;
  graph.global_cells = cell_count();
  graph.offsets.push_back(0);
  for (std::int64_t c = 0; c < cell_count(); ++c) {
    if (owner[static_cast<std::size_t>(c)] != rank) continue;
    graph.cells.push_back(c);
    graph.neighbours.insert(graph.neighbours.end(),
                            neighbours_.begin() + offsets_[static_cast<std::size_t>(c)],
                            neighbours_.begin() + offsets_[static_cast<std::size_t>(c) + 1]);
    graph.offsets.push_back(static_cast<std::int64_t>(graph.neighbours.size()));
  }
  return graph;
}

}  // namespace ferry
