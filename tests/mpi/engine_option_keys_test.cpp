// The option keys the registry declares for each built-in engine (which `ferry
// validate` checks configurations against) are the keys the engine reads: an exchange
// set up with every declared key given accepts them all, and one more key is refused.
#include <gtest/gtest.h>
#include <mpi.h>

#include <map>
#include <string>
#include <vector>

#include "ferry/engine.hpp"
#include "ferry/exchange.hpp"
#include "test_support.hpp"

using ferry::Datatype;
using ferry::EngineOptions;
using ferry::Errc;
using ferry::Exchange;
using ferry::Layout;

namespace {

// A valid value for every option a built-in engine declares.
const std::map<std::string, std::string> kValues = {
    {"stages", "all"},         {"reorder", "false"},    {"shared_memory", "true"},
    {"samples", "1"},          {"warmup", "0"},         {"margin", "2"},
    {"cache", ""},             {"retune", "false"},     {"candidates", "p2p"},
    {"independent_sides", "true"}, {"keep_candidates", "false"}, {"max_samples", "1"},
    {"tolerance", "5"},        {"check", "false"},      {"check_samples", "1"},
    {"watch", "0"},            {"drift", "30"}};

TEST(EngineOptionKeys, EveryBuiltInEngineDeclaresTheKeysItReads) {
  const int size = ferry_test::size_of(MPI_COMM_WORLD);
  const int rank = ferry_test::rank_of(MPI_COMM_WORLD);
  const Layout src = Layout::block(100, size, rank);
  const Layout dst = Layout::round_robin(100, size, rank);
  for (const std::string& engine : ferry::engine_names()) {
    SCOPED_TRACE(engine);
    const auto keys = ferry::engine_option_keys(engine);
    ASSERT_TRUE(keys.has_value()) << "built-in engine " << engine << " declares no option keys";
    EngineOptions options;
    for (const ferry::EngineOptionKey& key : *keys) {
      EXPECT_FALSE(key.doc.empty()) << key.name;
      ASSERT_TRUE(kValues.count(key.name)) << "no test value for option " << key.name;
      options.values[key.name] = kValues.at(key.name);
    }
    Exchange accepted(MPI_COMM_WORLD, src, dst, {{Datatype::Float64, 1}}, engine, options);
    options.values["no_such_option"] = "1";
    ferry_test::expect_same_error_everywhere(
        [&] { Exchange(MPI_COMM_WORLD, src, dst, {{Datatype::Float64, 1}}, engine, options); },
        Errc::Arg, "no_such_option");
  }
  EXPECT_FALSE(ferry::engine_option_keys("no_such_engine").has_value());
}

// What the coupler relies on for put/get: adaptive with independent_sides times only
// candidates whose sides progress independently, and refuses to be given another.
TEST(EngineOptionKeys, AdaptiveWithIndependentSidesRefusesButterfly) {
  ASSERT_FALSE(ferry::engine_capabilities("butterfly").independent_sides);
  ASSERT_TRUE(ferry::engine_capabilities("p2p").independent_sides);
  const int size = ferry_test::size_of(MPI_COMM_WORLD);
  const int rank = ferry_test::rank_of(MPI_COMM_WORLD);
  const Layout src = Layout::block(100, size, rank);
  const Layout dst = Layout::round_robin(100, size, rank);
  EngineOptions options;
  options.values = {{"independent_sides", "true"}, {"candidates", "p2p,butterfly"}};
  ferry_test::expect_same_error_everywhere(
      [&] { Exchange(MPI_COMM_WORLD, src, dst, {{Datatype::Float64, 1}}, "adaptive", options); },
      Errc::Arg,
      "adaptive: option candidates names \"butterfly\", which is not a candidate engine with "
      "independent sides of this build");
}

}  // namespace
