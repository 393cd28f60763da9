// Link: one configured exchange as seen by one rank: put/get semantics over an Exchange.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "coupling/coupling_clock.hpp"
#include "coupling/declarations.hpp"
#include "coupling/entry_regrid.hpp"
#include "coupling/field_file.hpp"
#include "coupling/partition_route.hpp"
#include "coupling/root_gather.hpp"
#include "coupling/time_transform.hpp"
#include "coupling/watchdog.hpp"
#include "ferry/comm.hpp"
#include "ferry/coupler.hpp"
#include "ferry/exchange.hpp"
#include "util/timers.hpp"

namespace ferry::coupling {

/// What enddef resolved for one exchange entry, and this rank's part in it.
struct LinkSpec {
  const config::ExchangeConfig* config = nullptr;
  std::vector<FieldSpec> specs;     ///< per field of the entry: type and bundle
  std::vector<std::string> source_names, target_names;
  std::string source_grid, target_grid;
  std::int64_t source_size = 0, target_size = 0;  ///< points of the source and target grids
  std::int64_t source_nx = 0;       ///< the source grid's first dimension
  bool source_member = false;       ///< this rank declared the source fields
  bool target_member = false;       ///< this rank declared the target fields
  const PartitionDecl* source_partition = nullptr;  ///< on source members
  const PartitionDecl* target_partition = nullptr;  ///< on target members
  const Layout* source_layout = nullptr;
  const Layout* target_layout = nullptr;
  /// What the exchange moves: the partitions' layouts over a grid of moved_size
  /// points, or with regridding, one side replaced by a block of the other grid on
  /// the ranks that run the product (see regrid.hpp).
  std::int64_t moved_size = 0;
  const Layout* moved_from = nullptr;
  const Layout* moved_to = nullptr;
  std::shared_ptr<const Layout> block;  ///< regridded, on the product ranks
  /// The same on every rank for entries between the same partitions on the same
  /// ranks: candidates for sharing one PartitionRoute.
  std::string route_key;
};

/// "<file>:<line>:<column>: exchange \"<name>\"", to start messages about an entry.
std::string where(const config::ExchangeConfig& e);

/// What a source rank keeps of one exchange in its restart file.
struct RestartPart {
  std::vector<FieldRecord> records;
  std::vector<const Layout*> layouts;
  std::vector<const void*> data;
};

/// One exchange entry on one rank. A source rank's put at a coupling time completes
/// the previous send of the entry (so it never runs more than one period ahead) and
/// starts the next; a destination rank's get starts and completes the receive. On a
/// rank that is both, the put starts the exchange and the get completes it, so gets
/// and puts must interleave. Fields of one entry travel together: the send starts at
/// the last field's put; the first field's get receives them all. Between those
/// calls the fields wait in the engine's buffers when it can hold them (a put packs
/// its field at once, a get unpacks its own), else in copies the link keeps. A
/// regridded entry runs its product (EntryRegrid) in the send of the source ranks (map_on
/// src) or in the receive of the destination ranks (map_on dst), then fills the
/// target's masked points in the link's copies.
class Link {
 public:
  /// Collective over `run` (every rank of the run, members or not): builds the
  /// Exchange over the route's plan, reads the restart file of lagged fields and
  /// accumulations. Waits for partners under `watchdog`. Unless
  /// collectives_after_exchange(), an error of the exchange's set-up may be raised on
  /// one rank alone (LateSetupErrors::RaisedAlone): the caller agrees on it.
  Link(LinkSpec spec, std::shared_ptr<const PartitionRoute> route, std::unique_ptr<EntryRegrid> regrid,
       const config::Config& config, const Watchdog& watchdog, detail::Timers& timers);
  ~Link();

