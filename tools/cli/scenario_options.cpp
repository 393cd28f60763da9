#include "scenario_options.hpp"

#include <cstdint>
#include <string>

namespace ferry::cli {

void add_scenario_options(CLI::App& app, bench::ExchangeBenchConfig& config) {
  app.add_option("--scenario", config.scenario.name);
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
