// A plan never holds O(N) global data: its peak memory per rank while it is built,
// and what it keeps, grow with the ids this rank holds (N/P), not with N.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>

#include "counting_allocator.hpp"
#include "ferry/plan.hpp"

namespace {

struct PlanMemory {
  double peak_per_local_id;  // bytes allocated at the peak of Plan::build, per local id
  double kept_per_local_id;  // bytes the finished plan holds, per local id
};

// Max over ranks of the plan's peak and kept bytes, divided by this rank's ids.
PlanMemory measure(std::int64_t n) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const ferry::Layout src = ferry::Layout::block(n, size, rank);
  const ferry::Layout dst = ferry::Layout::round_robin(n, size, rank);
  const ferry::Comm comm = ferry::Comm::dup(MPI_COMM_WORLD);
  const std::size_t before = ferry_test::allocation_stats().live_bytes;
  ferry_test::reset_allocation_stats();
  const ferry::Plan plan = ferry::Plan::build(comm, src, dst);
  const double peak = static_cast<double>(ferry_test::allocation_stats().peak_bytes - before);
  const double local_ids = static_cast<double>(src.local_size() + dst.local_size());
  double mine[2] = {peak / local_ids, static_cast<double>(plan.memory_bytes()) / local_ids};
  double worst[2] = {0, 0};
  MPI_Allreduce(mine, worst, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return {worst[0], worst[1]};
}

TEST(PlanMemory, GrowsWithLocalIdsNotGlobalSize) {
  const PlanMemory small = measure(std::int64_t{1} << 18);
  const PlanMemory large = measure(std::int64_t{1} << 21);  // 8x the ids
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    std::printf("bytes per local id: peak %.1f -> %.1f, kept %.1f -> %.1f\n",
                small.peak_per_local_id, large.peak_per_local_id, small.kept_per_local_id,
                large.kept_per_local_id);
  // Memory per local id stays flat when N grows 8x at fixed P, so it is O(N/P):
  // an O(N) array on any rank would multiply the per-id figure by about 8.
  EXPECT_LT(large.peak_per_local_id, 1.25 * small.peak_per_local_id);
  EXPECT_LT(large.kept_per_local_id, 1.25 * small.kept_per_local_id);
  // And the constants are modest: a few records of a few int64 per id.
  EXPECT_LT(large.peak_per_local_id, 256.0);
  EXPECT_LT(large.kept_per_local_id, 40.0);
}

}  // namespace
