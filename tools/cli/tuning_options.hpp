// The flags shared by `bench kernels`, `bench collectives` and the tune commands.
#pragma once

#include <iostream>
#include <string>

#include "command.hpp"
#include "size_sweep.hpp"
#include "util/mpi_library.hpp"

namespace ferry::cli {

/// Takes --repeat and --max-bytes (defaults as in bench::SweepConfig).
bench::SweepConfig take_sweep_options(Arguments& args);

/// The help text of those flags.
extern const char* const kSweepOptionsHelp;

/// Takes --cache FILE, or else reads $FERRY_TUNING_CACHE; UsageError if neither is set.
std::string take_cache_path(Arguments& args);

/// The help text of --cache.
extern const char* const kCacheOptionHelp;

/// The body of `bench kernels` and `bench collectives`: takes the sweep flags and
/// --json, runs `measure(comm, sweep)` on every rank (Errc::Arg becomes a usage
/// error) and prints its rows on rank 0 with `json` or `table`, both called as
/// (rows, ranks, sweep, mpi_library).
template <class Measure, class Json, class Table>
int run_sweep_bench(Arguments& args, const Context& context, Measure measure, Json json,
                    Table table) {
  const bench::SweepConfig config = take_sweep_options(args);
  const bool as_json = args.take_switch("--json");
  args.expect_all_taken();
  const auto rows = arg_errors_as_usage([&] { return measure(context.comm, config); });
  if (context.rank != 0) return 0;
  const std::string mpi = detail::mpi_library_version();
  std::cout << (as_json ? json(rows, context.size, config, mpi)
                        : table(rows, context.size, config, mpi))
            << std::flush;
  return 0;
}

}  // namespace ferry::cli