  const std::string& name() const noexcept { return spec_.config->name; }
  const config::ExchangeConfig& config() const noexcept { return *spec_.config; }
  /// The source members that hold points of the source partition (invalid on the
  /// others): they write the exchange's restart and output files, so that a member
  /// holding no point may skip its puts (as OASIS allows).
  const Comm& source_holders() const noexcept {
    return regrid_before_ ? own_source_holders_ : route_->source_holders;
  }
  /// The same on the destination side (output files, CHECKOUT).
  const Comm& target_holders() const noexcept {
    return regrid_after_ ? own_target_holders_ : route_->target_holders;
  }
  /// Whether the exchange needs this rank's puts: it holds source points, or it runs
  /// the product of an entry remapped on the source side (collective over the source).
  bool needs_puts() const noexcept {
    return source_holders().valid() || (regrid_before_ && spec_.source_member);
  }
  int sequence() const noexcept { return spec_.config->sequence; }
  bool source_member() const noexcept { return spec_.source_member; }
  bool target_member() const noexcept { return spec_.target_member; }
  /// The source's next coupling time (no put has been made for it yet).
  double next_put_time() const noexcept { return next_put_; }
  const std::string& source_component() const noexcept { return spec_.config->source.component; }
  const std::string& target_component() const noexcept { return spec_.config->target.component; }

  /// Raises if a put of field `index` at `time` breaks the exchange's rules (time going
  /// backwards or past the run, a coupling time skipped or put twice); changes nothing.
  void check_put(std::size_t index, double time) const;
  /// Whether the entry's remapping takes the field's gradients from the put
  /// (PutExtras::gradients; other entries do not use them): bicubic and second-order
  /// conservative methods, and weight files of several weights per link.
  bool takes_gradients() const;
  /// If it does: raises Errc::Arg unless it can take `count` gradients of field
  /// `index` (their number, the mapping side, no lag nor time transform, float64);
  /// none (count 0) passes for a method that computes them, not for a weight file of
  /// several columns, which takes exactly one per later column. Changes nothing.
  void check_gradients(std::size_t index, std::size_t count) const;
  /// Field `index` of the entry, on a source rank, after check_put (and
  /// check_gradients). Returns CouplingStatus flags. With extras.write_restart (OASIS
  /// files only; collective over the source ranks that hold points) also writes an
  /// intermediate restart file, as OASIS's oasis_put(..., write_restart) does: at a
  /// coupling time the period's value (transformed) into TC<time, 9 digits>_<restart
  /// file>, else the field's accumulation in progress into TA<time>_<restart file>.
  /// Gradients given at a coupling time are remapped with the field's value.
  int put(std::size_t index, double time, const void* data, const PutExtras& extras = {});
  /// What put(index, time, ...) would return, without putting (OASIS's put_inquire).
  int inquire(std::size_t index, double time) const;
  /// As check_put, for a get on a destination rank.
  void check_get(std::size_t index, double time) const;
  /// Field `index` of the entry, on a destination rank, after check_get.
  int get(std::size_t index, double time, void* data);

  /// Whether the exchange keeps state from one run to the next (a lag or a time
  /// transform), in the file restart_path() names.
  bool keeps_state() const noexcept { return keeps_state(*spec_.config); }
  /// True if making the link of an exchange configured so makes collective calls after
  /// setting up its Exchange (a regridded one, or one that keeps a state).
  static bool collectives_after_exchange(const config::ExchangeConfig& exchange) noexcept;
  /// True if an exchange configured so keeps a state across runs (a lag or a time
  /// transform): its link reads a restart file when it is made.
  static bool keeps_state(const config::ExchangeConfig& exchange) noexcept;
  std::string restart_path() const;
  /// Completes a send still in flight (its target's get), under the watchdog.
  void complete();
  /// On a source rank, after complete(): what the restart file keeps of the exchange
  /// (the values put for targets past the run's end, every accumulation in progress).
  RestartPart restart_part() const;
  /// OASIS file format: whether restart and output files are OASIS's (restart_part()
  /// is then empty), and, collective over source_holders() after complete(), the
  /// writing of the exchange's variables into its restart file (kept, or added to).
  bool oasis_files() const noexcept { return file_format_ == config::FileFormat::Oasis; }
  void write_oasis_restart();
  /// Collective over the exchange's ranks, after complete(): closes its Exchange.
  void close();
  /// Collective over the route's ranks, after close() of every link over the route:
  /// frees what the route's exchanges shared (idempotent: links share routes).
  void close_route();

