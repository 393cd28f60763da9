// ferry::Coupler: components, grids, partitions and fields coupled by put/get.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/datatype.hpp"
#include "ferry/layout.hpp"
#include "ferry/time_series_buffer.hpp"

namespace ferry {

namespace config {
struct Config;
}  // namespace config

/// Direction of a field as seen by the component that declares it.
enum class FieldDirection : int { Out = 0, In = 1 };

/// What a put may give beside the field's values: OASIS's oasis_put arguments.
struct PutExtras {
  /// OASIS file format only (else Errc::Unsupported): the put also writes its values
  /// to an intermediate restart file of each exchange of the field, named after the
  /// exchange's restart file: at a coupling time the value sent (after the time
  /// transform) into TC<time, 9 digits>_<file>, which a later run can start from, else
  /// the accumulation in progress into TA<time>_<file>. Collective then over the
  /// field's ranks that hold points.
  bool write_restart = false;
  /// The field's gradients at this rank's points (float64, laid out as the values), as
  /// OASIS's fld2..fld4: for exchanges remapped bicubic, d/di, d/dj and d2/didj along
  /// the source grid's index directions; second-order conservative, d/dlat and
  /// d/dlon / cos(lat) per radian. Such an exchange then remaps value weights times the
  /// field plus gradient weights times these (bicubic_gradient_weights,
  /// conservative_gradient_weights) instead of computing the gradients from the field.
  /// An exchange whose weight file has n > 1 weights per link (SCRIP's num_wgts) takes
  /// n - 1 gradients, multiplied by the file's columns 2..n (its first column alone
  /// applies to a put without them).
  /// Other exchanges of the field do not use them; Errc::Arg if none takes them, or for
  /// another count, map_on dst, a lag or a time transform. At a coupling time every
  /// source rank gives them or none does.
  std::vector<const void*> gradients;
};

/// What a put or get did; bit flags (C: FERRY_STATUS_*).
enum CouplingStatus : int {
  kStatusNothing = 0,      ///< not a coupling time: nothing moved, nothing accumulated
  kStatusTransformed = 1,  ///< put: the values fed the time transform only
  kStatusSent = 2,         ///< put: the period's value was sent (or stored for the restart)
  kStatusReceived = 4,     ///< get: values received
  kStatusFromRestart = 8,  ///< get: a lagged value put before the run started (the restart
                           ///< file, or the source's put at start - lag)
  kStatusOutput = 16,      ///< the values were also written to the output file
  kStatusToRestart = 32,   ///< put (with Sent): the value's target is past the run's end,
                           ///< so it goes to the restart file at finalize
  kStatusWaitGroup = 64,   ///< put (with Sent): the entry's other fields are not put yet;
                           ///< the last one's put sends them all
};

/// Handles returned by the definition calls; valid for this Coupler only.
struct GridId { int value = -1; };
struct PartitionId { int value = -1; };
struct FieldId { int value = -1; };

/// A coupled run seen from one rank. Lifecycle (see docs/user/coupler.md):
///
///   Coupler(comm, components, config)   collective over comm (all ranks of the run)
///   def_grid / def_partition / def_field   per component, on the ranks that hold data
///   enddef()                            collective: matches the configuration, builds every exchange
///   put / get ...                       as the model steps
///   load / read ...                     time-series buffers (the `buffers:` entries)
///   finalize()                          collective: writes restarts and timers
///
/// MPI initialisation and finalisation stay with the caller.
///
/// Failures (see docs/user/failures.md): every wait for a partner (a get, a put that
/// finds the previous value still undelivered, finalize) is bounded by
/// `watchdog.timeout`, and the collective calls (the constructor, enddef, finalize)
/// wait at most `watchdog.collective_timeout` for every rank to make them. A call
/// whose arguments break the rules (a wrong id, time going backwards, a skipped
/// coupling time, a call in the wrong phase) raises and changes nothing. Any other
/// error leaves the coupler failed: every later call raises Errc::State, and unless
/// every rank raises the same error, this rank tells every other rank at once (a
/// short notice), so that their current or next call raises Errc::State naming this
/// rank, its component, the call and the error. Destroying a coupler that was not
/// finalized (an exception, an early return) tells them the same way. No destructor
/// waits for another rank.
class Coupler {
 public:
  /// Collective over `comm`, which holds every rank of the coupled application (one or
  /// several executables). Each rank names the component(s) it runs; a rank may run
  /// several components one after the other. Every rank passes the same
  /// configuration file; rank 0 reads it and every rank gets the same content.
  /// Raises Errc::Arg (with file:line:col) for an invalid configuration, and for a
  /// component name the configuration does not know (when it lists components).
  Coupler(MPI_Comm comm, const std::vector<std::string>& components,
          const std::string& config_path);
  /// The same with the configuration already read and parsed, identical on every rank:
  /// for a face that reads a format of its own and keeps parts of it the coupler does
  /// not use (the OASIS drop-in and its namcouple), so that the file is read once.
  Coupler(MPI_Comm comm, const std::vector<std::string>& components, config::Config config);
  /// Not collective, never waits. If the coupler was not finalized and has not failed,
  /// tells every other rank that this one left (see abandon()); what MPI may still use
  /// (buffers of exchanges in flight) is kept until the process ends.
  ~Coupler();
  Coupler(const Coupler&) = delete;
  Coupler& operator=(const Coupler&) = delete;

