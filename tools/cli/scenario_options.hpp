// The flags that pick a benchmark scenario, shared by `bench exchange` and `tune`.
#pragma once

#include <cstdint>

#include "arguments.hpp"
#include "exchange_bench.hpp"

namespace ferry::cli {

/// Takes --scenario (default custom), --grid, --src, --dst, --fields, --msgs-per-proc,
/// --points, --points-per-proc and --groups into a configuration; the other members
/// keep their defaults.
bench::ExchangeBenchConfig take_scenario_options(Arguments& args);

/// The help text of those flags, one aligned line or more per flag.
extern const char* const kScenarioOptionsHelp;

/// Takes --grid NXxNY into nx, ny (left alone if absent).
void take_grid(Arguments& args, std::int64_t& nx, std::int64_t& ny);

/// Takes --load N|cores: the CPU-bound processes a benchmark starts (0 if absent).
int take_load(Arguments& args);
extern const char* const kLoadOptionHelp;

}  // namespace ferry::cli