 private:
  std::size_t gradients_taken() const;
  void time_imbalance(const Comm& side, const std::string& component);
  void hand_over(std::size_t index, const void* value, bool into_engine);
  char* staging(std::size_t index);
  void complete_send(double put_time);
  void send(double target);
  // Collective over the source ranks (a put with gradients sends them only if every
  // source rank gave them): whether the period's gradients go with the values.
  bool gradients_given(double put_time);
  // Waits, under the watchdog, until the engine's begin() would not wait for other ranks.
  void wait_to_begin(const char* call, double time);
  void receive(double time, std::size_t index, void* data);
  void point_arrivals(std::size_t index, void* data);
  void finish_arrival();
  // BLASOLD on the values to send (before CHECKIN, output and the product), and
  // BLASNEW on the values received (after the product and the fill).
  void scale_sent();
  void scale_received();
  int output(const Comm& comm, const char* side, double time, const std::vector<const void*>& data,
             const std::vector<std::string>& names, const std::string& grid, std::int64_t grid_size,
             const Layout& layout);
  int output_source(double put_time);
  std::vector<const void*> send_values();
  void check_values(const Comm& comm, const char* what, double time,
                    const std::vector<const void*>& data, const std::vector<std::string>& names,
                    const Layout& layout);
  void read_restart();
  void read_oasis_restart();
  // The intermediate restart file of a put at `time` with write_restart: `kind` "TC"
  // (coupling values) or "TA" (accumulations).
  std::string intermediate_restart_path(const char* kind, double time) const;
  void write_coupling_restart(std::size_t index, double time, const void* value);
  void write_transform_restart(std::size_t index, double time);
  void write_accumulation(const Comm& comm, const std::string& path, std::size_t index);
  bool output_only() const noexcept { return spec_.config->kind == config::EntryKind::Output; }
  // Field f's record in the restart file: its value, or its accumulation (float64).
  FieldRecord restart_record(std::size_t f, bool accumulated, double time) const;
  std::size_t value_count(const Layout* layout, std::size_t index) const;

  LinkSpec spec_;
  CouplingClock clock_;
  std::string output_directory_;
  config::FileFormat file_format_ = config::FileFormat::Ferry;
  bool zero_missing_restarts_ = false;
  std::vector<char> outputs_started_;  // OASIS format: per side (source, target), a file written
  std::unique_ptr<RootGather> output_gathers_[2];  // OASIS format: per side, built at its first record
  std::unique_ptr<FieldOutput> outputs_[2];        // ferry format: per side, made at its first record
  Watchdog watchdog_;
  bool imbalance_timer_ = false;  // output.imbalance: a timed barrier before each exchange
  detail::Timers& timers_;
  std::shared_ptr<const PartitionRoute> route_;
  std::unique_ptr<Exchange> exchange_;
  std::unique_ptr<EntryRegrid> regrid_;           // on the ranks that run the product
  bool regrid_before_ = false;               // map_on src: product before the move
  bool regrid_after_ = false;                // map_on dst: product after the move
  // Where the route moves a block of the product instead of a side's partition, the
  // members holding points of that partition (the route's holders hold block points).
  Comm own_source_holders_, own_target_holders_;
  std::vector<std::int64_t> masked_targets_;  // regridded: target points kept at fill
  bool engine_holds_ = false;  // fields wait in the engine (Capabilities::holds_fields)

  // Source side.
  bool sends_caller_array_ = false;          // one instant field, no lag: begin reads the put's array
  std::vector<std::vector<char>> staging_;   // the period's values when the link keeps them
                                             // (engine_holds_: only for the restart file)
  std::vector<char> scratch_;                // a transformed value on its way into the engine
  std::vector<TimeTransform> transforms_;    // non-instant transforms only
  std::vector<const void*> send_from_;
  // Gradients given with the period's values: [gradient][field], and per field whether
  // its put gave them.
  std::vector<std::vector<std::vector<double>>> gradients_;
  std::vector<char> gradients_put_;
  std::vector<char> ready_;                  // field put for the coupling time next_put_
  std::vector<double> last_put_;
  double next_put_ = 0;
  bool pending_ = false;                     // staging_ holds a value for a target past the run

  // Destination side.
  std::vector<std::vector<char>> received_;  // all fields, when several or on a source rank
                                             // and the engine cannot hold them
  std::vector<void*> receive_into_;
  std::vector<double> next_get_;
  std::vector<double> last_get_;
  double received_time_ = 0;
  bool has_received_ = false;

  bool in_flight_ = false;  // begin() called, end() not yet
  double in_flight_target_ = 0;
};

}  // namespace ferry::coupling
