#include "scenario_options.hpp"

#include "background_load.hpp"

#include <cstdint>
#include <cstdlib>
#include <sstream>

namespace ferry::cli {

bench::ExchangeBenchConfig take_scenario_options(Arguments& args) {
  bench::ExchangeBenchConfig config;
  config.scenario.name = args.take_value("--scenario").value_or(bench::kCustomScenario);
  take_grid(args, config.scenario.nx, config.scenario.ny);
  config.scenario.src_layout = args.take_value("--src").value_or("");
  config.scenario.dst_layout = args.take_value("--dst").value_or("");
  config.scenario.fields = static_cast<int>(args.take_int("--fields", 0, 1, 1 << 20));
  config.scenario.msgs_per_proc =
      static_cast<int>(args.take_int("--msgs-per-proc", 0, 1, 1 << 30));
  config.scenario.points = args.take_int("--points", 0, 1, std::int64_t{1} << 40);
  config.scenario.points_per_proc =
      args.take_int("--points-per-proc", 0, 1, std::int64_t{1} << 40);
  config.groups = bench::parse_groups(args.take_choice("--groups", "split", {"split", "shared"}));
  return config;
}

void take_grid(Arguments& args, std::int64_t& nx, std::int64_t& ny) {
  const auto grid = args.take_value("--grid");
  if (!grid) return;
  char x = 0;
  std::istringstream in(*grid);
  if (!(in >> nx >> x >> ny) || x != 'x' || !in.eof() || nx < 1 || ny < 1)
    throw UsageError("--grid: expected NXxNY with both >= 1 (say 1024x512); got \"" + *grid +
                     "\"");
}

int take_load(Arguments& args) {
  const std::string load = args.take_value("--load").value_or("0");
  if (load == "cores") return bench::online_cores();
  char* end = nullptr;
  const long n = std::strtol(load.c_str(), &end, 10);
  if (load.empty() || *end != '\0' || n < 0 || n > 1024)
    throw UsageError("--load: expected a count 0..1024 or cores; got \"" + load + "\"");
  return static_cast<int>(n);
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