  /// The ranks of `component` (owned by the coupler until finalize). Not collective.
  MPI_Comm local_comm(const std::string& component) const;

  /// The coupling periods (seconds) of the configuration's entries that use field
  /// `field` of `component` on the side of `direction` (source for Out, target for
  /// In), in the configuration's order: empty if none does, so a put or get of it
  /// would do nothing. An entry that names no component (a namcouple's) matches any.
  /// Not collective; from construction on.
  std::vector<double> field_periods(const std::string& component, const std::string& field,
                                    FieldDirection direction) const;
  /// The configuration's debug level (a namcouple's $NLOGPRT; 0 for YAML). Not collective.
  int debug_level() const;

  /// Declares a grid of `component` with nx x ny points (ny = 1 for unstructured grids).
  /// Not collective; every rank that defines partitions of the grid declares it the same.
  GridId def_grid(const std::string& component, const std::string& name, std::int64_t nx,
                  std::int64_t ny = 1);
  /// Optional grid metadata for this rank's points of a partition (regridding and
  /// conservation need them): centres (degrees), corners (ncorner per point, degrees),
  /// cell areas, mask (1 = valid point, 0 = masked).
  void set_coordinates(PartitionId partition, const double* lon, const double* lat);
  void set_corners(PartitionId partition, int ncorner, const double* lon, const double* lat);
  void set_areas(PartitionId partition, const double* area);
  void set_mask(PartitionId partition, const std::int32_t* mask);

  /// Declares which points of `grid` this rank holds. Called on the ranks that hold
  /// the partition (all of the component's ranks or a subset; several partitions of one
  /// grid may live on overlapping subsets). `name` tells partitions of one grid apart.
  /// The coupler keeps `layout`: pass it with std::move when the caller has no further
  /// use for it (its ids are 8 bytes a point).
  PartitionId def_partition(GridId grid, const std::string& name, Layout layout);
  /// Declares a field on a partition: `bundle` values per point (levels or bundle members).
  FieldId def_field(PartitionId partition, const std::string& name, FieldDirection direction,
                    Datatype type, int bundle = 1);

  /// This rank's number of points of a partition: the length of the arrays the set_*
  /// calls read (times ncorner for corners). Not collective.
  std::int64_t partition_points(PartitionId partition) const;
  /// This rank's number of values of a field (local points x bundle), and its type:
  /// what a put or get reads or writes. For bindings that check buffer sizes.
  std::int64_t field_values(FieldId field) const;
  Datatype field_type(FieldId field) const;

