#include "scenario_options.hpp"

#include "background_load.hpp"

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

namespace ferry::cli {

void add_grid_option(CLI::App& app, std::int64_t& nx, std::int64_t& ny) {
  app.add_option_function<std::string>("--grid", [&nx, &ny](const std::string& grid) {
    char x = 0;
    std::int64_t gx = 0, gy = 0;
    std::istringstream in(grid);
    if (!(in >> gx >> x >> gy) || x != 'x' || !in.eof() || gx < 1 || gy < 1)
      throw CLI::ValidationError("--grid", "expected NXxNY with both >= 1 (say 1024x512); got \"" +
                                               grid + "\"");
    nx = gx;
    ny = gy;
  });
}

void add_load_option(CLI::App& app, int& load) {
  app.add_option_function<std::string>("--load", [&load](const std::string& value) {
    if (value == "cores") {
      load = bench::online_cores();
      return;
    }
    char* end = nullptr;
    const long n = std::strtol(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0' || n < 0 || n > 1024)
      throw CLI::ValidationError("--load", "expected a count 0..1024 or cores; got \"" + value + "\"");
    load = static_cast<int>(n);
  });
}

void add_scenario_options(CLI::App& app, bench::ExchangeBenchConfig& config) {
  app.add_option("--scenario", config.scenario.name);
  add_grid_option(app, config.scenario.nx, config.scenario.ny);
  app.add_option("--src", config.scenario.src_layout);
  app.add_option("--dst", config.scenario.dst_layout);
  add_int_option(app, "--fields", config.scenario.fields, 1, 1 << 20);
  add_int_option(app, "--msgs-per-proc", config.scenario.msgs_per_proc, 1, 1 << 30);
  add_int_option(app, "--points", config.scenario.points, 1, std::int64_t{1} << 40);
  add_int_option(app, "--points-per-proc", config.scenario.points_per_proc, 1,
                 std::int64_t{1} << 40);
  app.add_option_function<std::string>("--groups",
                                       [&config](const std::string& name) {
                                         config.groups = name == "split" ? bench::Groups::Split
                                                                         : bench::Groups::Shared;
                                       })
      ->check(CLI::IsMember({"split", "shared"}));
}

void require_scenario(const bench::ExchangeBenchConfig& config) {
  if (config.scenario.name.empty()) throw UsageError("--scenario is required");
}

const char* const kLoadOptionHelp =
    "  --load N|cores         start N CPU-bound processes (cores: one per core) for the\n"
    "                         run, a controlled background load; stopped at the end\n";

const char* const kScenarioOptionsHelp =
    "  --scenario NAME        custom (default): --grid, 14 fields, --src -> --dst, by\n"
    "                                default 1024 x 512, box -> round_robin (OASIS's\n"
    "                                BOX -> POINTS)\n"
    "                         gamil: 128 x 60 points, 14 fields, round-robin -> 2-D blocks\n"
    "                         toy:   192 x 96 points, 10 fields, 1-D blocks -> each source\n"
    "                                rank's points dealt over M destination ranks\n"
    "                         large: 1024 x 512 points, 14 fields, 2-D blocks -> round-robin\n"
    "                         cesm:  144 x 96 points, 32 fields, round-robin -> 2-D blocks\n"
    "                         interp: 144 x 96 points, 10 fields, 2-D blocks -> the points\n"
    "                                bilinear interpolation to each rank's block of a\n"
    "                                320 x 384 grid reads (use with --groups shared)\n"
    "  --grid NXxNY           the grid instead of the scenario's (say 128x60)\n"
    "  --src LAYOUT, --dst LAYOUT\n"
    "                         the source / destination decomposition instead of the\n"
    "                         scenario's: box (px x py as square as the ranks allow),\n"
    "                         box:PXxPY, orange (latitude bands), round_robin, block\n"
    "                         (1-D), points:FILE (line p: the ids of rank p)\n"
    "  --fields K             number of fields (default: the scenario's)\n"
    "  --msgs-per-proc M      toy only: destination ranks each source rank sends to\n"
    "                         (default min(4, destination ranks))\n"
    "  --points N             rescale the grid to about N points, same aspect ratio\n"
    "  --points-per-proc N    rescale the grid to about N points per source rank\n"
    "  --groups split|shared  split: the first half of the ranks is the source\n"
    "                         component, the second half the destination (default;\n"
    "                         one rank runs shared); shared: every rank is both\n";

}  // namespace ferry::cli
