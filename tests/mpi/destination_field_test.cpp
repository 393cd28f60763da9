// Receiving into the memory an engine offers (Exchange::destination_field; rma offers
// its window's field areas to ranks with a source on their node): two exchanges in
// opposite directions between two groups, in flight together, begun in the same
// order on every rank, as two coupled models that each put and then get. Every value
// is checked against a function of its global id and the step, and the values of a
// step stay in their memory while the next step is in flight.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "ferry/exchange.hpp"
#include "test_support.hpp"

using ferry::Datatype;
using ferry::Exchange;
using ferry::Layout;

namespace {

constexpr std::int64_t kNx = 37, kNy = 23;
constexpr int kSteps = 12;

double value(std::int64_t id, int step, int way) {
  return static_cast<double>(id) * 64.0 + step * 2 + way;
}

// Memory for every field of `exchange` on this rank: the engine's, or `own`.
std::vector<void*> offered(Exchange& exchange, std::vector<std::vector<double>>& own) {
  std::vector<void*> dst(own.size());
  for (std::size_t f = 0; f < own.size(); ++f) {
    void* memory = exchange.destination_field(f);
    dst[f] = memory ? memory : own[f].data();
  }
  return dst;
}

// The first wrong value of `dst` (layout `to`) at `step`, or an empty string.
std::string first_wrong(const Layout& to, const std::vector<void*>& dst, int step, int way) {
  for (std::size_t f = 0; f < dst.size(); ++f)
    for (std::int64_t i = 0; i < to.local_size(); ++i) {
      const double got = static_cast<const double*>(dst[f])[i];
      const double want = value(to.ids()[static_cast<std::size_t>(i)], step, way) + f;
      if (got != want)
        return "field " + std::to_string(f) + " point " + std::to_string(i) + ": got " +
               std::to_string(got) + ", expected " + std::to_string(want);
    }
  return {};
}

TEST(DestinationField, OppositeExchangesInFlightTogether) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) GTEST_SKIP() << "needs 2 ranks";
  // Model a: the first half (one more on odd counts), model b: the rest.
  const int a_ranks = (size + 1) / 2, b_ranks = size - a_ranks;
  const bool in_a = rank < a_ranks;
  const std::int64_t n = kNx * kNy;
  const Layout a = in_a ? Layout::box(kNx, kNy, 1, a_ranks, rank) : Layout::none(n);
  const Layout b = in_a ? Layout::none(n) : Layout::round_robin(n, b_ranks, rank - a_ranks);
  const std::vector<ferry::FieldSpec> fields(3, {Datatype::Float64, 1});
  Exchange a_to_b(MPI_COMM_WORLD, a, b, fields, ferry_test::engine());
  Exchange b_to_a(MPI_COMM_WORLD, b, a, fields, ferry_test::engine());

  // At least one element each, so that no field pointer is null on an empty side.
  const auto a_points = static_cast<std::size_t>(std::max<std::int64_t>(1, a.local_size()));
  const auto b_points = static_cast<std::size_t>(std::max<std::int64_t>(1, b.local_size()));
  std::vector<std::vector<double>> a_src(3, std::vector<double>(a_points));
  std::vector<std::vector<double>> b_src(3, std::vector<double>(b_points));
  std::vector<std::vector<double>> at_a(3, std::vector<double>(a_points));
  std::vector<std::vector<double>> at_b(3, std::vector<double>(b_points));
  std::vector<const void*> from_a, from_b;
  for (std::size_t f = 0; f < 3; ++f) {
    from_a.push_back(a_src[f].data());
    from_b.push_back(b_src[f].data());
  }
  std::vector<void*> previous_at_a, previous_at_b;
  for (int step = 0; step < kSteps; ++step) {
    SCOPED_TRACE(step);
    for (std::size_t f = 0; f < 3; ++f) {
      for (std::size_t i = 0; i < a.ids().size(); ++i)
        a_src[f][i] = value(a.ids()[i], step, 0) + f;
      for (std::size_t i = 0; i < b.ids().size(); ++i)
        b_src[f][i] = value(b.ids()[i], step, 1) + f;
    }
    const std::vector<void*> into_b = offered(a_to_b, at_b);
    const std::vector<void*> into_a = offered(b_to_a, at_a);
    a_to_b.begin(from_a.data(), into_b.data());
    b_to_a.begin(from_b.data(), into_a.data());
    // The last step's values, where they are in the engines' memory, are still there.
    if (step > 0 && previous_at_b[0] != at_b[0].data())
      EXPECT_EQ(first_wrong(b, previous_at_b, step - 1, 0), "") << "held at b";
    if (step > 0 && previous_at_a[0] != at_a[0].data())
      EXPECT_EQ(first_wrong(a, previous_at_a, step - 1, 1), "") << "held at a";
    a_to_b.end();
    b_to_a.end();
    EXPECT_EQ(first_wrong(b, into_b, step, 0), "") << "a -> b";
    EXPECT_EQ(first_wrong(a, into_a, step, 1), "") << "b -> a";
    previous_at_a = into_a;
    previous_at_b = into_b;
  }
  a_to_b.close();
  b_to_a.close();
}

}  // namespace
