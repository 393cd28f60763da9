#include "scenario_options.hpp"

#include <cstdint>

namespace ferry::cli {

bench::ExchangeBenchConfig take_scenario_options(Arguments& args) {
  bench::ExchangeBenchConfig config;
  const auto scenario = args.take_value("--scenario");
  if (!scenario) throw UsageError("--scenario is required");
  config.scenario.name = *scenario;
  config.scenario.fields = static_cast<int>(args.take_int("--fields", 0, 1, 1 << 20));
  config.scenario.msgs_per_proc =
      static_cast<int>(args.take_int("--msgs-per-proc", 0, 1, 1 << 30));
  config.scenario.points = args.take_int("--points", 0, 1, std::int64_t{1} << 40);
  config.scenario.points_per_proc =
      args.take_int("--points-per-proc", 0, 1, std::int64_t{1} << 40);
  config.groups = bench::parse_groups(args.take_choice("--groups", "split", {"split", "shared"}));
  return config;
}

const char* const kScenarioOptionsHelp =
    "  --scenario NAME        gamil: 128 x 60 points, 14 fields, round-robin -> 2-D blocks\n"
    "                         toy:   192 x 96 points, 10 fields, 1-D blocks -> each source\n"
    "                                rank's points dealt over M destination ranks\n"
    "                         large: 1024 x 512 points, 14 fields, 2-D blocks -> round-robin\n"
    "                         cesm:  144 x 96 points, 32 fields, round-robin -> 2-D blocks\n"
    "                         interp: 144 x 96 points, 10 fields, 2-D blocks -> the points\n"
    "                                bilinear interpolation to each rank's block of a\n"
    "                                320 x 384 grid reads (use with --groups shared)\n"
    "  --fields K             number of fields (default: the scenario's)\n"
    "  --msgs-per-proc M      toy only: destination ranks each source rank sends to\n"
    "                         (default min(4, destination ranks))\n"
    "  --points N             rescale the grid to about N points, same aspect ratio\n"
    "  --points-per-proc N    rescale the grid to about N points per source rank\n"
    "  --groups split|shared  split: the first half of the ranks is the source\n"
    "                         component, the second half the destination (default;\n"
    "                         one rank runs shared); shared: every rank is both\n";

}  // namespace ferry::cli
