// ferry::Alltoallv: each algorithm receives exactly what MPI_Alltoallv receives.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "ferry/collectives.hpp"
#include "test_support.hpp"
#include "world.hpp"

using ferry::AlltoallvAlgorithm;
using ferry::Datatype;

namespace {

using ferry_test::World;

constexpr int kUnwritten = -7;  // recv values in gaps must keep it

struct Pattern {
  std::vector<int> send_counts, send_displs, recv_counts, recv_displs;
  int send_total = 0;
  int recv_total = 0;
};

// Rank `from` sends count(from, to) values to rank `to`; blocks are laid out in
// reverse rank order with a gap of `gap` values before each.
template <class Count>
Pattern make_pattern(const World& world, Count count, int gap) {
  const auto [rank, size] = world;
  Pattern p;
  for (int peer = size - 1; peer >= 0; --peer) {
    p.send_total += gap;
    p.recv_total += gap;
    p.send_counts.insert(p.send_counts.begin(), count(rank, peer));
    p.recv_counts.insert(p.recv_counts.begin(), count(peer, rank));
    p.send_displs.insert(p.send_displs.begin(), p.send_total);
    p.recv_displs.insert(p.recv_displs.begin(), p.recv_total);
    p.send_total += count(rank, peer);
    p.recv_total += count(peer, rank);
  }
  return p;
}

// The value j of the block from rank `from` to rank `to`.
std::int64_t value(int from, int to, int j) { return 100000 * from + 1000 * to + j; }

template <class T>
void check_pattern(const Pattern& p, Datatype type) {
  const auto [rank, size] = World();
  std::vector<T> send(static_cast<std::size_t>(p.send_total), T(kUnwritten));
  for (int to = 0; to < size; ++to)
    for (int j = 0; j < p.send_counts[to]; ++j)
      send[p.send_displs[to] + j] = static_cast<T>(value(rank, to, j));

  std::vector<T> expected(static_cast<std::size_t>(p.recv_total), T(kUnwritten));
  for (int from = 0; from < size; ++from)
    for (int j = 0; j < p.recv_counts[from]; ++j)
      expected[p.recv_displs[from] + j] = static_cast<T>(value(from, rank, j));

  for (AlltoallvAlgorithm algorithm : ferry::alltoallv_algorithms()) {
    SCOPED_TRACE(ferry::algorithm_name(algorithm));
    ferry::Alltoallv alltoallv(MPI_COMM_WORLD, algorithm, type, p.send_counts, p.send_displs,
                               p.recv_counts, p.recv_displs);
    EXPECT_EQ(alltoallv.algorithm(), algorithm);
    for (int repeat = 0; repeat < 2; ++repeat) {  // again: no state left from the first run
      std::vector<T> recv(static_cast<std::size_t>(p.recv_total), T(kUnwritten));
      alltoallv.execute(send.data(), recv.data());
      EXPECT_EQ(recv, expected);
    }
  }
  // The reference itself, so the computed expectation is MPI's.
  std::vector<T> recv(static_cast<std::size_t>(p.recv_total), T(kUnwritten));
  MPI_Alltoallv(send.data(), p.send_counts.data(), p.send_displs.data(),
                type == Datatype::Float64 ? MPI_DOUBLE : MPI_INT32_T, recv.data(),
                p.recv_counts.data(), p.recv_displs.data(),
                type == Datatype::Float64 ? MPI_DOUBLE : MPI_INT32_T, MPI_COMM_WORLD);
  EXPECT_EQ(recv, expected);
}

TEST(Alltoallv, UnevenCountsWithEmptyBlocks) {
  const auto count = [](int from, int to) { return (from + 2 * to) % 4; };  // 0..3, zeros too
  check_pattern<std::int32_t>(make_pattern(World(), count, 0), Datatype::Int32);
  check_pattern<double>(make_pattern(World(), count, 2), Datatype::Float64);
}

TEST(Alltoallv, LargeIrregularBlocksWithGaps) {
  const auto count = [](int from, int to) { return from == to ? 0 : 300 * (from + 1) + 7 * to; };
  check_pattern<double>(make_pattern(World(), count, 3), Datatype::Float64);
}

TEST(Alltoallv, AllBlocksEmpty) {
  const auto count = [](int, int) { return 0; };
  check_pattern<std::int32_t>(make_pattern(World(), count, 1), Datatype::Int32);
}

TEST(Alltoallv, MismatchedCountsFailOnEveryRank) {
  const int size = World().size;
  std::vector<int> counts(static_cast<std::size_t>(size), 1);
  std::vector<int> recv_counts = counts;
  if (World().rank == size - 1) recv_counts[0] = 2;  // rank 0 sends only 1
  ferry_test::expect_same_error_everywhere(
      [&] {
        ferry::Alltoallv(MPI_COMM_WORLD, AlltoallvAlgorithm::Ring, Datatype::Int32, counts,
                         counts, recv_counts, counts);
      },
      ferry::Errc::ArgSize, "Alltoallv: rank [0-9]+ expects recv_counts\\[0\\] = 2 .* sends 1");
}

TEST(Alltoallv, WrongVectorLengthFailsOnEveryRank) {
  const int size = World().size;
  std::vector<int> counts(static_cast<std::size_t>(size), 0);
  std::vector<int> short_displs(static_cast<std::size_t>(World().rank == 0 ? size + 1 : size), 0);
  ferry_test::expect_same_error_everywhere(
      [&] {
        ferry::Alltoallv(MPI_COMM_WORLD, AlltoallvAlgorithm::Bruck, Datatype::Float64, counts,
                         short_displs, counts, counts);
      },
      ferry::Errc::ArgSize, "Alltoallv: send_displs has [0-9]+ entries, expected one per rank");
}

TEST(Alltoallv, UnknownAlgorithmFailsOnEveryRank) {
  const std::vector<int> counts(static_cast<std::size_t>(World().size), 0);
  ferry_test::expect_same_error_everywhere(
      [&] {
        ferry::Alltoallv(MPI_COMM_WORLD, static_cast<AlltoallvAlgorithm>(9), Datatype::Int32,
                         counts, counts, counts, counts);
      },
      ferry::Errc::Arg, "Alltoallv: unknown algorithm 9; use Mpi, Ring, Swap or Bruck");
}

TEST(Alltoallv, AlgorithmOrTypeDifferingBetweenRanksFailsOnEveryRank) {
  const World world;
  if (world.size == 1) GTEST_SKIP() << "needs two ranks to differ";
  const std::vector<int> counts(static_cast<std::size_t>(world.size), 0);
  const bool last = world.rank == world.size - 1;
  const AlltoallvAlgorithm algorithm = last ? AlltoallvAlgorithm::Bruck : AlltoallvAlgorithm::Ring;
  ferry_test::expect_same_error_everywhere(
      [&] {
        ferry::Alltoallv(MPI_COMM_WORLD, algorithm, Datatype::Int32, counts, counts, counts,
                         counts);
      },
      ferry::Errc::Arg, "Alltoallv: the ranks pass different algorithm \\(from ring to bruck\\)");
  ferry_test::expect_same_error_everywhere(
      [&] {
        ferry::Alltoallv(MPI_COMM_WORLD, AlltoallvAlgorithm::Swap,
                         last ? Datatype::Int64 : Datatype::Float64, counts, counts, counts,
                         counts);
      },
      ferry::Errc::Arg, "Alltoallv: the ranks pass different type \\(from float64 to int64\\)");
}

TEST(Alltoallv, AlgorithmNamesRoundTrip) {
  for (AlltoallvAlgorithm algorithm : ferry::alltoallv_algorithms())
    EXPECT_EQ(ferry::parse_alltoallv_algorithm(ferry::algorithm_name(algorithm)), algorithm);
  EXPECT_FALSE(ferry::parse_alltoallv_algorithm("pairwise").has_value());
}

}  // namespace
