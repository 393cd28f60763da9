// `ferry tune`: profiles one scenario's exchange with the adaptive engine and
// records its choice in the tuning cache, so later runs start tuned.
#include <iostream>
#include <memory>
#include <string>

#include "command.hpp"
#include "exchange_bench.hpp"
#include "scenario_options.hpp"
#include "tuning_options.hpp"
#include "util/mpi_library.hpp"

namespace ferry::cli {

namespace {

constexpr int kDefaultSamples = 3;

struct TuneOptions {
  bench::ExchangeBenchConfig config;
  std::string cache;
  int samples = kDefaultSamples;
};

int run(const TuneOptions& o, const Context& context) {
  require_scenario(o.config);
  const bench::ExchangeBenchConfig& config = o.config;
  const std::string cache = cache_path(o.cache);
  const int samples = o.samples;

  bench::ExchangeBench bench =
      arg_errors_as_usage([&] { return bench::ExchangeBench(context.comm, config); });
  EngineOptions options;
  options.values["cache"] = cache;
  options.values["samples"] = std::to_string(samples);
  options.values["retune"] = "true";  // measure now, even if the cache has an entry
  const EngineReport report = bench.tune("adaptive", options);
  if (context.rank != 0) return 0;
  const bench::ExchangeRun& r = bench.run();
  const bench::Scenario& s = r.scenario;
  std::cout << "scenario " << s.name << ": " << s.nx << " x " << s.ny << " = " << s.points()
            << " points, " << s.fields << " float64 fields, " << bench::describe(s, r.roles)
            << "\nranks " << r.ranks << ", groups " << bench::groups_name(r.roles.groups)
            << "\nMPI: " << detail::mpi_library_version() << "\n\n"
            << report.text << "winner: " << report.choice << "\n"
            << std::flush;
  return 0;
}

Action declare_tune(CLI::App& app) {
  auto o = std::make_shared<TuneOptions>();
  add_scenario_options(app, o->config);
  app.add_option("--cache", o->cache);
  add_int_option(app, "--samples", o->samples, 1, 1000);
  return [o](const Context& context) { return run(*o, context); };
}

}  // namespace

Command tune_command() {
  return {"tune", "profile a scenario with the adaptive engine and fill the tuning cache",
          "usage: mpiexec -n P ferry tune --scenario NAME [options]\n"
          "\n"
          "Runs the scenario's exchange (as ferry bench exchange) with the adaptive engine\n"
          "until it has timed every candidate and chosen, checks the received values, and\n"
          "records the choice in the tuning cache, replacing an entry of the same plan\n"
          "signature. Prints every candidate's median time and the winner. A later run\n"
          "whose exchange has the same signature (ranks, groups, points, bytes per point,\n"
          "messages, bytes, MPI library) on the same cache skips profiling.\n"
          "\n" +
              std::string(kScenarioOptionsHelp) + kCacheOptionHelp +
              "  --samples K            exchanges timed per candidate (default 3)\n",
          declare_tune};
}

}  // namespace ferry::cli
