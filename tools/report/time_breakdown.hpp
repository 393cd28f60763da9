// Where a component's time goes (the PCCM paper's degradation analysis): the
// coupler's timers as shares of the run, and the parallel efficiency across runs.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "timer_file.hpp"

namespace ferry::report {

/// Disjoint parts of a rank's run time; they add up to the run time.
enum class Share {
  Computation,    ///< outside ferry: the model's own work
  Communication,  ///< inside the engines' calls (transfer)
  Waiting,        ///< blocked for the partner component: imbalance between components (wait)
  Imbalance,      ///< waiting for the component's own slower ranks (imbalance, on request)
  Copies,         ///< into and out of coupler buffers, time transforms (pack, transform)
  Io,             ///< restart and output files (io)
  Setup,          ///< building the exchanges (setup)
  Other,          ///< the rest of put and get: the coupler's bookkeeping
  Count
};

/// "computation", "communication", ...: the names of the tables and the JSON.
const char* share_name(Share share) noexcept;

/// One component of one run.
struct ComponentRun {
  TimerFile file;
  double wall_seconds = 0;  ///< the run time of the slowest rank
  /// Mean over the ranks of the seconds of each share, and their total (the mean run time).
  std::array<double, static_cast<std::size_t>(Share::Count)> seconds{};
  double total_seconds = 0;
  /// Against the run of the same component on the fewest ranks, when there are several:
  /// (T_small * P_small) / (T * P) with T the wall time, and the relative change of the
  /// computation's rank-seconds (the paper's "rate"; > 0: the work runs slower).
  std::optional<double> efficiency;
  std::optional<double> rate;

  double seconds_of(Share share) const { return seconds[static_cast<std::size_t>(share)]; }
  /// Percent of the mean run time.
  double percent(Share share) const;
};

/// Not collective. The breakdown of every file, sorted by component then rank count,
/// with the efficiency filled in for components given at several rank counts. Raises
/// Errc::Arg for two files of one component at the same rank count.
std::vector<ComponentRun> break_down(std::vector<TimerFile> files);

}  // namespace ferry::report
