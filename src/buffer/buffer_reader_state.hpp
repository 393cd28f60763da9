// The worker side of a TimeSeriesBuffer: one rank of a worker group reading its box.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "buffer/buffer_connection.hpp"
#include "buffer/piece_types.hpp"
#include "ferry/comm.hpp"
#include "ferry/time_series_buffer.hpp"

namespace ferry::detail {

/// What TimeSeriesReader holds. The group reads a range of loads [first, last)
/// together: each rank waits until its requester ranks have published a load the
/// group has not read, the group agrees on the range (MPI_Allreduce), each rank
/// gets its pieces of every load in the range (one MPI_Get per piece and run of
/// consecutive slots), then re-reads the slots' stamps. A stamp that no longer
/// holds the load number means the slot was rewritten during the read: those
/// loads, always the oldest of the range, are dropped by the whole group (lossy) or
/// reported as a bug (lossless, where the requester never rewrites an unread slot).
/// Only then does the group's cursor advance on its requester ranks.
class BufferReaderState {
 public:
  /// Collective over `worker_comm` (see TimeSeriesBuffer::attach).
  BufferReaderState(std::shared_ptr<BufferConnection> connection, MPI_Comm worker_comm,
                    const Box& box);
  BufferReaderState(const BufferReaderState&) = delete;
  BufferReaderState& operator=(const BufferReaderState&) = delete;
  ~BufferReaderState();

  ReadResult read(void* out, std::int64_t max_steps);
  void done();
  bool is_done() const noexcept { return done_; }

  const std::vector<std::int64_t>& steps() const noexcept { return steps_; }
  std::int64_t values_per_step() const noexcept { return values_; }
  const ReaderStatistics& statistics() const noexcept { return statistics_; }

 private:
  // The part of this rank's box one requester rank holds.
  struct Piece {
    std::size_t watched = 0;  // index into watched_
    int target = 0;           // rank in the parent
    std::int64_t slot_bytes = 0;
    DerivedType in_slot;  // the part inside the requester's box = one slot
    DerivedType in_out;   // the part inside this rank's box = one step of the output
  };

  static constexpr std::int64_t kEverything = std::numeric_limits<std::int64_t>::max();

  // What the requester ranks this rank watches have published.
  struct Published {
    std::int64_t loads = 0;   // the fewest loads published by any of them
    bool all_closed = false;  // every one of them has closed
  };

  void check_group();
  void find_pieces();
  void release_untouched();
  Published poll_progress();
  std::int64_t wait_for_loads();
  std::int64_t read_range(char* out, std::int64_t first, std::int64_t count);
  void advance_cursor(std::int64_t value);

  std::shared_ptr<BufferConnection> connection_;
  Comm group_;
  Box box_;
  std::int64_t values_ = 0;
  std::int64_t step_bytes_ = 0;
  std::vector<Piece> pieces_;
  // Requester ranks whose counters and stamps this rank follows: those it reads
  // from, or the first requester rank if its box is empty (for the step numbers).
  std::vector<int> watched_;         // ranks in the parent
  std::vector<std::size_t> watched_index_;  // their index in connection_->requesters()
  std::vector<std::int64_t> progress_;      // per watched rank
  std::vector<std::int64_t> slot_steps_;    // per watched rank, capacity each
  std::vector<std::int64_t> stamps_;        // per watched rank, capacity each
  std::vector<std::int64_t> verdict_;       // torn count, max steps, -min steps
  std::vector<std::int64_t> steps_;
  std::int64_t cursor_ = 0;       // loads the group has read or skipped
  std::int64_t cursor_word_ = 0;  // value of the cursor update in flight
  bool done_ = false;
  ReaderStatistics statistics_;
};

}  // namespace ferry::detail
