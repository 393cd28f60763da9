// Global sums: gather and reprosum give the same bits on any process count and layout,
// reprosum is the correctly rounded sum, lsum8, lsum16 and ddpdd stay within their
// precision of it, and bad input raises the same error on every rank. The disabled
// test GlobalSumBench.DISABLED_Cost times every method (docs/user/conservation.md).
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <vector>

#include "ferry/error.hpp"
#include "ferry/global_sum.hpp"
#include "ferry/layout.hpp"
#include "test_support.hpp"

using ferry::Errc;
using ferry::Layout;
using ferry::SumMethod;

namespace {

using ferry_test::rank_of;
using ferry_test::size_of;

constexpr int kSums = 3;
constexpr std::int64_t kPoints = 30011;
constexpr SumMethod kMethods[] = {SumMethod::Gather, SumMethod::Lsum8, SumMethod::Lsum16,
                                  SumMethod::Ddpdd, SumMethod::Reprosum};

// kSums terms per global point: magnitudes over 2^-60 .. 2^60 (36 decades) and both
// signs, from mt19937_64, whose stream the standard fixes.
std::vector<double> wild_terms() {
  std::mt19937_64 gen(20010501);
  std::vector<double> terms(kPoints * kSums);
  for (double& x : terms) {
    const double mantissa = static_cast<double>(gen() >> 11) * 0x1p-53;
    const int exponent = static_cast<int>(gen() % 121) - 60;
    x = std::ldexp(gen() % 2 ? -mantissa : mantissa, exponent);
  }
  return terms;
}

// kSums terms per point in [1, 2): no cancellation, every method within round-off.
std::vector<double> benign_terms() {
  std::mt19937_64 gen(7);
  std::vector<double> terms(kPoints * kSums);
  for (double& x : terms) x = 1.0 + static_cast<double>(gen() >> 11) * 0x1p-53;
  return terms;
}

// The exact sum rounded to nearest (Shewchuk's partials, as Python's math.fsum).
double exact_sum(const std::vector<double>& xs) {
  std::vector<double> partials;
  for (double x : xs) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < partials.size(); ++i) {
      double y = partials[i];
      if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
      const double hi = x + y;
      const double lo = y - (hi - x);
      if (lo != 0) partials[kept++] = lo;
      x = hi;
    }
    partials.resize(kept);
    partials.push_back(x);
  }
  if (partials.empty()) return 0;
  std::size_t n = partials.size() - 1;
  double hi = partials[n];
  double lo = 0;
  while (n > 0) {
    const double x = hi;
    const double y = partials[--n];
    hi = x + y;
    lo = y - (hi - x);
    if (lo != 0) break;
  }
  // Half-way case: the partials below decide the direction of rounding.
  if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
    const double y = lo * 2;
    const double x = hi + y;
    if (y == x - hi) hi = x;
  }
  return hi;
}

// Column j of the terms, and the sum of its magnitudes (scales the error bounds).
std::vector<double> column(const std::vector<double>& terms, int j) {
  std::vector<double> c;
  for (std::int64_t p = 0; p < kPoints; ++p) c.push_back(terms[p * kSums + j]);
  return c;
}
double magnitude(const std::vector<double>& xs) {
  double m = 0;
  for (double x : xs) m += std::fabs(x);
  return m;
}

