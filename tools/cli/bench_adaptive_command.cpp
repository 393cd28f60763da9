// `ferry bench adaptive`: how often the adaptive engine picks a fast engine, under load.
#include <iostream>
#include <memory>

#include "adaptive_bench.hpp"
#include "background_load.hpp"
#include "command.hpp"
#include "scenario_options.hpp"
#include "util/mpi_library.hpp"

namespace ferry::cli {

namespace {

struct AdaptiveOptions {
  bench::ExchangeBenchConfig scenario;
  bench::AdaptiveBenchConfig config;
  int within_percent = 10;
  int load = 0;
  bool json = false;
  std::string wrong_cache;  // empty: the choice runs
  int exchanges = 50;
};

int run(const AdaptiveOptions& o, const Context& context) {
  bench::AdaptiveBenchConfig config = o.config;
  config.scenario = o.scenario.scenario;
  config.groups = o.scenario.groups;
  config.within = static_cast<double>(o.within_percent) / 100.0;
  const int load = o.load;
  const bool json = o.json;

  bench::AdaptiveBench bench =
      arg_errors_as_usage([&] { return bench::AdaptiveBench(context.comm, config); });
  const Comm comm = Comm::view(context.comm);
  const bench::BackgroundLoad background(comm, load);
  const std::string mpi = detail::mpi_library_version();
  if (!o.wrong_cache.empty()) {
    std::string right;
    const std::vector<bench::WrongCacheRunResult> runs = arg_errors_as_usage(
        [&] { return bench.measure_wrong_cache(o.wrong_cache, o.exchanges, right); });
    if (context.rank != 0) return 0;
    std::cout << (json ? bench::wrong_cache_json(bench, right, o.wrong_cache, o.exchanges, runs,
                                                 mpi)
                       : bench::wrong_cache_table(bench, right, o.wrong_cache, o.exchanges, runs,
                                                  mpi));
  } else {
    const std::vector<bench::AdaptiveRunResult> runs = bench.measure();
    if (context.rank != 0) return 0;
    std::cout << (json ? bench::adaptive_json(bench, runs, mpi)
                       : bench::adaptive_table(bench, runs, mpi));
  }
  if (!json)
    std::cout << background.processes() << " CPU-bound processes started by --load on "
              << bench::online_cores() << " cores\n";
  std::cout << std::flush;
  return 0;
}

Action declare_bench_adaptive(CLI::App& app) {
  auto o = std::make_shared<AdaptiveOptions>();
  o->scenario.scenario.name = bench::kCustomScenario;
  add_scenario_options(app, o->scenario);
  add_int_option(app, "--runs", o->config.runs, 1, 100000);
  add_int_option(app, "--repeat", o->config.repeat, 1, 1 << 20);
  add_int_option(app, "--within", o->within_percent, 0, 1000);
  add_load_option(app, o->load);
  app.add_flag("--json", o->json);
  app.add_flag("--judge-twice", o->config.judge_twice);
  app.add_option("--wrong-cache", o->wrong_cache);
  add_int_option(app, "--exchanges", o->exchanges, 1, 100000);
  return [o](const Context& context) { return run(*o, context); };
}

}  // namespace

Command bench_adaptive_command() {
  return {
      "bench adaptive", "how often the adaptive engine picks a fast engine, run after run",
      "usage: mpiexec -n P ferry bench adaptive [--scenario NAME] [options]\n"
      "\n"
      "Makes --runs runs. Each makes a fresh adaptive exchange and lets it choose\n"
      "(profiling on the exchanges, as in a model), then the previous search (each\n"
      "candidate's 2 warm-up and 3 timed exchanges one after the other, a later one\n"
      "winning if 2 % faster, then the greedy butterfly stage pass), then times every\n"
      "candidate --repeat times in rotation, the order turned each round: the judge. A\n"
      "choice is good if, against every candidate, the median of its paired ratios (its\n"
      "time over the candidate's, round by round) is within --within percent of 1. Prints\n"
      "one row per run and\n"
      "how many runs each search got right. --load starts CPU-bound processes for the\n"
      "whole run, so load from other processes is controlled, not left to chance.\n"
      "\n" +
          std::string(kScenarioOptionsHelp) +
          "  --runs N               runs (default 20)\n"
          "  --repeat R             the judge's rounds (default 15)\n"
          "  --within PERCENT       how close to the best is good (default 10)\n" +
          std::string(kLoadOptionHelp) +
          "  --json                 one JSON object per run and line instead of a table\n"
          "  --judge-twice          a second judge after the first; its best, scored by the\n"
          "                         first, shows how often the judge agrees with itself\n"
          "  --wrong-cache LABEL    instead: a full search writes a tuning-cache entry, and\n"
          "                         each run rewrites its choice to LABEL (a candidate,\n"
          "                         e.g. alltoallv or butterfly:all), then times the first\n"
          "                         --exchanges exchanges of the adaptive engine re-checking\n"
          "                         it, of the search's choice and of LABEL trusted\n"
          "                         (check=false), in rotation exchange by exchange;\n"
          "                         LABEL \"right\" leaves the search's own choice cached\n"
          "                         (the cost of re-checking a right choice)\n"
          "  --exchanges N          exchanges per run with --wrong-cache (default 50)\n",
      declare_bench_adaptive};
}

}  // namespace ferry::cli
