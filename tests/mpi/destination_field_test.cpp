// Receiving into the memory an engine offers (Exchange::destination_field; rma offers
// its window's field areas to ranks with a source on their node): two exchanges in
// opposite directions between two groups, in flight together, begun in the same
// order on every rank, as two coupled models that each put and then get. Every value
// is checked against a function of its global id and the step, and the values of a
// step stay in their memory while the next step is in flight. Then several exchanges
// over one plan, as a coupler's entries between the same partitions, with different
// fields, in flight together (rma shares what it derives from the plan between them).
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ferry/exchange.hpp"
#include "test_support.hpp"

using ferry::Datatype;
using ferry::Exchange;
using ferry::Layout;
using ferry::Plan;

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

int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

// Model a: the first half of the world (one more on odd counts) in column blocks,
// model b: the rest, round-robin.
struct TwoModels {
  TwoModels() {
    const int size = world_size();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const int a_ranks = (size + 1) / 2, b_ranks = size - a_ranks;
    const bool in_a = rank < a_ranks;
    const std::int64_t n = kNx * kNy;
    a = in_a ? Layout::box(kNx, kNy, 1, a_ranks, rank) : Layout::none(n);
    b = in_a ? Layout::none(n) : Layout::round_robin(n, b_ranks, rank - a_ranks);
  }
  int rank = 0;
  Layout a, b;
};

TEST(DestinationField, OppositeExchangesInFlightTogether) {
  if (world_size() < 2) GTEST_SKIP() << "needs 2 ranks";
  const TwoModels models;
  const Layout& a = models.a;
  const Layout& b = models.b;
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

TEST(DestinationField, ExchangesOverOnePlan) {
  if (world_size() < 2) GTEST_SKIP() << "needs 2 ranks";
  const TwoModels models;
  const Layout& a = models.a;
  const Layout& b = models.b;
  const int rank = models.rank;
  const ferry::Comm world = ferry::Comm::view(MPI_COMM_WORLD);
  const auto plan = std::make_shared<const Plan>(Plan::build(world, a, b));
  // The same plan built again: its copy on rank 0 has derived nothing yet.
  const auto again = std::make_shared<const Plan>(Plan::build(world, a, b));
  // Field counts 1, 3, 2, 1: the third on a duplicate of the world (the same ranks),
  // the fourth over `again` on rank 0 and over `plan` elsewhere, so that ranks differ
  // in what they found.
  const std::vector<std::size_t> counts = {1, 3, 2, 1};
  MPI_Comm dup = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  std::vector<std::unique_ptr<Exchange>> exchanges;
  for (std::size_t e = 0; e < counts.size(); ++e)
    exchanges.push_back(std::make_unique<Exchange>(
        e == 2 ? dup : MPI_COMM_WORLD, e == 3 && rank == 0 ? again : plan,
        std::vector<ferry::FieldSpec>(counts[e], {Datatype::Float64, 1}), ferry_test::engine(),
        ferry_test::engine_options()));

  const auto a_points = static_cast<std::size_t>(std::max<std::int64_t>(1, a.local_size()));
  const auto b_points = static_cast<std::size_t>(std::max<std::int64_t>(1, b.local_size()));
  for (int step = 0; step < 4; ++step) {
    SCOPED_TRACE(step);
    std::vector<std::vector<std::vector<double>>> src(counts.size()), own(counts.size());
    std::vector<std::vector<const void*>> from(counts.size());
    std::vector<std::vector<void*>> into(counts.size());
    for (std::size_t e = 0; e < counts.size(); ++e) {
      own[e].assign(counts[e], std::vector<double>(b_points));
      for (std::size_t f = 0; f < counts[e]; ++f) {
        src[e].emplace_back(a_points);
        for (std::size_t i = 0; i < a.ids().size(); ++i)
          src[e][f][i] = value(a.ids()[i], step, static_cast<int>(e)) + f;
        from[e].push_back(src[e][f].data());
      }
      into[e] = offered(*exchanges[e], own[e]);
      exchanges[e]->begin(from[e].data(), into[e].data());
    }
    for (std::size_t e = 0; e < counts.size(); ++e) {
      exchanges[e]->end();
      EXPECT_EQ(first_wrong(b, into[e], step, static_cast<int>(e)), "") << "exchange " << e;
    }
  }
  for (auto& exchange : exchanges) exchange->close();
  exchanges.clear();
  MPI_Comm_free(&dup);
}

}  // namespace