  /// Collective over the whole run: checks every declaration against the configuration
  /// (fields declared on one side only, type or bundle mismatches, undeclared fields in
  /// the configuration), reads the restart files (a field missing, of another size or
  /// type, or for another time fails, naming the file, the field and what was
  /// expected), creates the output directory if needed, and builds every exchange,
  /// failing identically on every rank.
  /// Regridded exchanges read their weight files or compute their weights from the
  /// declared coordinates and masks here; Errc::ArgSize when a file's grid sizes are
  /// not the declared grids', Errc::Arg when metadata a method needs is missing.
  void enddef();

  /// Puts this rank's values of an Out field at model time `time` (seconds since the
  /// run start). Returns CouplingStatus flags. See docs/user/coupler.md for the rules.
  int put(FieldId field, double time, const void* data);
  /// As put, with what OASIS's oasis_put gives beside the values (PutExtras).
  int put(FieldId field, double time, const void* data, const PutExtras& extras);
  /// What put(field, time, ...) would return now, without putting anything. Not collective.
  int put_inquire(FieldId field, double time) const;
  /// Gets this rank's values of an In field at model time `time`; blocks until they
  /// are there (or the watchdog fires: Errc::State naming the field, time and partner).
  int get(FieldId field, double time, void* data);

  /// Loads this rank's values of the source field of `buffer` (a `buffers:` entry of
  /// the configuration) as time step `step` into the buffer's ring on this rank.
  /// Not collective: called on every rank that declares the source field, with the
  /// same strictly increasing steps. Lossless buffers wait while the target has not
  /// read the step the slot holds. Raises Errc::Arg for an unknown buffer or a
  /// non-increasing step, Errc::State on a rank that does not load the buffer.
  /// See docs/user/coupler.md, "Time-series buffers".
  void load(const std::string& buffer, const void* data, std::int64_t step);
  /// Reads up to `max_steps` new steps of `buffer` into `out`: this rank's values of
  /// the target field, step after step (room for max_steps x field_values()).
  /// Collective over the ranks that declare the target field, with the same
  /// `max_steps` (>= 1); waits until a new step is there or the source has finished.
  /// The source ends the stream in finalize(), so read the steps you need before it
  /// (steps loaded but not read by then are dropped). Raises Errc::Arg for an unknown
  /// buffer, Errc::State on a rank that does not read it. See TimeSeriesReader::read.
  ReadResult read(const std::string& buffer, void* out, std::int64_t max_steps);
  /// The steps of this rank's last read of `buffer`, in order. Not collective.
  const std::vector<std::int64_t>& read_steps(const std::string& buffer);
  /// This rank's number of values of one step of `buffer` (its points of the source
  /// field where it loads the buffer, of the target field where it reads it, 0
  /// elsewhere), and the buffer's type: what load reads and read writes per step.
  /// For bindings that check array sizes. Not collective; between enddef and
  /// finalize. Raises Errc::Arg for an unknown buffer.
  std::int64_t buffer_values(const std::string& buffer) const;
  Datatype buffer_type(const std::string& buffer) const;

  /// Collective over the whole run: completes pending puts, writes restarts for lagged
  /// fields and accumulations in progress (exchanges that name the same restart file
  /// share it), closes the exchanges and buffers (steps not read by then are dropped),
  /// writes timers. No call may follow. A failure to write a restart file raises on
  /// every rank, naming the file; the previous file is left as it was.
  void finalize();

  /// Ends the coupler's life, idempotent: collective finalize() while it runs (between
  /// enddef and finalize); before enddef, not collective: tells the other ranks that
  /// this one leaves, as abandon() does; after finalize or a failure, nothing. For
  /// scoped lifetimes (Python's `with`).
  void close();

  /// Not collective, never waits: this rank gives up on the run (its own code failed).
  /// Tells every other rank at once, so that their current or next coupler call raises
  /// Errc::State naming this rank, its component(s), its last coupler call and `reason`;
  /// the coupler is failed afterwards. Does nothing after finalize or a failure (the
  /// other ranks were told then, or raise the same error).
  void abandon(const std::string& reason);

 private:
  struct State;
  std::unique_ptr<State> state_;
  // The constructors' steps before and after the configuration is known.
  void arrive_with(MPI_Comm comm, const std::vector<std::string>& components);
  void meet_components(const std::string& config_name);
};

}  // namespace ferry
