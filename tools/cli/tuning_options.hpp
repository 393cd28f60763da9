// The flags shared by `bench kernels`, `bench collectives` and the tune commands.
#pragma once

#include <iostream>
#include <memory>
#include <string>

#include "command.hpp"
#include "size_sweep.hpp"
#include "util/mpi_library.hpp"

namespace ferry::cli {

/// Declares --repeat and --max-bytes on `app`, bound to `config` (defaults as in
/// bench::SweepConfig).
void add_sweep_options(CLI::App& app, bench::SweepConfig& config);

/// The help text of those flags.
extern const char* const kSweepOptionsHelp;

/// The tuning cache: `given` (the --cache flag), or else $FERRY_TUNING_CACHE; UsageError
/// if neither is set.
std::string cache_path(const std::string& given);

/// The help text of --cache.
extern const char* const kCacheOptionHelp;

/// The body of `bench kernels` and `bench collectives`: declares the sweep flags and
/// --json; the action runs `measure(comm, sweep)` on every rank (Errc::Arg becomes a
/// usage error) and prints its rows on rank 0 with `json` or `table`, both called as
/// (rows, ranks, sweep, mpi_library).
template <class Measure, class Json, class Table>
Action declare_sweep_bench(CLI::App& app, Measure measure, Json json, Table table) {
  struct SweepOptions {
    bench::SweepConfig config;
    bool json = false;
  };
  auto o = std::make_shared<SweepOptions>();
  add_sweep_options(app, o->config);
  app.add_flag("--json", o->json);
  return [o, measure, json, table](const Context& context) {
    const auto rows = arg_errors_as_usage([&] { return measure(context.comm, o->config); });
    if (context.rank != 0) return 0;
    const std::string mpi = detail::mpi_library_version();
    std::cout << (o->json ? json(rows, context.size, o->config, mpi)
                          : table(rows, context.size, o->config, mpi))
              << std::flush;
    return 0;
  };
}

}  // namespace ferry::cli
