// Fields waiting in an engine between calls (Exchange::stage and take): each field
// staged on its own and its source array overwritten at once, some fields left in
// the engine and taken later, the rank's own points included; every value checked.
// Exchanges over one ExchangeShare (one communicator; the rma engine's window) held in
// flight at once and completed in the other order, and over plans that only some ranks
// share.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "ferry/exchange.hpp"
#include "ferry/exchange_share.hpp"
#include "test_support.hpp"

using ferry::Datatype;
using ferry::Errc;
using ferry::Exchange;
using ferry::Layout;
using ferry_test::expect_error;

namespace {

constexpr std::int64_t kN = 97;

int rank_of() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int size_of() {
  int s = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

// Field 0: float64 x 1; field 1: int32 x 2. Value of (global id, component) at round k.
double value0(std::int64_t id, int round) { return 1000.0 * static_cast<double>(id) + round; }
std::int32_t value1(std::int64_t id, int c, int round) {
  return static_cast<std::int32_t>(1000 * id + 10 * c + round);
}

std::vector<double> field0(const Layout& layout, int round) {
  std::vector<double> v;
  for (auto id : layout.ids()) v.push_back(value0(id, round));
  return v;
}
std::vector<std::int32_t> field1(const Layout& layout, int round) {
  std::vector<std::int32_t> v;
  for (auto id : layout.ids())
    for (int c = 0; c < 2; ++c) v.push_back(value1(id, c, round));
  return v;
}

class ExchangeHold : public testing::Test {
 protected:
  const int p_ = size_of(), r_ = rank_of();
  // Blocks to round-robin: every rank (p > 1) also keeps some of its own points.
  const Layout src_ = Layout::block(kN, p_, r_);
  const Layout dst_ = Layout::round_robin(kN, p_, r_);
  Exchange exchange_{MPI_COMM_WORLD, src_, dst_,
                     {{Datatype::Float64, 1}, {Datatype::Int32, 2}},
                     ferry_test::engine(), ferry_test::engine_options()};
  bool holds() const { return exchange_.capabilities().holds_fields; }
};

TEST_F(ExchangeHold, StagedFieldsSentAndHeldFieldsTaken) {
  if (!holds()) {
    expect_error([&] { exchange_.stage(0, nullptr); }, Errc::Unsupported, "stage");
    return;
  }
  const auto n = static_cast<std::size_t>(dst_.local_size());
  for (int round = 0; round < 3; ++round) {
    // Each field staged alone, its array overwritten at once.
    auto a = field0(src_, round);
    auto b = field1(src_, round);
    exchange_.stage(1, b.data());
    std::fill(b.begin(), b.end(), -1);
    exchange_.stage(0, a.data());
    std::fill(a.begin(), a.end(), -1.0);
    // Field 0 straight into its array, field 1 left in the engine.
    std::vector<double> got0(n, -2.0);
    std::vector<std::int32_t> got1(2 * n, -2);
    const void* src[2] = {nullptr, nullptr};
    void* dst[2] = {got0.data(), nullptr};
    exchange_.execute(src, dst);
    EXPECT_EQ(got0, field0(dst_, round));
    EXPECT_EQ(got1, std::vector<std::int32_t>(2 * n, -2));
    exchange_.take(1, got1.data());
    EXPECT_EQ(got1, field1(dst_, round));
    std::fill(got1.begin(), got1.end(), -3);
    exchange_.take(1, got1.data());  // as often as wanted
    EXPECT_EQ(got1, field1(dst_, round));
    expect_error([&] { exchange_.take(0, got0.data()); }, Errc::State,
                 "take of field 0: the last exchange did not leave it");
  }
  // Unstaged source arrays and every field held, then a plain exchange again.
  const auto a = field0(src_, 7);
  const auto b = field1(src_, 7);
  const void* src[2] = {a.data(), b.data()};
  void* none[2] = {nullptr, nullptr};
  exchange_.execute(src, none);
  std::vector<double> got0(n);
  std::vector<std::int32_t> got1(2 * n);
  exchange_.take(0, got0.data());
  exchange_.take(1, got1.data());
  EXPECT_EQ(got0, field0(dst_, 7));
  EXPECT_EQ(got1, field1(dst_, 7));
  void* into[2] = {got0.data(), got1.data()};
  exchange_.execute(src, into);
  expect_error([&] { exchange_.take(0, got0.data()); }, Errc::State, "take of field 0");
}

TEST_F(ExchangeHold, MisuseRaisesStateErrors) {
  if (!holds()) return;
  auto a = field0(src_, 0);
  expect_error([&] { exchange_.stage(2, a.data()); }, Errc::ArgRange, "stage of field 2");
  exchange_.stage(0, a.data());
  // Every rank fails alike, before any message: staged fields travel with every field.
  const std::uint8_t mask[2] = {1, 0};
  const void* src[2] = {nullptr, nullptr};
  void* dst[2] = {nullptr, nullptr};
  expect_error([&] { exchange_.begin(src, dst, mask); }, Errc::State,
               "begin with a mask after stage");
}

// Three exchanges over one plan and one share, as a coupler's entries between two
// partitions: the first two of float64 x 1, the third of float64 x 3 (larger than the
// share's window was sized for after the first two: a second window). Each round
// begins all three (the sources' puts), then ends them last first (the destinations'
// gets in another order); a destination takes its values in the engine's own memory
// where it offers some (destination_field). Every value checked.
TEST(ExchangeShareTest, ExchangesInFlightAtOnceKeepTheirValues) {
  const int p = size_of(), r = rank_of();
  const Layout src = Layout::block(kN, p, r);
  const Layout dst = Layout::round_robin(kN, p, r);
  const auto plan = std::make_shared<const ferry::Plan>(
      ferry::Plan::build(ferry::Comm::view(MPI_COMM_WORLD), src, dst));
  auto share = std::make_shared<ferry::ExchangeShare>(MPI_COMM_WORLD, 3);
  const int components[3] = {1, 1, 3};
  std::vector<Exchange> exchanges;
  for (int e = 0; e < 3; ++e)
    exchanges.emplace_back(share, plan, std::vector<ferry::FieldSpec>{{Datatype::Float64, components[e]}},
                           ferry_test::engine(), ferry_test::engine_options());
  auto value = [](std::int64_t id, int c, int e, int round) {
    return 1e6 * static_cast<double>(e) + 1000.0 * static_cast<double>(id) + 10 * c + round;
  };
  for (int round = 0; round < 3; ++round) {
    std::vector<std::vector<double>> sent(3), got(3);
    std::vector<double*> into(3);
    for (int e = 0; e < 3; ++e) {
      for (auto id : src.ids())
        for (int c = 0; c < components[e]; ++c) sent[e].push_back(value(id, c, e, round));
      got[e].assign(static_cast<std::size_t>(dst.local_size() * components[e]), -1.0);
      into[e] = static_cast<double*>(exchanges[e].destination_field(0));
      if (!into[e]) into[e] = got[e].data();
    }
    for (int e = 0; e < 3; ++e) {
      const void* from = sent[e].data();
      void* to = into[e];
      exchanges[e].begin(&from, &to);
    }
    for (int e = 2; e >= 0; --e) exchanges[e].end();
    for (int e = 0; e < 3; ++e) {
      std::size_t i = 0;
      for (auto id : dst.ids())
        for (int c = 0; c < components[e]; ++c, ++i)
          ASSERT_EQ(into[e][i], value(id, c, e, round))
              << "exchange " << e << ", round " << round << ", id " << id << ", component " << c;
    }
  }
  for (auto& exchange : exchanges) exchange.close();
  share->close();
}

// Two exchanges over one share; the second is given the first's plan on rank 0 and an
// equal plan built apart on the other ranks, so that only rank 0 finds what engines
// keep with the plan (the rma route): every rank must then set up as for a new plan,
// together. Every value checked.
TEST(ExchangeShareTest, PlanKnownOnSomeRanksOnly) {
  const int p = size_of(), r = rank_of();
  const Layout src = Layout::block(kN, p, r);
  const Layout dst = Layout::round_robin(kN, p, r);
  const ferry::Comm world = ferry::Comm::view(MPI_COMM_WORLD);
  const auto plan = std::make_shared<const ferry::Plan>(ferry::Plan::build(world, src, dst));
  const auto equal = std::make_shared<const ferry::Plan>(ferry::Plan::build(world, src, dst));
  auto share = std::make_shared<ferry::ExchangeShare>(MPI_COMM_WORLD, 2);
  std::vector<Exchange> exchanges;
  for (int e = 0; e < 2; ++e)
    exchanges.emplace_back(share, e == 1 && r != 0 ? equal : plan,
                           std::vector<ferry::FieldSpec>{{Datatype::Float64, 1}}, ferry_test::engine(),
                           ferry_test::engine_options());
  for (int e = 0; e < 2; ++e) {
    const std::vector<double> sent = field0(src, e);
    std::vector<double> got(static_cast<std::size_t>(dst.local_size()), -1.0);
    const void* from = sent.data();
    void* to = got.data();
    exchanges[static_cast<std::size_t>(e)].execute(&from, &to);
    std::size_t i = 0;
    for (auto id : dst.ids()) ASSERT_EQ(got[i++], value0(id, e)) << "exchange " << e << ", id " << id;
  }
  for (auto& exchange : exchanges) exchange.close();
  share->close();
}

}  // namespace
