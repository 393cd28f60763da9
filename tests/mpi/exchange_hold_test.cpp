// Fields waiting in an engine between calls (Exchange::stage and take): each field
// staged on its own and its source array overwritten at once, some fields left in
// the engine and taken later, the rank's own points included; every value checked.
// Exchanges over one ExchangeShare (one communicator; the rma engine's window) held in
// flight at once and completed in the other order, over plans that only some ranks
// share, and a later exchange over a share that fails on one rank only: every rank
// raises the same error, and the next exchange over the share works.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>
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
using ferry_test::expect_same_error_everywhere;

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

// Over one share on every rank: a good exchange (float64 x 1), then `failing` (which
// must raise `code` with a message matching `pattern`, the same on every rank), then
// another good one, whose values are checked. Errors before the engine's last
// collective call are agreed whoever agrees on later ones: the same with both
// LateSetupErrors.
using FailingExchange =
    std::function<Exchange(std::shared_ptr<ferry::ExchangeShare>, std::shared_ptr<const ferry::Plan>)>;
void fail_between_good_exchanges(const Layout& src, const Layout& dst, const FailingExchange& failing,
                                 Errc code, const std::string& pattern, ferry::LateSetupErrors late) {
  const auto plan = std::make_shared<const ferry::Plan>(
      ferry::Plan::build(ferry::Comm::view(MPI_COMM_WORLD), src, dst));
  auto share = std::make_shared<ferry::ExchangeShare>(MPI_COMM_WORLD, 3, late);
  const std::vector<ferry::FieldSpec> good = {{Datatype::Float64, 1}};
  std::vector<Exchange> exchanges;
  exchanges.emplace_back(share, plan, good, ferry_test::engine(), ferry_test::engine_options());
  expect_same_error_everywhere([&] { failing(share, plan); }, code, pattern);
  exchanges.emplace_back(share, plan, good, ferry_test::engine(), ferry_test::engine_options());
  for (std::size_t e = 0; e < exchanges.size(); ++e) {
    const std::vector<double> sent = field0(src, static_cast<int>(e));
    std::vector<double> got(static_cast<std::size_t>(dst.local_size()), -1.0);
    const void* from = sent.data();
    void* to = got.data();
    exchanges[e].execute(&from, &to);
    std::size_t i = 0;
    for (auto id : dst.ids()) ASSERT_EQ(got[i++], value0(id, static_cast<int>(e))) << "exchange " << e;
  }
  for (auto& exchange : exchanges) exchange.close();
  share->close();
}

void fail_between_good_exchanges(const Layout& src, const Layout& dst, const FailingExchange& failing,
                                 Errc code, const std::string& pattern) {
  for (auto late : {ferry::LateSetupErrors::AgreedByExchange, ferry::LateSetupErrors::RaisedAlone}) {
    SCOPED_TRACE(late == ferry::LateSetupErrors::RaisedAlone ? "raised alone" : "agreed by exchange");
    fail_between_good_exchanges(src, dst, failing, code, pattern, late);
  }
}

// The same, from blocks to a round robin (every rank a source and a destination).
void fail_between_good_exchanges(const FailingExchange& failing, Errc code,
                                 const std::string& pattern) {
  const int p = size_of(), r = rank_of();
  fail_between_good_exchanges(Layout::block(kN, p, r), Layout::round_robin(kN, p, r), failing, code,
                              pattern);
}

TEST(ExchangeShareTest, LaterExchangeWithoutFieldsOnOneRank) {
  const int p = size_of(), r = rank_of();
  fail_between_good_exchanges(
      [&](auto share, auto plan) {
        std::vector<ferry::FieldSpec> fields;
        if (r != p - 1) fields.push_back({Datatype::Float64, 1});
        return Exchange(share, plan, fields, ferry_test::engine(), ferry_test::engine_options());
      },
      Errc::Arg, "Exchange: no fields given");
}

TEST(ExchangeShareTest, LaterExchangeWithOtherFieldsOnOneRank) {
  const int p = size_of(), r = rank_of();
  if (p < 2) GTEST_SKIP() << "needs two ranks to differ";
  fail_between_good_exchanges(
      [&](auto share, auto plan) {
        const Datatype type = r == p - 1 ? Datatype::Float32 : Datatype::Float64;
        return Exchange(share, plan, {{type, 1}}, ferry_test::engine(), ferry_test::engine_options());
      },
      Errc::Arg,
      "the ranks describe field 0 differently: float64 x 1 on rank 0 \\(a source and "
      "destination\\) but float32 x 1 on rank " + std::to_string(p - 1));
}

TEST(ExchangeShareTest, LaterExchangeWithAnUnknownOptionOnOneRank) {
  const int p = size_of(), r = rank_of();
  fail_between_good_exchanges(
      [&](auto share, auto plan) {
        ferry::EngineOptions options = ferry_test::engine_options();
        if (r == p - 1) options.values["no_such_option"] = "1";
        return Exchange(share, plan, {{Datatype::Float64, 1}}, ferry_test::engine(), options);
      },
      Errc::Arg, "unknown option \"no_such_option\"");
}

// Only the last rank holds source points, so only it sends: blocks of 2^31 bytes a
// point, more than one MPI message holds, fail the rma engine's set-up there alone.
TEST(ExchangeShareTest, LaterExchangeFailsInTheEngineOnOneRank) {
  const int p = size_of(), r = rank_of();
  if (ferry_test::engine() != "rma") GTEST_SKIP() << "an rma set-up error";
  if (p < 2) GTEST_SKIP() << "needs a rank that sends to another";
  const Layout src = r == p - 1 ? Layout::block(kN, 1, 0) : Layout::none(kN);
  const Layout dst = Layout::round_robin(kN, p, r);
  fail_between_good_exchanges(
      src, dst,
      [&](auto share, auto plan) {
        return Exchange(share, plan, {{Datatype::Float64, 1 << 28}}, ferry_test::engine(),
                        ferry_test::engine_options());
      },
      Errc::Overflow, "rma: bytes of one block put to a peer");
}

}  // namespace
