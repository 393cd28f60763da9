// ferry::TimeSeriesBuffer: a one-sided ring of time steps that a requester
// component fills and worker components read, each the sub-box it wants.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "ferry/datatype.hpp"

namespace ferry {

namespace detail {
class BufferConnection;
class BufferReaderState;
class RingWriter;
}  // namespace detail

/// A box of a global array of 1 to 3 dimensions: indices start[d] <= i < end[d]
/// in every dimension d. Arrays are in C order (the last dimension is contiguous).
/// A box with start[d] == end[d] in some dimension is empty.
struct Box {
  std::vector<std::int64_t> start;  ///< first index per dimension
  std::vector<std::int64_t> end;    ///< one past the last index per dimension
};

/// How much a requester rank keeps: a number of steps, or a byte budget per
/// requester rank (the ring then holds as many steps as the largest requester
/// box fits, the same on every rank).
class Capacity {
 public:
  static Capacity steps(std::int64_t n) { return Capacity(n, true); }
  static Capacity bytes(std::int64_t b) { return Capacity(b, false); }
  bool in_steps() const noexcept { return in_steps_; }
  std::int64_t value() const noexcept { return value_; }

 private:
  Capacity(std::int64_t value, bool in_steps) : value_(value), in_steps_(in_steps) {}
  std::int64_t value_;
  bool in_steps_;
};

/// What happens when the ring is full (C: FERRY_BUFFER_LOSSLESS / FERRY_BUFFER_LOSSY).
enum class BufferMode : int {
  /// load() waits until every worker group has read the step it would overwrite.
  Lossless = 0,
  /// load() never waits; a worker group that falls behind gets the newest steps
  /// and a count of the steps it lost.
  Lossy = 1,
};

/// What one TimeSeriesReader::read() returned. n_steps == 0 means the stream
/// ended: the requester closed the buffer and every step has been read.
struct ReadResult {
  std::int64_t first_step = 0;  ///< step of out[0] (steps() lists all of them)
  std::int64_t n_steps = 0;     ///< steps written to out
  std::int64_t lost_steps = 0;  ///< lossy: steps skipped since the previous read
};

/// What a reader did so far on this rank, for tuning and benchmarks.
struct ReaderStatistics {
  std::int64_t reads = 0;        ///< read() calls that returned steps
  std::int64_t steps = 0;        ///< steps returned
  std::int64_t lost_steps = 0;   ///< steps lost (lossy)
  std::int64_t torn_steps = 0;   ///< steps found overwritten while read (lossy; counted as lost)
  std::int64_t data_gets = 0;    ///< MPI_Get calls that moved step data
  std::int64_t control_ops = 0;  ///< MPI atomics on counters, stamps and step numbers
  double wait_seconds = 0;       ///< time in read() waiting for new steps
  double transfer_seconds = 0;   ///< time in read() moving and checking data
};

class TimeSeriesReader;

/// A time-series ring buffer over MPI RMA, shared by one requester component and
/// any number of worker groups that run on disjoint ranks of one parent communicator.
///
/// Every rank of `parent` takes part in one collective call: requester ranks call
/// expose(), every other rank calls connect() with the index of its worker group.
/// Each requester rank then load()s its box of every step into the next slot of its
/// own ring (a local copy; nothing is sent), and close()s at the end. Each worker
/// group attach()es once, collectively over its own communicator, naming the box
/// every one of its ranks wants; the reader it gets fetches all new steps with one
/// MPI_Get per requester rank touched per contiguous run of slots.
///
/// free() is collective over `parent` (it frees the window): call it on every rank
/// once the requester has closed and every group is done. Destruction never waits
/// for another rank: a buffer destroyed without free() leaves its window to
/// MPI_Finalize (see docs/user/failures.md). Move-only.
class TimeSeriesBuffer {
 public:
  /// Collective over `parent` (the requester half; worker ranks call connect()).
  /// `global_shape`: 1 to 3 extents, the same on every requester rank, as are `type`,
  /// `capacity` and `mode`. `my_box`: the part of the global array this rank holds,
  /// disjoint from the other requester ranks' boxes (it may be empty). The
  /// communicator is duplicated. Raises, identically on every rank of `parent`:
  /// Errc::Arg for a bad shape, box, capacity, mode or group index, or requesters
  /// that disagree; Errc::Unsupported if the MPI library gives the window the
  /// separate memory model; Errc::State if MPI is not initialised.
  static TimeSeriesBuffer expose(MPI_Comm parent, const std::vector<std::int64_t>& global_shape,
                                 const Box& my_box, Datatype type, Capacity capacity,
                                 BufferMode mode);
  /// Collective over `parent` (the worker half of expose()). `group`: 0, 1, ... —
  /// the same on every rank of one worker group, every index in use by some rank.
  /// Each group has its own read cursor; in lossless mode the requester waits for
  /// every group, including groups that have not attached yet.
  static TimeSeriesBuffer connect(MPI_Comm parent, int group);

