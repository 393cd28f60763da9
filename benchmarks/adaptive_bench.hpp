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
  int repeat = 10;
  /// A choice is good if its median is within this of the best candidate's.
  double within = 0.10;
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
  bool chosen_good(double within) const { return chosen_seconds <= (1 + within) * best_seconds; }
  bool previous_good(double within) const {
    return previous_seconds <= (1 + within) * best_seconds;
  }
};

/// Collective over `comm` throughout; every rank gets the same results.
class AdaptiveBench {
 public:
  AdaptiveBench(MPI_Comm comm, const AdaptiveBenchConfig& config);

  const Scenario& scenario() const noexcept { return scenario_; }
  const Roles& roles() const noexcept { return roles_; }
  const AdaptiveBenchConfig& config() const noexcept { return config_; }

  /// Sets up every candidate once, then makes config.runs runs.
  std::vector<AdaptiveRunResult> measure();

 private:
  Exchange& candidate(const std::string& label);
  double timed_execute(Exchange& exchange);
  std::pair<std::string, long> previous_search();
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

}  // namespace ferry::bench
