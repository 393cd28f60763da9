// Link: one configured exchange as seen by one rank: put/get semantics over an Exchange.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "coupling/config/config.hpp"
#include "coupling/coupling_clock.hpp"
#include "coupling/declarations.hpp"
#include "coupling/time_transform.hpp"
#include "ferry/comm.hpp"
#include "ferry/exchange.hpp"
#include "util/timers.hpp"

namespace ferry::coupling {

/// What enddef resolved for one exchange entry, and this rank's part in it.
struct LinkSpec {
  const ExchangeConfig* config = nullptr;
  std::vector<FieldSpec> specs;     ///< per field of the entry: type and bundle
  std::vector<std::string> source_names, target_names;
  std::string source_grid, target_grid;
  std::int64_t grid_size = 0;
  bool source_member = false;       ///< this rank declared the source fields
  bool target_member = false;       ///< this rank declared the target fields
  const Layout* source_layout = nullptr;
  const Layout* target_layout = nullptr;
};

/// One exchange entry on one rank. A source rank's put at a coupling time completes
/// the previous send of the entry (so it never runs more than one period ahead) and
/// starts the next; a destination rank's get starts and completes the receive. On a
/// rank that is both, the put starts the exchange and the get completes it, so gets
/// and puts must interleave. Fields of one entry travel together: the send starts at
/// the last field's put; the first field's get receives them all.
class Link {
 public:
  /// Collective over `run` (every rank of the run, members or not): splits the
  /// communicators, builds the Exchange, reads the restart file of lagged fields.
  Link(const Comm& run, LinkSpec spec, const Config& config, detail::Timers& timers);
  ~Link();

  const std::string& name() const noexcept { return spec_.config->name; }
  int sequence() const noexcept { return spec_.config->sequence; }
  bool source_member() const noexcept { return spec_.source_member; }
  bool target_member() const noexcept { return spec_.target_member; }
  /// The source's next coupling time (no put has been made for it yet).
  double next_put_time() const noexcept { return next_put_; }
  const std::string& source_component() const noexcept { return spec_.config->source.component; }
  const std::string& target_component() const noexcept { return spec_.config->target.component; }

  /// Field `index` of the entry, on a source rank. Returns CouplingStatus flags.
  int put(std::size_t index, double time, const void* data);
  /// Field `index` of the entry, on a destination rank.
  int get(std::size_t index, double time, void* data);
  /// Collective over the run: completes sends in flight, writes the restart file.
  void finalize();

 private:
  void send(double target);
  void receive(double time, void* single_destination);
  int output(const Comm& comm, const char* side, double time, const std::vector<const void*>& data,
             const std::vector<std::string>& names, const std::string& grid, const Layout& layout);
  void read_restart();
  void write_restart();
  std::string restart_path() const;
  std::size_t value_count(const Layout* layout, std::size_t index) const;

  LinkSpec spec_;
  CouplingClock clock_;
  std::string output_directory_;
  double watchdog_seconds_ = 0;
  detail::Timers& timers_;
  Comm link_comm_;    // source and destination members
  Comm source_comm_;  // source members (restart and output files)
  Comm target_comm_;  // destination members (output files)
  std::unique_ptr<Exchange> exchange_;

  // Source side.
  std::vector<std::vector<char>> staging_;   // the period's values, when they must wait
  std::vector<TimeTransform> transforms_;    // non-instant transforms only
  std::vector<const void*> send_from_;
  std::vector<char> ready_;                  // field put for the coupling time next_put_
  std::vector<double> last_put_;
  double next_put_ = 0;
  bool pending_ = false;                     // staging_ holds a value for a target past the run

  // Destination side.
  std::vector<std::vector<char>> received_;  // all fields, when several or on a source rank
  std::vector<void*> receive_into_;
  std::vector<double> next_get_;
  std::vector<double> last_get_;
  double received_time_ = 0;
  bool has_received_ = false;

  bool in_flight_ = false;  // begin() called, end() not yet
  double in_flight_target_ = 0;
};

}  // namespace ferry::coupling
