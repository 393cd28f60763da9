// `ferry bench coupling`: the coupler's put/get against a bare exchange of the same data.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ferry/comm.hpp"
#include "groups.hpp"
#include "scenario.hpp"
#include "statistics.hpp"

namespace ferry::bench {

struct CouplingBenchConfig {
  std::int64_t points = 100000;
  int fields = 10;
  int steps = 20;
  std::int64_t nx = 0, ny = 0;  ///< the grid instead of `points` (2:1) when given
  std::string src_layout, dst_layout;  ///< atm's and ocn's decompositions (see scenario.hpp)
  bool pingpong = false;  ///< ocn puts every field it got back to atm, which gets them
  int bound_repeat = 51;  ///< timed copies behind the memcpy bound
  std::string engine = "p2p";
  std::string timers_directory;  ///< where the couplers write their timer files; empty: nowhere
};

/// What every case of a run shares. "atm" is the scenario's source (2-D blocks),
/// "ocn" its destination (round-robin); one rank runs both.
struct CouplingRun {
  Scenario scenario;
  Roles roles;
  int ranks = 0;
  int steps = 0;
  std::string engine;
  bool pingpong = false;
  int bound_repeat = 0;
  /// Max over ranks of the bytes of the fields a rank puts or gets.
  std::int64_t field_bytes_max = 0;
};

/// One case's row. Times in seconds, each the slowest rank's.
struct CouplingCase {
  std::string name;         ///< exchange, per_field or aggregated
  std::string description;  ///< one line for the legend
  double setup_seconds = 0;  ///< construction to ready (for the coupler: through enddef)
  Summary step;              ///< one coupling step: every field moved once
  /// Heap bytes the case keeps after its first step (max over ranks), and the
  /// largest ratio over ranks of those bytes to the rank's field bytes; nullopt
  /// where heap use cannot be measured.
  std::optional<std::int64_t> state_bytes_max;
  std::optional<double> state_per_field_byte_max;
};

/// Collective over `comm` throughout; every rank gets the same results.
class CouplingBench {
 public:
  /// Resolves the grid and the roles for this communicator. Raises Errc::Arg (the
  /// same on every rank) for sizes or an engine the coupler cannot run.
  CouplingBench(MPI_Comm comm, const CouplingBenchConfig& config);

  const CouplingRun& run() const noexcept { return run_; }

  /// Builds the three cases one after the other, measuring each one's setup time and
  /// heap, makes one coupling step with each and checks every received value
  /// (Errc::Internal on every rank if one is wrong anywhere), then times `steps`
  /// steps of each in rotation. Returns the bare exchange first, then the coupler
  /// with one configuration entry per field, then with all fields in one entry.
  std::vector<CouplingCase> measure();

  /// One hot memcpy of the largest rank's payload (the larger of its atm and ocn
  /// fields), timed on its own before the cases (see time_payload_copy).
  const Summary& memcpy_bound() const noexcept { return memcpy_bound_; }

 private:
  Comm comm_;
  CouplingRun run_;
  LayoutPair layouts_;
  std::int64_t field_bytes_ = 0;  ///< this rank's bytes of the fields it puts or gets
  std::string timers_directory_;
  Summary memcpy_bound_;
};

}  // namespace ferry::bench
