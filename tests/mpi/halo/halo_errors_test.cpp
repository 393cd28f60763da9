// Bad input to a Halo fails on every rank with the same code and a message naming
// the rank that found it, the values, and the fix.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>
#include <vector>

#include "ferry/cell_partition.hpp"
#include "ferry/geodesic_mesh.hpp"
#include "ferry/halo.hpp"
#include "test_support.hpp"

using ferry::CellGraph;
using ferry::Errc;
using ferry::Halo;
using ferry::HaloOptions;
using ferry::PartitionMethod;
using ferry_test::expect_error;

namespace {

class HaloErrors : public testing::Test {
 protected:
  void SetUp() override {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    owner_ = ferry::partition_cells(mesh_.offsets(), mesh_.neighbours(), size_,
                                    PartitionMethod::Block);
    graph_ = mesh_.cell_graph(owner_, rank_);
  }

  // Every rank expects the error found on `failing_rank`: the same code, and a
  // message matching `pattern` (which names that rank where the check is local).
  void expect_halo_error(const CellGraph& graph, const HaloOptions& options, Errc code,
                         const std::string& pattern) {
    expect_error([&] { Halo(MPI_COMM_WORLD, graph, options); }, code, pattern);
  }

  std::string last() const { return std::to_string(size_ - 1); }

  const ferry::GeodesicMesh mesh_{3};  // 92 cells
  std::vector<int> owner_;
  CellGraph graph_;
  int rank_ = 0;
  int size_ = 1;
};

TEST_F(HaloErrors, NeighbourOutOfRange) {
  CellGraph graph = graph_;
  if (rank_ == size_ - 1) graph.neighbours[1] = 92;  // one past the last cell
  expect_halo_error(graph, {}, Errc::ArgRange,
                    "Halo: neighbour 1 of cell [0-9]+ on rank " + last() +
                        " is 92, outside 0..91 .*subtract 1");
}

TEST_F(HaloErrors, CellOutOfRange) {
  CellGraph graph = graph_;
  if (rank_ == 0) graph.cells[0] = -1;
  expect_halo_error(graph, {}, Errc::ArgRange,
                    "Halo: cell id -1 at position 0 of rank 0's cells is outside 0..91");
}

TEST_F(HaloErrors, OffsetsOfWrongLength) {
  CellGraph graph = graph_;
  if (rank_ == size_ - 1) graph.offsets.pop_back();
  expect_halo_error(graph, {}, Errc::ArgSize,
                    "Halo: CellGraph on rank " + last() + " has [0-9]+ cells and [0-9]+ offsets");
}

TEST_F(HaloErrors, CellTwiceOnOneRank) {
  CellGraph graph = graph_;
  if (rank_ == 0) {
    graph.cells.push_back(graph.cells[0]);
    graph.offsets.push_back(graph.offsets.back());
  }
  expect_halo_error(graph, {}, Errc::Duplicate,
                    "Halo: cell [0-9]+ is listed twice among rank 0's cells");
}

// Rank 0's owner array disagrees: it claims the last cell too.
TEST_F(HaloErrors, CellOwnedByTwoRanks) {
  if (size_ < 2) GTEST_SKIP() << "needs two ranks";
  std::vector<int> owner = owner_;
  if (rank_ == 0) owner.back() = 0;
  CellGraph graph = mesh_.cell_graph(owner, rank_);
  expect_halo_error(graph, {}, Errc::Duplicate,
                    "Halo: a cell is owned by two ranks .*id 91 is held by source ranks");
}

// Every rank's owner array gives cell 0 to a rank that does not exist.
TEST_F(HaloErrors, NeighbourOwnedByNoRank) {
  std::vector<int> owner = owner_;
  owner.front() = size_;
  CellGraph graph = mesh_.cell_graph(owner, rank_);
  HaloOptions deep;
  deep.depth = 2;
  for (const HaloOptions& options : {HaloOptions{}, deep})
    expect_halo_error(graph, options, Errc::Missing,
                      "Halo: cells named as neighbours are owned by no rank .*first: 0");
}

TEST_F(HaloErrors, DepthBelowOne) {
  HaloOptions options;
  options.depth = 0;
  expect_halo_error(graph_, options, Errc::Arg, "Halo: depth must be >= 1; got 0");
}

TEST_F(HaloErrors, RanksDisagreeOnDepth) {
  if (size_ < 2) GTEST_SKIP() << "needs two ranks";
  HaloOptions options;
  options.depth = rank_ == 0 ? 2 : 1;
  expect_halo_error(graph_, options, Errc::Arg,
                    "Halo: ranks disagree on the halo depth: from 1 to 2");
}

TEST_F(HaloErrors, RanksDisagreeOnMeshSize) {
  if (size_ < 2) GTEST_SKIP() << "needs two ranks";
  CellGraph graph = graph_;
  if (rank_ == 1) graph.global_cells = 93;
  expect_halo_error(graph, {}, Errc::Arg,
                    "Halo: ranks disagree on CellGraph::global_cells: from 92 to 93");
}

TEST_F(HaloErrors, UnknownEngine) {
  HaloOptions options;
  options.engine = "neighbour";
  expect_halo_error(graph_, options, Errc::Arg, "unknown engine \"neighbour\"");
}

TEST_F(HaloErrors, UnknownEngineOption) {
  HaloOptions options;
  options.engine = "p2p";
  options.engine_options.values["reorder"] = "true";
  expect_halo_error(graph_, options, Errc::Arg, "p2p: unknown option \"reorder\"");
}

}  // namespace
