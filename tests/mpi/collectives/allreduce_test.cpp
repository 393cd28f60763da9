// ferry::Allreduce: each algorithm sums exactly as MPI_Allreduce does where the sum
// is exact, and gives every rank the same bits where it is not.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "ferry/collectives.hpp"
#include "test_support.hpp"
#include "world.hpp"

using ferry::AllreduceAlgorithm;
using ferry::Datatype;

namespace {

using ferry_test::World;

// Vector lengths: empty, shorter than the rank count, not a multiple of it, larger.
const std::vector<int> kCounts = {0, 1, 3, 7, 1000, 4099};

// Term i of rank r: integer-valued, so every partial sum of doubles is exact.
std::int64_t term(int rank, int i) { return 1000 * static_cast<std::int64_t>(i) + rank * rank - 3; }

template <class T>
void check_exact(Datatype type, MPI_Datatype mpi_type, const std::vector<int>& counts = kCounts) {
  const World world;
  for (int count : counts) {
    std::vector<T> send(static_cast<std::size_t>(count));
    std::vector<T> expected(send.size());
    for (int i = 0; i < count; ++i) {
      send[i] = static_cast<T>(term(world.rank, i));
      std::int64_t sum = 0;
      for (int r = 0; r < world.size; ++r) sum += term(r, i);
      expected[i] = static_cast<T>(sum);
    }
    std::vector<T> reference(send.size());
    MPI_Allreduce(send.data(), reference.data(), count, mpi_type, MPI_SUM, MPI_COMM_WORLD);
    ASSERT_EQ(reference, expected) << "count " << count;

    for (AllreduceAlgorithm algorithm : ferry::allreduce_algorithms()) {
      SCOPED_TRACE(std::string(ferry::algorithm_name(algorithm)) + ", count " +
                   std::to_string(count));
      ferry::Allreduce allreduce(MPI_COMM_WORLD, algorithm, type, count);
      EXPECT_EQ(allreduce.algorithm(), algorithm);
      std::vector<T> recv(send.size(), T(-1));
      allreduce.execute(send.data(), recv.data());
      EXPECT_EQ(recv, expected);
      std::vector<T> in_place = send;
      allreduce.execute(in_place.data(), in_place.data());
      EXPECT_EQ(in_place, expected);
    }
  }
}

TEST(Allreduce, IntegerSumsEqualMpi) {
  check_exact<std::int32_t>(Datatype::Int32, MPI_INT32_T);
  check_exact<std::int64_t>(Datatype::Int64, MPI_INT64_T);
}

TEST(Allreduce, IntegerValuedDoublesEqualMpi) {
  check_exact<double>(Datatype::Float64, MPI_DOUBLE);
}

// Up to 1000 values, so that every sum stays below 2^24 and float32 holds it exactly.
TEST(Allreduce, IntegerValuedFloatsEqualMpi) {
  check_exact<float>(Datatype::Float32, MPI_FLOAT, {0, 1, 3, 7, 1000});
}

// General doubles: the order of the additions differs between algorithms, so only
// closeness to MPI's sum is expected; but all ranks, and repeated runs, agree bit for bit.
TEST(Allreduce, GeneralDoublesSameBitsOnEveryRank) {
  const World world;
  const int count = 257;
  std::vector<double> send(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) send[i] = 1.0 / (3.0 + world.rank + 0.37 * i);
  std::vector<double> reference(send.size());
  MPI_Allreduce(send.data(), reference.data(), count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (AllreduceAlgorithm algorithm : ferry::allreduce_algorithms()) {
    SCOPED_TRACE(ferry::algorithm_name(algorithm));
    ferry::Allreduce allreduce(MPI_COMM_WORLD, algorithm, Datatype::Float64, count);
    std::vector<double> first(send.size()), second(send.size());
    allreduce.execute(send.data(), first.data());
    allreduce.execute(send.data(), second.data());
    EXPECT_EQ(std::memcmp(first.data(), second.data(), first.size() * sizeof(double)), 0);
    std::vector<double> rank0 = first;
    MPI_Bcast(rank0.data(), count, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    EXPECT_EQ(std::memcmp(first.data(), rank0.data(), first.size() * sizeof(double)), 0);
    for (int i = 0; i < count; ++i) EXPECT_NEAR(first[i], reference[i], 1e-14 * world.size);
  }
}

TEST(Allreduce, CountDifferingBetweenRanksFailsOnEveryRank) {
  const World world;
  if (world.size == 1) GTEST_SKIP() << "needs two ranks to differ";
  ferry_test::expect_same_error_everywhere(
      [&] {
        ferry::Allreduce(MPI_COMM_WORLD, AllreduceAlgorithm::Ring, Datatype::Float64,
                         world.rank == world.size - 1 ? 5 : 4);
      },
      ferry::Errc::Arg,
      "Allreduce: the ranks pass different count \\(from 4 to 5\\)");
}

TEST(Allreduce, NegativeCountFailsOnEveryRank) {
  ferry_test::expect_same_error_everywhere(
      [] {
        ferry::Allreduce(MPI_COMM_WORLD, AllreduceAlgorithm::RecursiveHalving, Datatype::Int32,
                         -1);
      },
      ferry::Errc::Arg, "Allreduce: count is -1 on rank 0, expected >= 0");
}

TEST(Allreduce, AlgorithmNamesRoundTrip) {
  for (AllreduceAlgorithm algorithm : ferry::allreduce_algorithms())
    EXPECT_EQ(ferry::parse_allreduce_algorithm(ferry::algorithm_name(algorithm)), algorithm);
  EXPECT_FALSE(ferry::parse_allreduce_algorithm("rabenseifner").has_value());
}

}  // namespace
