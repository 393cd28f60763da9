// The flags that pick a benchmark scenario, shared by `bench exchange` and `tune`.
#pragma once

#include "arguments.hpp"
#include "exchange_bench.hpp"

namespace ferry::cli {

/// Takes --scenario (UsageError if missing), --fields, --msgs-per-proc, --points,
/// --points-per-proc and --groups into a configuration; the other members keep their
/// defaults.
bench::ExchangeBenchConfig take_scenario_options(Arguments& args);

/// The help text of those flags, one aligned line or more per flag.
extern const char* const kScenarioOptionsHelp;

}  // namespace ferry::cli
