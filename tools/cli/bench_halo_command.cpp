// `ferry bench halo`: ghost-cell exchange on a geodesic mesh, per engine.
#include <algorithm>
#include <iostream>
#include <memory>

#include "command.hpp"
#include "ferry/cell_partition.hpp"
#include "ferry/engine.hpp"
#include "halo_bench.hpp"
#include "halo_bench_report.hpp"
#include "util/mpi_library.hpp"

namespace ferry::cli {

namespace {

constexpr std::int64_t kDefaultCells = 40962;
constexpr int kDefaultLevels = 36 * 35;
constexpr int kHaloRepeat = 20;

PartitionMethod partition_from(const std::string& name) {
  for (auto method : {PartitionMethod::Block, PartitionMethod::Random, PartitionMethod::Metis})
    if (name == partition_method_name(method)) return method;
  throw UsageError("--partition must be metis, random or block; got \"" + name + "\"");
}

// One row per engine; neighbor once per reorder setting asked for.
std::vector<bench::HaloVariant> variants_for(const std::string& engine,
                                             const std::string& reorder) {
  const std::vector<std::string> registered = engine_names();
  std::vector<std::string> engines = registered;
  if (engine != "all") {
    if (std::find(registered.begin(), registered.end(), engine) == registered.end()) {
      std::string known;
      for (const auto& name : registered) known += name + ", ";
      throw UsageError("--engine: unknown engine \"" + engine + "\"; this build offers " + known +
                       "or all (see ferry info)");
    }
    engines = {engine};
  }
  std::vector<bench::HaloVariant> variants;
  for (const std::string& name : engines) {
    if (name != "neighbor") {
      variants.push_back({name, name, {}});
      continue;
    }
    for (const bool on : {false, true}) {
      if (reorder != "both" && (reorder == "on") != on) continue;
      bench::HaloVariant variant{on ? "neighbor:reorder" : "neighbor", name, {}};
      variant.options.values["reorder"] = on ? "true" : "false";
      variants.push_back(std::move(variant));
    }
  }
  return variants;
}

struct HaloOptions {
  bench::HaloBenchConfig config;
  std::string partition;
  std::string placement = "ordered";
  std::string engine = "all";
  std::string reorder = "both";
  bool json = false;
};

int run(const HaloOptions& o, const Context& context) {
  bench::HaloBenchConfig config = o.config;
  config.partition = partition_from(o.partition);
  config.shuffle_parts = o.placement == "shuffled";
  const bool json = o.json;
  const std::vector<bench::HaloVariant> variants = variants_for(o.engine, o.reorder);

  bench::HaloBench bench =
      arg_errors_as_usage([&] { return bench::HaloBench(context.comm, config); });
  const bench::HaloResults results = bench.measure(variants);
  if (context.rank != 0) return 0;
  const std::string mpi = detail::mpi_library_version();
  std::cout << (json ? bench::halo_json(bench.run(), results, mpi)
                     : bench::halo_table(bench.run(), results, mpi))
            << std::flush;
  return 0;
}

Action declare_bench_halo(CLI::App& app) {
  auto o = std::make_shared<HaloOptions>();
  bench::HaloBenchConfig& config = o->config;
  config.cells = kDefaultCells;
  config.levels = kDefaultLevels;
  config.depth = 1;
  config.repeat = kHaloRepeat;
  o->partition = partition_method_available(PartitionMethod::Metis) ? "metis" : "block";
  add_int_option(app, "--cells", config.cells, 12, std::int64_t{1} << 31);
  add_int_option(app, "--levels", config.levels, 1, 1 << 20);
  add_int_option(app, "--depth", config.depth, 1, 16);
  app.add_option("--partition", o->partition)->check(CLI::IsMember({"metis", "random", "block"}));
  app.add_option("--placement", o->placement)->check(CLI::IsMember({"ordered", "shuffled"}));
  app.add_option("--engine", o->engine);
  app.add_option("--reorder", o->reorder)->check(CLI::IsMember({"off", "on", "both"}));
  add_int_option(app, "--repeat", config.repeat, 1, 1 << 20);
  app.add_flag("--json", o->json);
  return [o](const Context& context) { return run(*o, context); };
}

}  // namespace

Command bench_halo_command() {
  return {
      "bench halo", "time ghost-cell exchanges on a geodesic mesh per engine",
      "usage: mpiexec -n P ferry bench halo [options]\n"
      "\n"
      "Builds an MPAS-like geodesic mesh (hexagons and 12 pentagons) on rank 0,\n"
      "partitions it over the P ranks and sends each rank its cells' neighbour lists;\n"
      "then, per engine, a ferry::Halo: one verified exchange, then --repeat timed ones,\n"
      "each the slowest rank's time, engines and the memcpy bound (one memcpy of the\n"
      "largest rank payload) timed in rotation. Reports setup time, median/min/max per\n"
      "exchange, messages and bytes sent per rank, ghost cells and neighbour ranks.\n"
      "\n"
      "  --cells N              about N cells: the nearest 10 f^2 + 2 (default 40962)\n"
      "  --levels L             float64 values per cell (default 1260, FVWAM's 36\n"
      "                         directions x 35 frequencies)\n"
      "  --depth D              ghost rings (default 1)\n"
      "  --partition metis|random|block\n"
      "                         METIS k-way (the default when built with METIS), a\n"
      "                         random permutation cut into blocks, or contiguous ids\n"
      "  --placement ordered|shuffled\n"
      "                         part p on rank p (default), or parts dealt to ranks in\n"
      "                         a seeded random order\n"
      "  --engine NAME|all      an engine of this build (see ferry info) or all (default)\n"
      "  --reorder off|on|both  the neighbor engine's reorder option: rows neighbor and\n"
      "                         neighbor:reorder (default both)\n"
      "  --repeat R             timed exchanges per engine (default 20)\n"
      "  --json                 one JSON object per engine and line instead of a table\n",
      declare_bench_halo};
}

}  // namespace ferry::cli
