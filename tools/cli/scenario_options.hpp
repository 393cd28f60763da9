// The flags that pick a benchmark scenario, shared by `bench exchange` and `tune`.
#pragma once

#include <cstdint>

#include "command.hpp"
#include "exchange_bench.hpp"

namespace ferry::cli {

/// Declares --scenario (default: config's, e.g. bench::kCustomScenario), --grid, --src, --dst, --fields,
/// --msgs-per-proc, --points, --points-per-proc and --groups on `app`, bound to
/// `config`; its other members keep their values.
void add_scenario_options(CLI::App& app, bench::ExchangeBenchConfig& config);

/// UsageError if --scenario was not given. (Not a CLI11 requirement: `tune` has it, and
/// `tune kernels`, a command below it, has not.)
void require_scenario(const bench::ExchangeBenchConfig& config);

/// Declares --grid NXxNY on `app`, bound to `nx` and `ny`.
void add_grid_option(CLI::App& app, std::int64_t& nx, std::int64_t& ny);

/// Declares --load N|cores on `app`: the number of CPU-bound processes to start.
void add_load_option(CLI::App& app, int& load);

/// The help text of those flags, one aligned line or more per flag.
extern const char* const kScenarioOptionsHelp;

/// The help text of --load.
extern const char* const kLoadOptionHelp;

}  // namespace ferry::cli
