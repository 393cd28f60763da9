// The adaptive engine passes Exchange::destination_field through to the candidate of
// the next exchange: rma exchanges, while profiling and once chosen, receive into
// rma's memory (one copy per value from a node peer), every value stays exact, and
// values held in that memory outlive the next exchange even when the search drops
// rma at it (times injected through the test seam decide which engine wins).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engines/adaptive/exchange_timing.hpp"
#include "ferry/exchange.hpp"
#include "test_support.hpp"

using ferry::Datatype;
using ferry::Exchange;
using ferry::Layout;

namespace {

constexpr std::int64_t kN = 2003;
constexpr int kFields = 2;
constexpr int kSteps = 30;

double value(std::int64_t id, int step, int field) {
  return static_cast<double>(id) * 128.0 + step * 4 + field;
}

// The first wrong value of `dst` at `step`, or an empty string.
std::string first_wrong(const Layout& to, const std::vector<void*>& dst, int step) {
  for (int f = 0; f < kFields; ++f)
    for (std::int64_t i = 0; i < to.local_size(); ++i) {
      const double got = static_cast<const double*>(dst[static_cast<std::size_t>(f)])[i];
      const double want = value(to.ids()[static_cast<std::size_t>(i)], step, f);
      if (got != want)
        return "field " + std::to_string(f) + " point " + std::to_string(i) + ": got " +
               std::to_string(got) + ", expected " + std::to_string(want);
    }
  return {};
}

class AdaptiveDestinationField : public testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    // The winner (GetParam()) takes 1 ms, the other candidate 3 ms.
    ferry::detail::set_exchange_timing([](const std::string& label, double) {
      return label == GetParam() ? 1e-3 : 3e-3;
    });
  }
  void TearDown() override { ferry::detail::set_exchange_timing({}); }
};

TEST_P(AdaptiveDestinationField, RmaMemoryIsUsedAndHeldValuesStay) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const Layout src = Layout::block(kN, size, rank);
  const Layout dst = Layout::round_robin(kN, size, (rank + 1) % size);
  ferry::EngineOptions options;
  options.values["candidates"] = "p2p,rma";
  // 2 warm-up and 5 timed rounds: the last exchange before the decision is rma's,
  // so with p2p winning, rma is dropped while the caller holds values in its memory.
  options.values["warmup"] = "2";
  options.values["samples"] = "5";
  options.values["watch"] = "4";
  const std::vector<ferry::FieldSpec> fields(kFields, {Datatype::Float64, 1});
  Exchange exchange(MPI_COMM_WORLD, src, dst, fields, "adaptive", options);
  std::vector<std::vector<double>> in(kFields, std::vector<double>(src.ids().size() + 1));
  std::vector<std::vector<double>> own(kFields, std::vector<double>(dst.ids().size() + 1));
  std::vector<const void*> from;
  for (auto& field : in) from.push_back(field.data());

  int offered = 0, settled_at = -1;
  std::vector<void*> previous;
  for (int step = 0; step < kSteps; ++step) {
    SCOPED_TRACE(step);
    for (int f = 0; f < kFields; ++f)
      for (std::size_t i = 0; i < src.ids().size(); ++i)
        in[static_cast<std::size_t>(f)][i] = value(src.ids()[i], step, f);
    std::vector<void*> into(kFields);
    for (std::size_t f = 0; f < into.size(); ++f) {
      void* memory = exchange.destination_field(f);
      into[f] = memory ? memory : own[f].data();
      offered += memory ? 1 : 0;
    }
    exchange.begin(from.data(), into.data());
    // The last step's values, where they are in engine memory, are still there, also
    // at the exchange where the search dropped the engine that offered it.
    if (step > 0 && previous[0] != own[0].data())
      EXPECT_EQ(first_wrong(dst, previous, step - 1), "") << "held in engine memory";
    exchange.end();
    EXPECT_EQ(first_wrong(dst, into, step), "") << exchange.engine_report().choice;
    if (settled_at < 0 && exchange.engine_report().settled) settled_at = step;
    previous = into;
  }
  const ferry::EngineReport report = exchange.engine_report();
  EXPECT_TRUE(report.settled) << report.text;
  EXPECT_EQ(report.choice, GetParam()) << report.text;
  // Every rank receives from a source on its node (here all are), so rma offers its
  // field areas to each: at least for every rma exchange while profiling.
  if (size > 1 && dst.local_size() > 0) EXPECT_GE(offered, kFields * 7);
  // Once rma is chosen, every exchange receives into its memory.
  if (GetParam() == "rma" && size > 1 && dst.local_size() > 0)
    EXPECT_GE(offered, kFields * (7 + kSteps - settled_at - 1));
  exchange.close();
}

INSTANTIATE_TEST_SUITE_P(Winner, AdaptiveDestinationField, testing::Values("rma", "p2p"),
                         [](const testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
