// `ferry bench exchange`: times one scenario's redistribution per engine.
#include <algorithm>
#include <iostream>

#include "baseline_exchange.hpp"
#include "command.hpp"
#include "exchange_bench.hpp"
#include "exchange_report.hpp"
#include "ferry/engine.hpp"
#include "mpi_library.hpp"

namespace ferry::cli {

namespace {

constexpr int kDefaultRepeat = 10;

// "all" means every registered engine, with the hand-written baseline first as the reference.
std::vector<std::string> engines_to_run(const std::string& requested) {
  const std::vector<std::string> registered = engine_names();
  if (requested == "all") {
    std::vector<std::string> engines = {bench::kBaselineName};
    engines.insert(engines.end(), registered.begin(), registered.end());
    return engines;
  }
  if (requested == bench::kBaselineName ||
      std::find(registered.begin(), registered.end(), requested) != registered.end())
    return {requested};
  std::string known;
  for (const auto& name : registered) known += name + ", ";
  throw UsageError("--engine: unknown engine \"" + requested + "\"; this build offers " + known +
                   bench::kBaselineName + " or all (see ferry info)");
}

int run(Arguments& args, const Context& context) {
  bench::ExchangeBenchConfig config;
  const auto scenario = args.take_value("--scenario");
  const std::string engine = args.take_value("--engine").value_or("all");
  config.scenario.fields = static_cast<int>(args.take_int("--fields", 0, 1, 1 << 20));
  config.scenario.msgs_per_proc =
      static_cast<int>(args.take_int("--msgs-per-proc", 0, 1, 1 << 30));
  config.scenario.points = args.take_int("--points", 0, 1, std::int64_t{1} << 40);
  config.repeat = static_cast<int>(args.take_int("--repeat", kDefaultRepeat, 1, 1 << 20));
  config.groups = bench::parse_groups(args.take_choice("--groups", "split", {"split", "shared"}));
  const bool json = args.take_switch("--json");
  args.expect_all_taken();
  if (!scenario) throw UsageError("--scenario is required");
  config.scenario.name = *scenario;
  const std::vector<std::string> engines = engines_to_run(engine);

  bench::ExchangeBench bench =
      arg_errors_as_usage([&] { return bench::ExchangeBench(context.comm, config); });
  const bench::ExchangeResults results = bench.measure(engines);
  if (context.rank != 0) return 0;
  const std::string mpi = bench::mpi_library_version();
  std::cout << (json ? bench::exchange_json(bench.run(), results, mpi)
                     : bench::exchange_table(bench.run(), results, mpi))
            << std::flush;
  return 0;
}

}  // namespace

Command bench_exchange_command() {
  return {
      "bench exchange", "time one redistribution per engine against the memcpy bound",
      "usage: mpiexec -n P ferry bench exchange --scenario gamil|toy|large [options]\n"
      "\n"
      "Moves the scenario's float64 fields from a source to a destination decomposition\n"
      "with each engine: one verified warm-up exchange, then --repeat timed ones, each\n"
      "the slowest rank's time, engines and the memcpy bound (one memcpy of the\n"
      "largest rank payload) timed in rotation. Reports setup time, median/min/max\n"
      "per exchange, messages and bytes sent per rank, and the ratios to the bound\n"
      "and to the baseline.\n"
      "\n"
      "  --scenario NAME        gamil: 128 x 60 points, 14 fields, round-robin -> 2-D blocks\n"
      "                         toy:   192 x 96 points, 10 fields, 1-D blocks -> each source\n"
      "                                rank's points dealt over M destination ranks\n"
      "                         large: 1024 x 512 points, 14 fields, 2-D blocks -> round-robin\n"
      "  --engine NAME|all      an engine of this build (see ferry info), baseline (a\n"
      "                         hand-written Isend/Irecv exchange), or all: baseline and\n"
      "                         every engine (default all)\n"
      "  --fields K             number of fields (default: the scenario's)\n"
      "  --msgs-per-proc M      toy only: destination ranks each source rank sends to\n"
      "                         (default min(4, destination ranks))\n"
      "  --points N             rescale the grid to about N points, same aspect ratio\n"
      "  --repeat R             timed exchanges per engine (default 10)\n"
      "  --groups split|shared  split: the first half of the ranks is the source\n"
      "                         component, the second half the destination (default;\n"
      "                         one rank runs shared); shared: every rank is both\n"
      "  --json                 one JSON object per engine and line instead of a table\n",
      run};
}

}  // namespace ferry::cli
