// Sparse ids: a plan over a huge index space costs what the ranks hold, not N/P.
// Each rank holds 1000 source ids spread over the whole of 0..N-1 and asks for
// another rank's ids in reverse order; every received value is checked, and the
// memory of the plan and of the exchange is measured against the 50 MB target.
#include <gtest/gtest.h>
#include <mpi.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

#include "counting_allocator.hpp"
#include "ferry/exchange.hpp"
#include "test_support.hpp"

namespace {

constexpr std::int64_t kIdsPerRank = 1000;
constexpr double kMegabyte = 1024.0 * 1024.0;
constexpr double kTargetMegabytes = 50.0;

// The value every rank sends for `id`: all 64 bits depend on it.
std::int64_t value_of(std::int64_t id) { return id ^ std::int64_t{0x2545F4914F6CDD1D}; }

// Source rank r's ids: kIdsPerRank ids spread evenly over 0..n-1, interleaved with the
// other ranks' so every home receives registrations from every rank.
std::vector<std::int64_t> source_ids(std::int64_t n, int ranks, int r) {
  const std::int64_t held = kIdsPerRank * ranks;
  const std::int64_t stride = n / held;
  std::vector<std::int64_t> ids;
  for (std::int64_t i = 0; i < kIdsPerRank; ++i) ids.push_back((i * ranks + r) * stride + r);
  return ids;
}

// Largest resident set so far, in bytes (ru_maxrss is in KiB on Linux).
double max_resident_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) * 1024.0;
}

struct Measured {
  double plan_peak_mb;      // allocated by Plan::build at its peak, this rank
  double exchange_peak_mb;  // allocated by the plan and the engine's setup at their peak
  double resident_growth_mb;  // growth of the largest resident set over the whole test
};

// Builds the plan and the exchange for N = n on the world communicator, checks every
// received value over several exchanges, and returns the largest figures over ranks.
Measured run(std::int64_t n) {
  const int p = ferry_test::size_of(MPI_COMM_WORLD);
  const int r = ferry_test::rank_of(MPI_COMM_WORLD);
  const double resident_before = max_resident_bytes();
  const ferry::Layout src = ferry::Layout::points(n, source_ids(n, p, r));
  std::vector<std::int64_t> wanted = source_ids(n, p, (r + 1) % p);
  std::vector<std::int64_t> reversed(wanted.rbegin(), wanted.rend());
  const ferry::Layout dst = ferry::Layout::points(n, reversed);

  const ferry::Comm comm = ferry::Comm::dup(MPI_COMM_WORLD);
  const std::size_t live = ferry_test::allocation_stats().live_bytes;
  ferry_test::reset_allocation_stats();
  { const ferry::Plan plan = ferry::Plan::build(comm, src, dst); }
  const double plan_peak = static_cast<double>(ferry_test::allocation_stats().peak_bytes - live);

  ferry_test::reset_allocation_stats();
  ferry::Exchange exchange(MPI_COMM_WORLD, src, dst, {{ferry::Datatype::Int64, 1}},
                           ferry_test::engine(), ferry_test::engine_options());
  const double exchange_peak =
      static_cast<double>(ferry_test::allocation_stats().peak_bytes - live);

  std::vector<std::int64_t> out_values(src.ids().size());
  for (std::size_t i = 0; i < out_values.size(); ++i) out_values[i] = value_of(src.ids()[i]);
  std::vector<std::int64_t> in_values(dst.ids().size());
  const void* in[] = {out_values.data()};
  void* out[] = {in_values.data()};
  // Enough exchanges for the adaptive engine to time its candidates and settle.
  for (int k = 0; k < 40; ++k) {
    std::fill(in_values.begin(), in_values.end(), -1);
    exchange.execute(in, out);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < in_values.size(); ++i)
      if (in_values[i] != value_of(dst.ids()[i]) && wrong++ == 0)
        ADD_FAILURE() << "exchange " << k << ": id " << dst.ids()[i] << " at position " << i
                      << " on rank " << r << " received " << in_values[i] << ", expected "
                      << value_of(dst.ids()[i]);
    EXPECT_EQ(wrong, 0u) << "wrong values in exchange " << k << " on rank " << r;
  }
  double mine[3] = {plan_peak, exchange_peak, max_resident_bytes() - resident_before};
  double worst[3] = {0, 0, 0};
  MPI_Allreduce(mine, worst, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return {worst[0] / kMegabyte, worst[1] / kMegabyte, worst[2] / kMegabyte};
}

void expect_within_target(std::int64_t n, const Measured& m) {
  if (ferry_test::rank_of(MPI_COMM_WORLD) == 0)
    std::printf("N = %lld, %lld ids per rank: plan peak %.3f MB, plan + engine setup peak %.3f "
                "MB, resident set growth %.1f MB (largest over ranks)\n",
                static_cast<long long>(n), static_cast<long long>(kIdsPerRank), m.plan_peak_mb,
                m.exchange_peak_mb, m.resident_growth_mb);
  EXPECT_LT(m.plan_peak_mb, kTargetMegabytes);
  EXPECT_LT(m.exchange_peak_mb, kTargetMegabytes);
  EXPECT_LT(m.resident_growth_mb, kTargetMegabytes);
}

TEST(PlanSparse, ThreeBillionIds) {
  const std::int64_t n = 3'000'000'000;
  expect_within_target(n, run(n));
}

TEST(PlanSparse, IdsUpToTwoToTheSixtyThree) {
  const std::int64_t n = std::numeric_limits<std::int64_t>::max();
  expect_within_target(n, run(n));
}

}  // namespace