std::uint64_t bits(double x) {
  std::uint64_t b = 0;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// The layouts every test runs on: contiguous, cyclic and two random ones.
std::vector<Layout> layouts(MPI_Comm comm) {
  const int size = size_of(comm), rank = rank_of(comm);
  return {Layout::block(kPoints, size, rank), Layout::round_robin(kPoints, size, rank),
          Layout::random(kPoints, size, rank, 1), Layout::random(kPoints, size, rank, 2)};
}

// This rank's terms for its layout, in the layout's order.
std::vector<double> local_terms(const std::vector<double>& terms, const Layout& layout) {
  std::vector<double> local;
  for (const std::int64_t id : layout.ids())
    for (int j = 0; j < kSums; ++j) local.push_back(terms[id * kSums + j]);
  return local;
}

std::vector<double> sums_on(MPI_Comm comm, SumMethod method, const std::vector<double>& terms,
                            const Layout& layout) {
  const std::vector<double> local = local_terms(terms, layout);
  return ferry::global_sums(comm, method, kSums, layout.ids().size(), local.data(),
                            layout.ids().data());
}

// Gather and reprosum: the bits of one rank holding everything, on every layout.
TEST(GlobalSum, GatherAndReprosumGiveTheSameBitsOnAnyLayout) {
  const std::vector<double> terms = wild_terms();
  for (const SumMethod method : {SumMethod::Gather, SumMethod::Reprosum}) {
    const std::vector<double> alone =
        sums_on(MPI_COMM_SELF, method, terms, Layout::block(kPoints, 1, 0));
    for (const Layout& layout : layouts(MPI_COMM_WORLD)) {
      const std::vector<double> sums = sums_on(MPI_COMM_WORLD, method, terms, layout);
      for (int j = 0; j < kSums; ++j)
        EXPECT_EQ(bits(sums[j]), bits(alone[j]))
            << ferry::sum_method_name(method) << " sum " << j << ": " << sums[j]
            << " on this layout, " << alone[j] << " on one rank";
    }
  }
}

// Gather adds by ascending id: a plain loop over the ids in order gives the same bits.
// Reprosum is exact: it gives the correctly rounded sum.
TEST(GlobalSum, GatherAddsByIdAndReprosumRoundsCorrectly) {
  const std::vector<double> terms = wild_terms();
  const Layout layout = Layout::random(kPoints, size_of(MPI_COMM_WORLD),
                                       rank_of(MPI_COMM_WORLD), 3);
  const std::vector<double> gather = sums_on(MPI_COMM_WORLD, SumMethod::Gather, terms, layout);
  const std::vector<double> repro = sums_on(MPI_COMM_WORLD, SumMethod::Reprosum, terms, layout);
  for (int j = 0; j < kSums; ++j) {
    const std::vector<double> c = column(terms, j);
    double in_order = 0;
    for (const double x : c) in_order += x;
    EXPECT_EQ(bits(gather[j]), bits(in_order)) << "sum " << j;
    EXPECT_EQ(bits(repro[j]), bits(exact_sum(c))) << "sum " << j;
  }
}

// Each method within its precision of the exact sum: n terms of magnitude sum M allow
// an error of about n * u * M with u the unit round-off of the accumulation, plus the
// final rounding to double.
TEST(GlobalSum, EveryMethodIsWithinItsPrecisionOfTheExactSum) {
#if defined(__SIZEOF_FLOAT128__)
  const double quad_unit = 0x1p-113;
#else
  const double quad_unit = std::numeric_limits<long double>::epsilon() / 2;
#endif
  struct Bound {
    SumMethod method;
    double unit;
  };
  const Bound bounds[] = {{SumMethod::Gather, 0x1p-53},
                          {SumMethod::Lsum8, 0x1p-53},
                          {SumMethod::Lsum16, quad_unit},
                          {SumMethod::Ddpdd, 0x1p-104},
                          {SumMethod::Reprosum, 0}};
  const std::vector<double> terms = wild_terms();
  for (const Layout& layout : layouts(MPI_COMM_WORLD))
    for (const Bound& b : bounds) {
      const std::vector<double> sums = sums_on(MPI_COMM_WORLD, b.method, terms, layout);
      for (int j = 0; j < kSums; ++j) {
        const std::vector<double> c = column(terms, j);
        const double exact = exact_sum(c);
        const double allowed = kPoints * b.unit * magnitude(c) +
                               std::fabs(exact) * std::numeric_limits<double>::epsilon();
        EXPECT_LE(std::fabs(sums[j] - exact), allowed)
            << ferry::sum_method_name(b.method) << " sum " << j << ": " << sums[j]
            << ", exact " << exact;
      }
    }
}

TEST(GlobalSum, AllMethodsAgreeOnBenignData) {
  const std::vector<double> terms = benign_terms();
  for (const Layout& layout : layouts(MPI_COMM_WORLD)) {
    const std::vector<double> reference =
        sums_on(MPI_COMM_WORLD, SumMethod::Reprosum, terms, layout);
    for (const SumMethod method : kMethods) {
      const std::vector<double> sums = sums_on(MPI_COMM_WORLD, method, terms, layout);
      for (int j = 0; j < kSums; ++j)
        EXPECT_NEAR(sums[j], reference[j], 1e-13 * reference[j])
            << ferry::sum_method_name(method) << " sum " << j;
    }
  }
}

TEST(GlobalSum, RanksWithoutPointsTakePart) {
  const int rank = rank_of(MPI_COMM_WORLD);
  const std::vector<double> mine = {1.5, -2.25};
  const std::vector<std::int64_t> id = {0};
  for (const SumMethod method : kMethods) {
    const bool holds = rank == 0;
    const std::vector<double> sums = ferry::global_sums(
        MPI_COMM_WORLD, method, 2, holds ? 1 : 0, holds ? mine.data() : nullptr,
        holds ? id.data() : nullptr);
    EXPECT_EQ(sums, mine) << ferry::sum_method_name(method);
  }
}

TEST(GlobalSum, BadInputRaisesTheSameErrorOnEveryRank) {
  const int rank = rank_of(MPI_COMM_WORLD);
  const int last = size_of(MPI_COMM_WORLD) - 1;
  const std::vector<double> values = {1.0, 2.0};
  const std::vector<std::int64_t> same_ids = {7, 8};
  ferry_test::expect_error(
      [&] { ferry::global_sums(MPI_COMM_WORLD, SumMethod::Lsum8, 0, 2, values.data()); },
      Errc::Arg, "count is 0");
  const std::vector<double> nan = {1.0, std::nan("")};
  ferry_test::expect_error(
      [&] {
        ferry::global_sums(MPI_COMM_WORLD, SumMethod::Reprosum, 1, 2,
                           rank == last ? nan.data() : values.data());
      },
      Errc::Arg, "rank " + std::to_string(last) + " holds a NaN");
  ferry_test::expect_error(
      [&] {
        ferry::global_sums(MPI_COMM_WORLD, SumMethod::Gather, 1, 2, values.data(),
                           rank == last ? nullptr : same_ids.data());
      },
      Errc::Arg, "rank " + std::to_string(last) + " holds points but passed no ids");
  if (last > 0)
    ferry_test::expect_error(
        [&] {
          ferry::global_sums(MPI_COMM_WORLD, SumMethod::Gather, 1, 2, values.data(),
                             same_ids.data());
        },
        Errc::Duplicate, "id 7 is held more than once");
}

// One field of 0.7 M values on a block layout; prints the time per call of every
// method (the slowest rank, best of 50; the methods take turns so that load from
// elsewhere hits them alike) and its ratio to lsum8. Run with
// --gtest_also_run_disabled_tests --gtest_filter='*Cost'.
TEST(GlobalSumBench, DISABLED_Cost) {
  constexpr std::int64_t points = 700000;
  const int size = size_of(MPI_COMM_WORLD), rank = rank_of(MPI_COMM_WORLD);
  const Layout layout = Layout::block(points, size, rank);
  std::mt19937_64 gen(11);
  std::vector<double> local;
  for (std::size_t i = 0; i < layout.ids().size(); ++i)
    local.push_back(std::ldexp(static_cast<double>(gen() >> 11) * 0x1p-53,
                               static_cast<int>(gen() % 41) - 20));
  std::vector<double> best(std::size(kMethods), 1e300);
  for (int repeat = 0; repeat < 50; ++repeat)
    for (std::size_t m = 0; m < best.size(); ++m) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double start = MPI_Wtime();
      ferry::global_sums(MPI_COMM_WORLD, kMethods[m], 1, layout.ids().size(), local.data(),
                         layout.ids().data());
      double elapsed = MPI_Wtime() - start;
      MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      best[m] = std::min(best[m], elapsed);
    }
  static_assert(kMethods[1] == SumMethod::Lsum8, "the ratios are to lsum8");
  const double lsum8 = best[1];
  for (std::size_t m = 0; rank == 0 && m < best.size(); ++m)
    std::printf("%-9s %2d ranks  %9.3f ms  %6.2f x lsum8\n", ferry::sum_method_name(kMethods[m]),
                size, best[m] * 1e3, best[m] / lsum8);
}

}  // namespace
