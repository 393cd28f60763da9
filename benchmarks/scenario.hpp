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
};

/// What the command line asks for; 0 means "the scenario's default".
struct ScenarioRequest {
  std::string name;
  int fields = 0;
  int msgs_per_proc = 0;
  std::int64_t points = 0;
  std::int64_t points_per_proc = 0;  ///< size the grid so each source rank holds about this many
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

  std::int64_t points() const noexcept { return nx * ny; }
};

/// The scenario names, in the order the help lists them.
std::vector<std::string> scenario_names();

/// Resolves defaults and rescaling; Errc::Arg for an unknown name, a knob that
/// does not apply to the scenario, or a value the roles cannot satisfy (message
/// says which values would work).
Scenario make_scenario(const ScenarioRequest& request, const Roles& roles);

/// Short text such as "round-robin -> 2 x 1 blocks" for reports.
std::string describe(const Scenario& scenario, const Roles& roles);

/// This rank's source and destination layouts (Layout::none where it is not a member).
struct LayoutPair {
  Layout src;
  Layout dst;
};
LayoutPair make_layouts(const Scenario& scenario, const Roles& roles);

/// The process grid px x py (px >= py) of `parts` ranks that is closest to square.
std::pair<int, int> square_process_grid(int parts);

}  // namespace ferry::bench
