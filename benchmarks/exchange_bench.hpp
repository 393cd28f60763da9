// `ferry bench exchange`: one scenario, timed per engine against the memcpy bound.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/engine.hpp"
#include "ferry/exchange.hpp"
#include "field_data.hpp"
#include "groups.hpp"
#include "traffic.hpp"
#include "scenario.hpp"
#include "statistics.hpp"

namespace ferry::bench {

/// oneway: the source component sends, the destination receives. pingpong: then the
/// destination sends what it received back (a second exchange, layouts swapped).
enum class Mode { OneWay, PingPong };
const char* mode_name(Mode mode) noexcept;

struct ExchangeBenchConfig {
  ScenarioRequest scenario;
  Groups groups = Groups::Split;
  int repeat = 10;
  Mode mode = Mode::OneWay;
  /// One exchange per field (as OASIS models define one namcouple entry per field)
  /// instead of one exchange moving every field.
  bool per_field = false;
  /// Timed copies behind the memcpy bound.
  int bound_repeat = 51;
  /// Receive into the memory the engine offers (Exchange::destination_field: the rma
  /// engine's window, one copy per value on a node) where it offers some. One way only.
  bool engine_memory = false;
  /// The adaptive engine's options (candidates, samples, warmup); empty: its defaults.
  EngineOptions adaptive_options;
};

/// What every engine of a run shares: the resolved scenario and the roles.
struct ExchangeRun {
  Scenario scenario;
  Roles roles;
  int ranks = 0;
  int repeat = 0;
  Mode mode = Mode::OneWay;
  bool per_field = false;
  bool engine_memory = false;
  int bound_repeat = 0;
  std::int64_t payload_bytes_max = 0;  ///< max over ranks of one rank's bytes of all fields
  /// Payload copies one step needs at least: 1 one way, 2 for a ping-pong.
  int legs() const noexcept { return mode == Mode::PingPong ? 2 : 1; }
};

/// One engine's row. Times in seconds; setup and each sample are the slowest rank's.
struct EngineResult {
  std::string engine;
  double setup_seconds = 0;
  /// The exchanges before the engine settled: the adaptive engine's profiling, 0 for
  /// the others (and for adaptive when its choice comes from the tuning cache).
  double profiling_seconds = 0;
  Summary exchange;
  TrafficSpread traffic;
  EngineReport report;  ///< the adaptive engine's choice and candidate times; empty for others
  /// With several exchanges a step (per field, ping-pong), every adaptive exchange's
  /// choice, in order; report is the first one's.
  std::vector<std::string> choices;
};

/// The rows of a run and the bound they are compared with.
struct ExchangeResults {
  /// Seconds to memcpy the largest rank payload once: the same hot copy of the same
  /// bytes whatever the engines and modes, timed on its own, bound_repeat times.
  Summary memcpy_bound;
  std::vector<EngineResult> engines;
};

/// Collective over `comm` throughout; every rank gets the same results.
class ExchangeBench {
 public:
  /// Resolves the scenario for this communicator and fills the fields. Raises
  /// Errc::Arg (the same on every rank) for a scenario the rank count cannot run.
  ExchangeBench(MPI_Comm comm, const ExchangeBenchConfig& config);

  const ExchangeRun& run() const noexcept { return run_; }

  /// Times the memcpy bound. Sets up each engine in turn (a registered engine or
  /// kBaselineName; one exchange, or one per field, and the way back for a
  /// ping-pong), runs one warm-up step with it and checks every received value
  /// (Errc::Internal on every rank if one is wrong anywhere). Then times all engines
  /// in rotation (time_in_rotation), `repeat` steps each.
  ExchangeResults measure(const std::vector<std::string>& engines);

  /// Sets up `engine` with `options` and exchanges until it has settled (the adaptive
  /// engine has chosen), then checks the received values as measure() does. Returns
  /// the engine's report.
  EngineReport tune(const std::string& engine, const EngineOptions& options);

 private:
  struct Transfers;
  /// The exchanges of one engine for a step: forward (one, or one per field), and
  /// back for a ping-pong.
  std::unique_ptr<Transfers> make_transfers(const std::string& engine);
  /// Exchanges until the engine has settled: the adaptive engine profiles on these
  /// exchanges, so the timed ones measure its choice (its report gives the cost).
  void settle(Exchange& exchange);
  /// Errc::Internal on every rank if `engine` delivered a wrong value on any rank.
  void check_values(const std::string& engine);

  Comm comm_;
  ExchangeRun run_;
  LayoutPair layouts_;
  FieldData data_;
  std::unique_ptr<FieldData> back_;  // ping-pong: the values sent back, on the source layout
  EngineOptions adaptive_options_;
  std::int64_t payload_bytes_ = 0;
};

}  // namespace ferry::bench
