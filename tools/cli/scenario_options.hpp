// The flags that pick a benchmark scenario, shared by `bench exchange` and `tune`.
#pragma once

#include "command.hpp"
#include "exchange_bench.hpp"

namespace ferry::cli {

/// Declares --scenario, --fields, --msgs-per-proc, --points, --points-per-proc
/// and --groups on `app`, bound to `config`; its other members keep their values.
void add_scenario_options(CLI::App& app, bench::ExchangeBenchConfig& config);

/// UsageError if --scenario was not given. (Not a CLI11 requirement: `tune` has it, and
/// `tune kernels`, a command below it, has not.)
void require_scenario(const bench::ExchangeBenchConfig& config);

/// The help text of those flags, one aligned line or more per flag.
extern const char* const kScenarioOptionsHelp;

}  // namespace ferry::cli
