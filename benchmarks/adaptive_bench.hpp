// `ferry bench adaptive`: does the adaptive engine pick a fast engine, run after run?
#pragma once

#include <mpi.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/exchange.hpp"
#include "field_data.hpp"
#include "groups.hpp"
#include "scenario.hpp"

namespace ferry::bench {

struct AdaptiveBenchConfig {
  ScenarioRequest scenario;
  Groups groups = Groups::Split;
  int runs = 20;
  /// Rounds of the judge: every candidate timed in rotation after the searches.
  int repeat = 15;
  /// A choice is good if its median is within this of the best candidate's.
  double within = 0.10;
  /// A second judge right after the first: its best, scored by the first judge as a
  /// choice is, says how often the judge agrees with itself (the resolution of the
  /// within-10 % count on this machine and load).
  bool judge_twice = false;
};

/// One run: a fresh adaptive exchange's choice, the previous search's choice (as
/// ferry made it before candidates took turns: each candidate's 2 warm-up and 3
/// timed exchanges one after the other, the median, a later candidate winning if 2 %
/// faster, then the greedy butterfly stage pass), and every candidate's median
/// measured right after, in rotation.
struct AdaptiveRunResult {
  double load_average = -1;
  std::string chosen, previous, best;
  double chosen_seconds = 0, previous_seconds = 0, best_seconds = 0;
  long chosen_exchanges = 0, previous_exchanges = 0;
  std::string reason;  ///< why the adaptive engine chose what it chose
  std::map<std::string, double> medians;
  /// The choice's time over each candidate's, round by round in the judge's rotation:
  /// the largest over the candidates of the median of these paired ratios (1 if none
  /// is faster). Paired, a load burst that slows a whole round cancels out.
  double chosen_ratio = 0, previous_ratio = 0;
  /// With judge_twice: the second judge's best (lowest median) and its ratio to the
  /// best in the first judge's rounds, scored as chosen_ratio.
  std::string repeat_best;
  double repeat_ratio = 0;
  bool chosen_good(double within) const { return chosen_ratio <= 1 + within; }
  bool previous_good(double within) const { return previous_ratio <= 1 + within; }
  bool repeat_good(double within) const { return repeat_ratio <= 1 + within; }
};

/// One run of the wrong-cache scenario (AdaptiveBench::measure_wrong_cache): the
/// first `exchanges` exchanges of three exchanges made in rotation, exchange by
/// exchange: adaptive re-checking a cache entry whose choice was rewritten to a wrong
/// engine, the right engine (the full search's choice) made fresh, and adaptive
/// trusting the wrong entry (check=false). Times are sums of the slowest rank's time
/// of each exchange.
struct WrongCacheRunResult {
  double load_average = -1;
  std::string chosen;         ///< what the re-check settled on
  long decided_after = 0;     ///< exchanges made when it had settled (0: not within)
  double check_seconds = 0;   ///< the re-checking adaptive exchange's exchanges
  double right_seconds = 0;   ///< the right engine's
  double wrong_seconds = 0;   ///< the trusted wrong choice's
  double right_median = 0, wrong_median = 0;  ///< one exchange, the last half's median
  std::vector<double> check_times, right_times;  ///< each exchange's
  std::string reason;         ///< the re-check's report, first line
  /// The re-check's cost: its time over the right engine's, minus 1.
  double cost() const { return check_seconds / right_seconds - 1; }
};

/// measure_wrong_cache()'s `wrong` that leaves the full search's own choice in the
/// entry: the cost of re-checking a right cached choice.
inline constexpr const char* kRightCache = "right";

/// Collective over `comm` throughout; every rank gets the same results.
class AdaptiveBench {
 public:
  AdaptiveBench(MPI_Comm comm, const AdaptiveBenchConfig& config);

  const Scenario& scenario() const noexcept { return scenario_; }
  const Roles& roles() const noexcept { return roles_; }
  const AdaptiveBenchConfig& config() const noexcept { return config_; }

  /// Sets up every candidate once, then makes config.runs runs.
  std::vector<AdaptiveRunResult> measure();
  /// A full search writes a tuning-cache entry (in a file of its own, removed at the
  /// end), then config.runs runs each rewrite its choice to `wrong` and time
  /// `exchanges` exchanges of the re-check, the right choice and the trusted wrong one.
  /// `right` is the full search's choice.
  std::vector<WrongCacheRunResult> measure_wrong_cache(const std::string& wrong, int exchanges,
                                                       std::string& right);

 private:
  Exchange& candidate(const std::string& label);
  double timed_execute(Exchange& exchange);
  std::string cache_file();
  void rewrite_cache_choice(const std::string& path, const std::string& choice);
  std::pair<std::string, long> previous_search();
  // Times every candidate config.repeat times in rotation and scores the run's choices.
  void judge(AdaptiveRunResult& r);
  // Each exchange's slowest-rank times over config.repeat rounds in rotation.
  std::vector<std::vector<double>> judge_rounds(const std::vector<Exchange*>& exchanges);
  void check_values(const std::string& what);

  Comm comm_;
  AdaptiveBenchConfig config_;
  Roles roles_;
  Scenario scenario_;
  LayoutPair layouts_;
  FieldData data_;
  std::vector<FieldSpec> specs_;
  int butterfly_stages_ = 0;
  std::vector<std::string> labels_;  // the adaptive engine's candidates, in its order
  std::map<std::string, std::unique_ptr<Exchange>> exchanges_;
};

/// The runs as a table and a summary line; as JSON lines, one per run.
std::string adaptive_table(const AdaptiveBench& bench, const std::vector<AdaptiveRunResult>& runs,
                           const std::string& mpi_library);
std::string adaptive_json(const AdaptiveBench& bench, const std::vector<AdaptiveRunResult>& runs,
                          const std::string& mpi_library);
/// The wrong-cache runs as a table and a summary; as JSON lines, one per run.
std::string wrong_cache_table(const AdaptiveBench& bench, const std::string& right,
                              const std::string& wrong, int exchanges,
                              const std::vector<WrongCacheRunResult>& runs,
                              const std::string& mpi_library);
std::string wrong_cache_json(const AdaptiveBench& bench, const std::string& right,
                             const std::string& wrong, int exchanges,
                             const std::vector<WrongCacheRunResult>& runs,
                             const std::string& mpi_library);

}  // namespace ferry::bench
