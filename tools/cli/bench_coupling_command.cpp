// `ferry bench coupling`: the coupler's put/get against a bare exchange of the same fields.
#include <iostream>
#include <memory>

#include "command.hpp"
#include "coupling_bench.hpp"
#include "coupling_bench_report.hpp"
#include "scenario_options.hpp"
#include "util/mpi_library.hpp"

namespace ferry::cli {

namespace {

struct CouplingOptions {
  bench::CouplingBenchConfig config;
  bool json = false;
};

int run(const CouplingOptions& o, const Context& context) {
  const bench::CouplingBenchConfig& config = o.config;
  const bool json = o.json;

  bench::CouplingBench bench =
      arg_errors_as_usage([&] { return bench::CouplingBench(context.comm, config); });
  const std::vector<bench::CouplingCase> cases = bench.measure();
  if (context.rank != 0) return 0;
  const std::string mpi = detail::mpi_library_version();
  std::cout << (json ? bench::coupling_json(bench.run(), cases, bench.memcpy_bound(), mpi)
                     : bench::coupling_table(bench.run(), cases, bench.memcpy_bound(), mpi))
            << std::flush;
  return 0;
}

Action declare_bench_coupling(CLI::App& app) {
  auto o = std::make_shared<CouplingOptions>();
  bench::CouplingBenchConfig& config = o->config;
  add_int_option(app, "--points", config.points, 1, std::int64_t{1} << 40);
  add_int_option(app, "--fields", config.fields, 1, 1 << 20);
  add_int_option(app, "--steps", config.steps, 1, 1 << 20);
  app.add_option("--engine", config.engine);
  add_grid_option(app, config.nx, config.ny);
  app.add_option("--src", config.src_layout);
  app.add_option("--dst", config.dst_layout);
  app.add_option_function<std::string>("--mode",
                                       [&config](const std::string& mode) {
                                         config.pingpong = mode == "pingpong";
                                       })
      ->check(CLI::IsMember({"oneway", "pingpong"}));
  add_int_option(app, "--bound-repeat", config.bound_repeat, 1, 1 << 20);
  app.add_option("--timers", config.timers_directory);
  app.add_flag("--json", o->json);
  return [o](const Context& context) { return run(*o, context); };
}

}  // namespace

Command bench_coupling_command() {
  return {
      "bench coupling", "time the coupler's put/get against a bare exchange of the same fields",
      "usage: mpiexec -n P ferry bench coupling [options]\n"
      "\n"
      "Couples K float64 fields of N points from a component \"atm\" (the first half of\n"
      "the ranks, 2-D blocks) to \"ocn\" (the other half, round-robin; one rank runs\n"
      "both) at every step, and times three cases in rotation: a bare Exchange of all\n"
      "fields (execute per step), the coupler with one configuration entry per field,\n"
      "and the coupler with all fields in one entry (put and get per field in both).\n"
      "Each step's time is the slowest rank's; the table gives the median over the\n"
      "steps and its ratio to the bare exchange, and the heap each case keeps (measured\n"
      "around its construction and first step) against the bytes of the fields. Every\n"
      "case's first step is checked value by value.\n"
      "\n"
      "  --points N      grid points, 2:1 lon x lat (default 100000)\n"
      "  --grid NXxNY    the grid instead (say 1024x512)\n"
      "  --src LAYOUT    atm's decomposition (default box; see bench exchange --help)\n"
      "  --dst LAYOUT    ocn's decomposition (default round_robin)\n"
      "  --mode oneway|pingpong\n"
      "                  pingpong: ocn puts every field it got back to atm, which gets\n"
      "                  them (a second set of exchanges, one per field or one for all)\n"
      "  --bound-repeat N  timed copies behind the memcpy bound (default 51)\n"
      "  --fields K      fields coupled atm -> ocn (default 10)\n"
      "  --steps S       timed steps per case (default 20)\n"
      "  --engine NAME   the engine of all three cases: p2p (default), or alltoallv,\n"
      "                  neighbor, rma where this build has them\n"
      "  --timers DIR    keep the couplers' timer files, in DIR/per_field and\n"
      "                  DIR/aggregated (read them with ferry report)\n"
      "  --json          one JSON object per case and line instead of a table\n",
      declare_bench_coupling};
}

}  // namespace ferry::cli