  TimeSeriesBuffer(TimeSeriesBuffer&&) noexcept;
  TimeSeriesBuffer& operator=(TimeSeriesBuffer&&) noexcept;
  /// Not collective, never waits (see free()).
  ~TimeSeriesBuffer();

  /// Collective over `parent`, idempotent: frees the buffer's window once every rank is
  /// done with it (a barrier inside), closing the stream first on requester ranks that
  /// have not closed it. Readers of this buffer can no longer read or detach; call
  /// TimeSeriesReader::done() before. Other calls raise Errc::State afterwards.
  void free();

  /// Requester ranks, not collective: copies this rank's box of `step` (box
  /// volume x element size bytes, C order) into the next slot. Lossless mode
  /// first waits while a worker group has not yet read the step in that slot.
  /// Steps must strictly increase and every requester rank must load the same
  /// steps. Errc::Arg for a non-increasing step or a NULL `data` with a non-empty
  /// box; Errc::State on a worker rank or after close().
  void load(const void* data, std::int64_t step);
  /// Collective over the requester ranks: no more steps will come. Readers get
  /// the steps still in the rings, then the end of the stream. Errc::State if the
  /// requester ranks loaded different numbers of steps or different last steps
  /// (the buffer is closed anyway), or if called twice or on a worker rank.
  void close();

  /// Collective over `worker_comm`, which must hold exactly the ranks of one
  /// worker group. `my_box`: the part of the global array this rank reads (any
  /// box inside the global shape, possibly empty). Builds the MPI datatypes once.
  /// Lossless readers start at the first step ever loaded; lossy readers at the
  /// oldest step still in the rings. Raises, identically on every rank of the
  /// group: Errc::Arg for a box of the wrong rank, outside the shape, or not held
  /// exactly once by the requester boxes; Errc::State on a requester rank, for a
  /// communicator that is not one whole group, or for a group attached before.
  TimeSeriesReader attach(MPI_Comm worker_comm, const Box& my_box);

  bool is_requester() const noexcept;
  const std::vector<std::int64_t>& global_shape() const noexcept;
  Datatype type() const noexcept;
  BufferMode mode() const noexcept;
  /// Slots of every requester rank's ring.
  std::int64_t capacity_steps() const noexcept;
  /// Number of worker groups.
  int groups() const noexcept;

 private:
  explicit TimeSeriesBuffer(std::shared_ptr<detail::BufferConnection> connection);
  const detail::BufferConnection& connection(const char* function) const;

  std::shared_ptr<detail::BufferConnection> connection_;
  std::unique_ptr<detail::RingWriter> writer_;  // requester ranks only; freed before the window
};

/// One worker group's view of a TimeSeriesBuffer, made by TimeSeriesBuffer::attach.
/// Keeps the buffer's window alive. Move-only.
class TimeSeriesReader {
 public:
  TimeSeriesReader(TimeSeriesReader&&) noexcept;
  TimeSeriesReader& operator=(TimeSeriesReader&&) noexcept;
  /// Releases the group's cursor if done() was not called (not collective).
  ~TimeSeriesReader();

  /// Collective over the group, with the same `max_steps` (>= 1) on every rank.
  /// Waits until at least one new step is available on every requester rank the
  /// group reads from (or the stream ends), then copies up to `max_steps` new steps
  /// of this rank's box into `out`, an array of shape (steps, box) in C order with
  /// room for max_steps x values_per_step() values. Lossless: the oldest unread
  /// steps, none ever skipped. Lossy: the newest steps (at most the ring capacity),
  /// and lost_steps counts those skipped; steps found overwritten during the read
  /// count as lost, never returned. Errc::Arg for a bad argument; Errc::State after
  /// done() or when requester ranks loaded different steps.
  ReadResult read(void* out, std::int64_t max_steps);
  /// The steps of the last read, in order (steps may be any increasing integers).
  const std::vector<std::int64_t>& steps() const noexcept;
  /// Collective over the group: detaches; a lossless requester stops waiting for it.
  void done();
  /// Whether done() was called.
  bool is_done() const noexcept;

  /// Values of one step of this rank's box (its volume).
  std::int64_t values_per_step() const noexcept;
  const ReaderStatistics& statistics() const noexcept;

 private:
  friend class TimeSeriesBuffer;
  explicit TimeSeriesReader(std::unique_ptr<detail::BufferReaderState> state);
  std::unique_ptr<detail::BufferReaderState> state_;
};

}  // namespace ferry
