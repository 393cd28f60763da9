// The geodesic test mesh and the partitions: shape, symmetry, geometry, balance.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "ferry/cell_partition.hpp"
#include "ferry/error.hpp"
#include "ferry/geodesic_mesh.hpp"

using ferry::GeodesicMesh;
using ferry::PartitionMethod;

namespace {

bool same_bits(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return std::memcmp(a.data(), b.data(), sizeof(double) * 3) == 0;
}

std::int64_t neighbour_position(const GeodesicMesh& mesh, std::int64_t cell, std::int64_t other) {
  for (auto k = mesh.offsets()[static_cast<std::size_t>(cell)];
       k < mesh.offsets()[static_cast<std::size_t>(cell) + 1]; ++k)
    if (mesh.neighbours()[static_cast<std::size_t>(k)] == other)
      return k - mesh.offsets()[static_cast<std::size_t>(cell)];
  return -1;
}

std::int64_t edge_cut(const GeodesicMesh& mesh, const std::vector<int>& owner) {
  std::int64_t cut = 0;
  for (std::int64_t c = 0; c < mesh.cell_count(); ++c)
    for (auto k = mesh.offsets()[static_cast<std::size_t>(c)];
         k < mesh.offsets()[static_cast<std::size_t>(c) + 1]; ++k)
      cut += owner[static_cast<std::size_t>(c)] !=
             owner[static_cast<std::size_t>(mesh.neighbours()[static_cast<std::size_t>(k)])];
  return cut / 2;
}

TEST(GeodesicMesh, HexagonsAndTwelvePentagons) {
  for (int f : {1, 2, 3, 8}) {
    const GeodesicMesh mesh(f);
    ASSERT_EQ(mesh.cell_count(), 10 * f * f + 2);
    int pentagons = 0;
    for (std::int64_t c = 0; c < mesh.cell_count(); ++c) {
      const auto degree = mesh.offsets()[static_cast<std::size_t>(c) + 1] -
                          mesh.offsets()[static_cast<std::size_t>(c)];
      ASSERT_TRUE(degree == 5 || degree == 6) << "cell " << c << " has " << degree;
      pentagons += degree == 5;
      for (auto k = mesh.offsets()[static_cast<std::size_t>(c)];
           k < mesh.offsets()[static_cast<std::size_t>(c) + 1]; ++k) {
        const std::int64_t n = mesh.neighbours()[static_cast<std::size_t>(k)];
        ASSERT_NE(n, c);
        ASSERT_GE(neighbour_position(mesh, n, c), 0) << "edge " << c << "-" << n << " one-sided";
      }
    }
    EXPECT_EQ(pentagons, 12);
  }
}

// The corners two cells share are the same bits seen from both, and the cells tile the sphere.
TEST(GeodesicMesh, SharedCornersAndAreas) {
  const GeodesicMesh mesh(6);
  double total = 0, smallest = 1e9, largest = 0;
  for (std::int64_t c = 0; c < mesh.cell_count(); ++c) {
    const double area = mesh.area(c);
    total += area;
    smallest = std::min(smallest, area);
    largest = std::max(largest, area);
    const auto first = mesh.offsets()[static_cast<std::size_t>(c)];
    const auto degree = static_cast<int>(mesh.offsets()[static_cast<std::size_t>(c) + 1] - first);
    for (int k = 0; k < degree; ++k) {
      // Corner k lies between neighbours k and k+1; seen from neighbour k it lies
      // between c and its predecessor there (counterclockwise order).
      const std::int64_t n = mesh.neighbours()[static_cast<std::size_t>(first + k)];
      const auto at = static_cast<int>(neighbour_position(mesh, n, c));
      ASSERT_TRUE(same_bits(mesh.corner(c, k), mesh.corner(n, at - 1)))
          << "corner " << k << " of cell " << c << " vs cell " << n;
    }
  }
  EXPECT_NEAR(total, 4 * M_PI, 1e-10);
  // Projected, not optimised like an SCVT: the largest cell is under twice the smallest.
  EXPECT_LT(largest / smallest, 2.0) << "quasi-uniform cells";
}

TEST(GeodesicMesh, FrequencyForCells) {
  EXPECT_EQ(GeodesicMesh::frequency_for(0), 1);
  EXPECT_EQ(GeodesicMesh::frequency_for(2562), 16);
  EXPECT_EQ(GeodesicMesh::frequency_for(40962), 64);
  EXPECT_EQ(GeodesicMesh::frequency_for(1000000), 316);
  EXPECT_THROW(GeodesicMesh(0), ferry::Error);
}

TEST(Partition, BlockRandomMetis) {
  const GeodesicMesh mesh(10);  // 1002 cells
  const int parts = 7;
  std::vector<std::int64_t> random_cut;
  for (const PartitionMethod method :
       {PartitionMethod::Block, PartitionMethod::Random, PartitionMethod::Metis}) {
    if (!ferry::partition_method_available(method)) {
      EXPECT_THROW(ferry::partition_cells(mesh.offsets(), mesh.neighbours(), parts, method),
                   ferry::Error);
      continue;
    }
    const auto owner = ferry::partition_cells(mesh.offsets(), mesh.neighbours(), parts, method, 1);
    ASSERT_EQ(owner, ferry::partition_cells(mesh.offsets(), mesh.neighbours(), parts, method, 1))
        << "deterministic";
    std::vector<int> sizes(parts, 0);
    for (int p : owner) {
      ASSERT_TRUE(p >= 0 && p < parts);
      ++sizes[static_cast<std::size_t>(p)];
    }
    const int ideal = static_cast<int>(mesh.cell_count() / parts);
    // Block and random are exact; METIS allows 3% imbalance by default.
    const int slack = method == PartitionMethod::Metis ? ideal * 3 / 100 + 1 : 1;
    EXPECT_LE(*std::max_element(sizes.begin(), sizes.end()), ideal + slack)
        << ferry::partition_method_name(method);
    if (method == PartitionMethod::Block)
      EXPECT_TRUE(std::is_sorted(owner.begin(), owner.end()));
    if (method == PartitionMethod::Random) random_cut.push_back(edge_cut(mesh, owner));
    if (method == PartitionMethod::Metis)
      EXPECT_LT(edge_cut(mesh, owner) * 5, random_cut.front()) << "METIS cuts far fewer edges";
  }
}

TEST(Partition, BadInput) {
  EXPECT_THROW(ferry::partition_cells({0, 1}, {0}, 0, PartitionMethod::Block), ferry::Error);
  EXPECT_THROW(ferry::partition_cells({0, 2}, {0}, 2, PartitionMethod::Block), ferry::Error);
  const GeodesicMesh mesh(2);
  EXPECT_THROW(mesh.cell_graph(std::vector<int>(3, 0), 0), ferry::Error);
}

}  // namespace
