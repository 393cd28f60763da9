#include "buffer/ring_writer.hpp"

#include <algorithm>
#include <cstring>

#include "buffer/backoff.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"
#include "util/streaming_copy.hpp"

namespace ferry::detail {

namespace {

// Slots this large are written with streaming stores. A slot is rewritten only
// `capacity` loads later, so in a ring of large steps it has left the cache, and
// ordinary stores would first read every line from memory (read for ownership),
// doubling the memory traffic of a load. Smaller slots cost little either way, and a
// ring of them may stay in cache, where the readers find them.
constexpr std::int64_t kStreamingSlotBytes = std::int64_t{256} << 10;

}  // namespace

RingWriter::RingWriter(const BufferConnection& connection)
    : connection_(connection),
      self_(connection.parent().rank()),
      cursors_(static_cast<std::size_t>(connection.groups()), 0) {
  for (const RequesterRank& r : connection.requesters())
    if (r.rank == self_) slot_bytes_ = r.slot_bytes;
}

RingWriter::~RingWriter() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (closed_ || finalized || connection_.freed()) return;
  closed_ = true;
  try {
    publish();
  } catch (const Error&) {
    // Nothing more to do in a destructor; readers of a broken window fail on their own.
  }
}

void RingWriter::load(const void* data, std::int64_t step) {
  FERRY_CHECK(!closed_, Errc::State, "TimeSeriesBuffer::load: step ", step,
              " loaded after close() on requester rank ", self_,
              ". Load every step before closing the buffer");
  FERRY_CHECK(loads_ == 0 || step > last_step_, Errc::Arg, "TimeSeriesBuffer::load: step ", step,
              " on requester rank ", self_, " does not follow the previous step ", last_step_,
              ". Steps must strictly increase");
  FERRY_CHECK(data != nullptr || slot_bytes_ == 0, Errc::Arg,
              "TimeSeriesBuffer::load: data is NULL on requester rank ", self_,
              ", whose box holds ", slot_bytes_,
              " bytes per step. Pass the rank's box of the step");
  const RingLayout& layout = connection_.layout();
  const BufferWindow& window = connection_.window();
  const std::int64_t slot = loads_ % layout.capacity;
  if (connection_.mode() == BufferMode::Lossless) wait_for_readers(loads_);

  stamp_word_ = RingLayout::kNoLoad;
  window.update(self_, layout.stamp(slot), 1, &stamp_word_, MPI_REPLACE);
  window.flush(self_);
  window.sync();  // the stamp change before any byte of the copy
  if (slot_bytes_ > 0) {
    // MPI_Win_sync need not order streaming stores (its fence may not drain them),
    // so streaming_copy fences them itself: the copy stays after the kNoLoad stamp
    // and before the new one, as a plain copy does.
    char* const slot_data = window.base() + layout.data(slot, slot_bytes_);
    const auto bytes = static_cast<std::size_t>(slot_bytes_);
    if (slot_bytes_ >= kStreamingSlotBytes)
      streaming_copy(slot_data, data, bytes);
    else
      std::memcpy(slot_data, data, bytes);
  }
  window.sync();  // the whole copy before the new stamp
  step_word_ = step;
  stamp_word_ = loads_;
  window.update(self_, layout.step(slot), 1, &step_word_, MPI_REPLACE);
  window.update(self_, layout.stamp(slot), 1, &stamp_word_, MPI_REPLACE);
  window.flush(self_);
  ++loads_;
  last_step_ = step;
  publish();
}

void RingWriter::close() {
  const Comm& requesters = connection_.requester_comm();
  agree_on(requesters, [&] {
    FERRY_CHECK(!closed_, Errc::State, "TimeSeriesBuffer::close: called twice on requester rank ",
                self_, ". Close the buffer once");
  });
  // Minimum and (negated) maximum of the load count and the last step.
  std::int64_t span[4] = {loads_, -loads_, last_step_, -last_step_};
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, span, 4, MPI_INT64_T, MPI_MIN, requesters.get()));
  closed_ = true;
  publish();
  FERRY_CHECK(span[0] == -span[1], Errc::State, "TimeSeriesBuffer::close: the requester ranks "
              "loaded between ", span[0], " and ", -span[1],
              " steps. Every requester rank must load the same steps");
  FERRY_CHECK(span[0] == 0 || span[2] == -span[3], Errc::State,
              "TimeSeriesBuffer::close: the requester ranks' last steps range from ", span[2],
              " to ", -span[3], ". Every requester rank must load the same steps");
}

void RingWriter::wait_for_readers(std::int64_t load) {
  // The slot holds load - capacity, which every group must have read.
  const std::int64_t needed = load - connection_.layout().capacity + 1;
  if (cursors_.empty() || read_by_all_ >= needed) return;
  const BufferWindow& window = connection_.window();
  Backoff backoff;
  while (true) {
    window.fetch(self_, connection_.layout().cursor(0), static_cast<int>(cursors_.size()),
                 cursors_.data());
    window.flush_local(self_);
    read_by_all_ = *std::min_element(cursors_.begin(), cursors_.end());
    if (read_by_all_ >= needed) return;
    backoff.pause();
  }
}

void RingWriter::publish() {
  progress_word_ = RingLayout::progress_word(loads_, closed_);
  connection_.window().update(self_, RingLayout::progress(), 1, &progress_word_, MPI_REPLACE);
  connection_.window().flush(self_);
}

}  // namespace ferry::detail
