// The benchmark scenarios of the data-transfer paper (Zhang et al.): grids, fields
// and the source/destination decompositions of each.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ferry/layout.hpp"
#include "groups.hpp"

namespace ferry::bench {

/// How one component cuts the grid among its ranks.
enum class Decomposition {
  RoundRobin,         ///< points dealt cyclically (Layout::round_robin)
  Blocks2d,           ///< px x py rectangles, as square as the rank count allows (Layout::box)
  Block1d,            ///< contiguous runs of points (Layout::block)
  GroupedRoundRobin,  ///< each source rank's points dealt over its group of M destination ranks
  BilinearStencils,   ///< the points bilinear interpolation reads for each rank's 2-D block
                      ///< of a finer target grid (longitude periodic); blocks overlap
  Orange,             ///< latitude bands of whole rows (Layout::orange)
  PointsFile,         ///< each rank's ids read from a file, line p for part p
};

/// A decomposition as the command line names it: "box" (px x py as square as the rank
/// count allows) or "box:PXxPY", "orange", "round_robin", "block", "points:FILE".
struct DecompositionChoice {
  Decomposition kind = Decomposition::RoundRobin;
  int px = 0, py = 0;  ///< box only; 0: as square as the rank count allows
  std::string file;    ///< points only
};

/// Errc::Arg with the accepted forms for anything else.
DecompositionChoice parse_decomposition(const std::string& text);

/// What the command line asks for; 0 means "the scenario's default".
struct ScenarioRequest {
  std::string name;
  int fields = 0;
  int msgs_per_proc = 0;
  std::int64_t points = 0;
  std::int64_t points_per_proc = 0;  ///< size the grid so each source rank holds about this many
  std::int64_t nx = 0, ny = 0;       ///< the grid, instead of the scenario's
  std::string src_layout, dst_layout;  ///< decompositions instead of the scenario's
};

/// A fully resolved scenario for a given set of component roles.
struct Scenario {
  std::string name;
  std::int64_t nx = 0;
  std::int64_t ny = 0;
  int fields = 0;
  int msgs_per_proc = 0;  ///< toy only: destination ranks each source rank sends to
  std::int64_t target_nx = 0;  ///< interp only: the grid interpolated to
  std::int64_t target_ny = 0;
  Decomposition src = Decomposition::RoundRobin;
  Decomposition dst = Decomposition::RoundRobin;
  DecompositionChoice src_choice, dst_choice;  ///< box process grids and points files

  std::int64_t points() const noexcept { return nx * ny; }
};

/// The scenario a request without --scenario runs: the grid of --grid (default 1024 x
/// 512), 14 fields, --src and --dst (default box -> round_robin, OASIS's BOX -> POINTS).
inline constexpr const char* kCustomScenario = "custom";

/// The scenario names, in the order the help lists them.
std::vector<std::string> scenario_names();

/// Resolves defaults and rescaling; Errc::Arg for an unknown name, a knob that
/// does not apply to the scenario, or a value the roles cannot satisfy (message
/// says which values would work).
Scenario make_scenario(const ScenarioRequest& request, const Roles& roles);

/// Short text such as "round-robin -> 2 x 1 blocks" for reports.
std::string describe(const Scenario& scenario, const Roles& roles);
/// One side of it: "round-robin", "2 x 1 blocks".
std::string describe_side(const Scenario& scenario, const Roles& roles, bool source);

/// This rank's source and destination layouts (Layout::none where it is not a member).
struct LayoutPair {
  Layout src;
  Layout dst;
};
LayoutPair make_layouts(const Scenario& scenario, const Roles& roles);

/// The process grid px x py (px >= py) of `parts` ranks that is closest to square.
std::pair<int, int> square_process_grid(int parts);

}  // namespace ferry::bench
