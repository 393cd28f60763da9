// `ferry bench exchange`: times one scenario's redistribution per engine.
#include <algorithm>
#include <iostream>
#include <map>
#include <memory>

#include "background_load.hpp"
#include "baseline_exchange.hpp"
#include "command.hpp"
#include "exchange_bench.hpp"
#include "exchange_report.hpp"
#include "ferry/engine.hpp"
#include "scenario_options.hpp"
#include "util/mpi_library.hpp"

namespace ferry::cli {

namespace {

constexpr int kExchangeRepeat = 10;

// "all" means every registered engine, with the hand-written baseline first as the reference;
// otherwise a comma-separated list of engines, each set up in turn in this order.
std::vector<std::string> engines_to_run(const std::string& requested) {
  const std::vector<std::string> registered = engine_names();
  if (requested == "all") {
    std::vector<std::string> engines = {bench::kBaselineName};
    engines.insert(engines.end(), registered.begin(), registered.end());
    return engines;
  }
  std::vector<std::string> engines;
  std::string rest = requested;
  while (true) {
    const auto comma = rest.find(',');
    const std::string name = rest.substr(0, comma);
    const bool known = name == bench::kBaselineName ||
                       std::find(registered.begin(), registered.end(), name) != registered.end();
    if (!known) {
      std::string offered;
      for (const auto& engine : registered) offered += engine + ", ";
      throw UsageError("--engine: unknown engine \"" + name + "\" in \"" + requested +
                       "\"; this build offers " + offered + bench::kBaselineName +
                       " or all (see ferry info)");
    }
    if (std::find(engines.begin(), engines.end(), name) != engines.end())
      throw UsageError("--engine: \"" + name + "\" is listed twice in \"" + requested + "\"");
    engines.push_back(name);
    if (comma == std::string::npos) return engines;
    rest = rest.substr(comma + 1);
  }
}

struct ExchangeOptions {
  bench::ExchangeBenchConfig config;
  std::string engine = "all";
  std::map<std::string, std::string> adaptive;  ///< given options of the adaptive engine
  int load = 0;
  bool json = false;
};

int run(const ExchangeOptions& o, const Context& context) {
  bench::ExchangeBenchConfig config = o.config;
  for (const auto& [key, value] : o.adaptive) config.adaptive_options.values[key] = value;
  const bool json = o.json;
  const int load = o.load;
  const std::vector<std::string> engines = engines_to_run(o.engine);

  bench::ExchangeBench bench =
      arg_errors_as_usage([&] { return bench::ExchangeBench(context.comm, config); });
  const Comm comm = Comm::view(context.comm);
  const bench::BackgroundLoad background(comm, load);
  const double load_before = bench::load_average();
  const bench::ExchangeResults results = bench.measure(engines);
  if (context.rank != 0) return 0;
  const std::string mpi = detail::mpi_library_version();
  std::cout << (json ? bench::exchange_json(bench.run(), results, mpi)
                     : bench::exchange_table(bench.run(), results, mpi));
  if (!json)
    std::cout << "\nload average " << load_before << " at the start (" << background.processes()
              << " CPU-bound processes started by --load, " << bench::online_cores()
              << " cores)\n";
  std::cout << std::flush;
  return 0;
}

Action declare_bench_exchange(CLI::App& app) {
  auto o = std::make_shared<ExchangeOptions>();
  o->config.repeat = kExchangeRepeat;
  o->config.scenario.name = bench::kCustomScenario;
  add_scenario_options(app, o->config);
  app.add_option("--engine", o->engine);
  add_int_option(app, "--repeat", o->config.repeat, 1, 1 << 20);
  app.add_option_function<std::string>("--mode",
                                       [o](const std::string& mode) {
                                         o->config.mode = mode == "pingpong" ? bench::Mode::PingPong
                                                                             : bench::Mode::OneWay;
                                       })
      ->check(CLI::IsMember({"oneway", "pingpong"}));
  app.add_flag("--per-field", o->config.per_field);
  app.add_flag("--engine-memory", o->config.engine_memory);
  add_int_option(app, "--bound-repeat", o->config.bound_repeat, 1, 1 << 20);
  add_load_option(app, o->load);
  // The adaptive engine validates these itself.
  for (const char* option : {"candidates", "samples", "warmup"})
    app.add_option_function<std::string>(std::string("--") + option,
                                         [o, option](const std::string& value) {
                                           o->adaptive[option] = value;
                                         });
  app.add_flag("--json", o->json);
  return [o](const Context& context) { return run(*o, context); };
}

}  // namespace

Command bench_exchange_command() {
  return {
      "bench exchange", "time one redistribution per engine against the memcpy bound",
      "usage: mpiexec -n P ferry bench exchange [--scenario NAME] [options]\n"
      "\n"
      "Moves the scenario's float64 fields from a source to a destination decomposition\n"
      "with each engine: one verified warm-up exchange, then --repeat timed ones, each\n"
      "the slowest rank's time, engines and the memcpy bound (one memcpy of the\n"
      "largest rank payload) timed in rotation. Reports setup time, median/min/max\n"
      "per exchange, messages and bytes sent per rank, and the ratios to the bound\n"
      "and to the baseline. The adaptive engine first exchanges until it has chosen\n"
      "(its profiling): the timed exchanges use its choice, and its report, with\n"
      "every candidate's time, follows the table (JSON: \"adaptive_choice\").\n"
      "\n" +
          std::string(kScenarioOptionsHelp) +
          "  --engine LIST|all      engines of this build (see ferry info) or baseline (a\n"
          "                         hand-written Isend/Irecv exchange), comma-separated and\n"
          "                         set up in that order, or all: baseline and every engine\n"
          "                         (default all)\n"
          "  --candidates LIST      the adaptive engine's candidates, comma-separated\n"
          "                         (default: every candidate engine of this build)\n"
          "  --samples K            exchanges adaptive times per candidate (default 3)\n"
          "  --warmup K             exchanges per candidate before the timed ones (default 2)\n"
          "  --repeat R             timed steps per engine (default 10)\n"
          "  --mode oneway|pingpong oneway (default): source -> destination; pingpong: and\n"
          "                         the received values back (a second exchange)\n"
          "  --per-field            one exchange per field, as OASIS models define one\n"
          "                         namcouple entry per field (default: one for all)\n"
          "  --engine-memory        receive into the memory the engine offers\n"
          "                         (Exchange::destination_field: rma's window, one copy\n"
          "                         per value on a node) where it offers some; with\n"
          "                         --mode pingpong the way back sends from there too\n"
          "  --bound-repeat N       timed copies behind the memcpy bound (default 51)\n" +
          std::string(kLoadOptionHelp) +
          "  --json                 one JSON object per engine and line instead of a table\n",
      declare_bench_exchange};
}

}  // namespace ferry::cli
