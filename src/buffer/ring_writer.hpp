// The requester side of a TimeSeriesBuffer: copying steps into the ring and
// publishing them.
#pragma once

#include <cstdint>
#include <vector>

#include "buffer/buffer_connection.hpp"

namespace ferry::detail {

/// Fills one requester rank's ring. A load is: (lossless) wait until every worker
/// group has read the load this slot holds; mark the slot as being rewritten
/// (stamp = kNoLoad); copy the step; record its step number and stamp the slot with
/// the load number; publish the new count in the progress word. Each group of
/// control writes is an MPI atomic completed by MPI_Win_flush before the next, and
/// MPI_Win_sync (plus the fences of streaming_copy, for large slots) orders them
/// against the copy, so a reader that sees a stamp unchanged after reading a slot
/// read it whole.
class RingWriter {
 public:
  /// Not collective. `connection` must be a requester rank's and outlive the writer.
  explicit RingWriter(const BufferConnection& connection);
  RingWriter(const RingWriter&) = delete;
  RingWriter& operator=(const RingWriter&) = delete;
  /// Publishes "closed" if close() was not called, so no reader waits forever.
  ~RingWriter();

  void load(const void* data, std::int64_t step);
  /// Collective over the requester ranks.
  void close();
  bool closed() const noexcept { return closed_; }

 private:
  void wait_for_readers(std::int64_t load);
  void publish();

  const BufferConnection& connection_;
  int self_ = 0;  // this rank in the parent
  std::int64_t slot_bytes_ = 0;
  std::int64_t loads_ = 0;
  std::int64_t last_step_ = 0;
  bool closed_ = false;
  // Loads every worker group had read when this rank last looked (cursors only grow).
  std::int64_t read_by_all_ = 0;
  std::vector<std::int64_t> cursors_;
  // Values of atomic updates in flight: MPI reads them until the flush.
  std::int64_t stamp_word_ = 0;
  std::int64_t step_word_ = 0;
  std::int64_t progress_word_ = 0;
};

}  // namespace ferry::detail
