#include "buffer/buffer_reader_state.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "buffer/backoff.hpp"
#include "buffer/box_geometry.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::detail {

namespace {

// Calls f(slot, offset, count) for the runs of consecutive slots that hold loads
// first .. first + count - 1: one run, or two where the ring wraps around.
template <class F>
void for_each_run(std::int64_t first, std::int64_t count, std::int64_t capacity, F&& f) {
  const std::int64_t slot = first % capacity;
  const std::int64_t head = std::min(count, capacity - slot);
  f(slot, std::int64_t{0}, static_cast<int>(head));
  if (count > head) f(std::int64_t{0}, head, static_cast<int>(count - head));
}

}  // namespace

BufferReaderState::BufferReaderState(std::shared_ptr<BufferConnection> connection,
                                     MPI_Comm worker_comm, const Box& box)
    : connection_(std::move(connection)), group_(Comm::dup(worker_comm)), box_(box) {
  agree_on(group_, [&] {
    FERRY_CHECK(!connection_->is_requester(), Errc::State, "TimeSeriesBuffer::attach: rank ",
                group_.rank(), " of the worker communicator is a requester rank. Pass the "
                "communicator of the ranks of one worker group");
    check_box(box_, connection_->shape(), "TimeSeriesBuffer::attach", group_.rank());
    find_pieces();
  });
  check_group();
  connection_->mark_attached();

  const std::size_t capacity = static_cast<std::size_t>(connection_->layout().capacity);
  progress_.assign(watched_.size(), 0);
  slot_steps_.assign(watched_.size() * capacity, 0);
  stamps_.assign(watched_.size() * capacity, 0);
  verdict_.assign(1 + 2 * capacity, 0);
  steps_.reserve(capacity);

  if (connection_->mode() == BufferMode::Lossless) {
    release_untouched();
  } else {
    // Lossy readers start at the oldest load still in the rings.
    std::int64_t loads = poll_progress().loads;
    FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, &loads, 1, MPI_INT64_T, MPI_MIN, group_.get()));
    cursor_ = std::max<std::int64_t>(0, loads - connection_->layout().capacity);
  }
}

BufferReaderState::~BufferReaderState() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (done_ || finalized || connection_->freed()) return;
  try {
    advance_cursor(kEverything);
  } catch (const Error&) {
    // A destructor cannot report; a lossless requester then waits for a departed group.
  }
}

void BufferReaderState::find_pieces() {
  const std::int64_t element = static_cast<std::int64_t>(datatype_size(connection_->type()));
  values_ = box_volume(box_);
  step_bytes_ = values_ * element;
  const auto& requesters = connection_->requesters();
  std::int64_t covered = 0;
  for (std::size_t i = 0; i < requesters.size(); ++i) {
    const Box common = intersect(box_, requesters[i].box);
    const std::int64_t points = box_volume(common);
    if (points == 0) continue;
    covered += points;
    Piece piece;
    piece.watched = watched_.size();
    piece.target = requesters[i].rank;
    piece.slot_bytes = requesters[i].slot_bytes;
    piece.in_slot = box_part_type(requesters[i].box, common, connection_->type());
    piece.in_out = box_part_type(box_, common, connection_->type());
    pieces_.push_back(std::move(piece));
    watched_.push_back(requesters[i].rank);
    watched_index_.push_back(i);
  }
  FERRY_CHECK(covered == values_, Errc::Arg, "TimeSeriesBuffer::attach: the box ",
              box_text(box_), " of worker rank ", group_.rank(), " has ", values_,
              " points, but the requester boxes hold ", covered, " of them",
              covered > values_ ? " (requester boxes overlap)" : "",
              ". Read only points that exactly one requester rank exposes");
  if (watched_.empty()) {
    watched_.push_back(requesters.front().rank);
    watched_index_.push_back(0);
  }
}

void BufferReaderState::check_group() {
  const int group = connection_->group();
  std::int64_t span[3] = {group, -group, connection_->attached() ? -1 : 0};
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, span, 3, MPI_INT64_T, MPI_MIN, group_.get()));
  FERRY_CHECK(span[0] == -span[1], Errc::State,
              "TimeSeriesBuffer::attach: the worker communicator mixes ranks of worker groups ",
              span[0], " to ", -span[1], ". Attach each group with its own communicator");
  FERRY_CHECK(group_.size() == connection_->group_size(group), Errc::State,
              "TimeSeriesBuffer::attach: the worker communicator has ", group_.size(),
              " ranks, but worker group ", group, " connected with ",
              connection_->group_size(group), ". Attach with all ranks of the group at once");
  FERRY_CHECK(span[2] == 0, Errc::State, "TimeSeriesBuffer::attach: worker group ", group,
              " is already attached. Attach each group once and keep its reader");
}

void BufferReaderState::release_untouched() {
  // A lossless requester waits for every group, so each rank the group never reads
  // from is told, once, that the group has read everything there.
  const auto& requesters = connection_->requesters();
  std::vector<unsigned char> touched(requesters.size(), 0);
  for (std::size_t index : watched_index_) touched[index] = 1;
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, touched.data(),
                               mpi_count<int>(touched.size(), "requester ranks"),
                               MPI_UNSIGNED_CHAR, MPI_MAX, group_.get()));
  const BufferWindow& window = connection_->window();
  const MPI_Aint cursor = connection_->layout().cursor(connection_->group());
  std::vector<int> released;
  for (std::size_t i = static_cast<std::size_t>(group_.rank()); i < requesters.size();
       i += static_cast<std::size_t>(group_.size()))
    if (!touched[i]) {
      window.update(requesters[i].rank, cursor, 1, &kEverything, MPI_MAX);
      released.push_back(requesters[i].rank);
    }
  for (int rank : released) window.flush(rank);
}

BufferReaderState::Published BufferReaderState::poll_progress() {
  const BufferWindow& window = connection_->window();
  for (std::size_t w = 0; w < watched_.size(); ++w)
    window.fetch(watched_[w], RingLayout::progress(), 1, &progress_[w]);
  for (int rank : watched_) window.flush_local(rank);
  statistics_.control_ops += static_cast<std::int64_t>(watched_.size());
  Published published{kEverything, true};
  for (std::int64_t word : progress_) {
    published.loads = std::min(published.loads, RingLayout::loads_of(word));
    published.all_closed = published.all_closed && RingLayout::closed_in(word);
  }
  return published;
}

std::int64_t BufferReaderState::wait_for_loads() {
  Backoff backoff;
  while (true) {
    const Published published = poll_progress();
    if (published.loads > cursor_ || published.all_closed) return published.loads;
    backoff.pause();
  }
}

ReadResult BufferReaderState::read(void* out, std::int64_t max_steps) {
  const double start = MPI_Wtime();
  agree_on(group_, [&] {
    FERRY_CHECK(!done_, Errc::State, "TimeSeriesReader::read: called after done() on worker rank ",
                group_.rank(), ". Read before detaching");
    FERRY_CHECK(!connection_->freed(), Errc::State, "TimeSeriesReader::read: the buffer was "
                "freed on worker rank ", group_.rank(), ". Read before TimeSeriesBuffer::free()");
    FERRY_CHECK(max_steps >= 1, Errc::Arg, "TimeSeriesReader::read: max_steps is ", max_steps,
                " on worker rank ", group_.rank(), ". Read at least one step");
    FERRY_CHECK(out != nullptr || values_ == 0, Errc::Arg,
                "TimeSeriesReader::read: out is NULL on worker rank ", group_.rank(),
                ", whose box holds ", values_,
                " values per step. Pass room for max_steps x values_per_step() values");
  });
  const RingLayout& layout = connection_->layout();
  const bool lossless = connection_->mode() == BufferMode::Lossless;
  std::int64_t lost = 0;
  double waited = 0;
  auto account = [&](std::int64_t steps) {
    statistics_.reads += steps > 0 ? 1 : 0;
    statistics_.steps += steps;
    statistics_.lost_steps += lost;
    statistics_.wait_seconds += waited;
    statistics_.transfer_seconds += MPI_Wtime() - start - waited;
  };
  while (true) {
    const double wait_start = MPI_Wtime();
    // The minimum over the group of the loads published, and of max_steps (both signs).
    std::int64_t agreed[3] = {wait_for_loads(), max_steps, -max_steps};
    waited += MPI_Wtime() - wait_start;
    FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, agreed, 3, MPI_INT64_T, MPI_MIN, group_.get()));
    FERRY_CHECK(agreed[1] == -agreed[2], Errc::Arg,
                "TimeSeriesReader::read: max_steps ranges from ", agreed[1], " to ", -agreed[2],
                " over the ranks of the group. Pass the same max_steps on every rank");
    const std::int64_t available = agreed[0];
    if (available <= cursor_) {  // closed, and everything read
      steps_.clear();
      account(0);
      return {0, 0, lost};
    }
    const std::int64_t first =
        lossless ? cursor_
                 : std::max(cursor_, available - std::min(max_steps, layout.capacity));
    const std::int64_t last = lossless ? std::min(available, cursor_ + max_steps) : available;
    const std::int64_t count = last - first;
    const std::int64_t torn = read_range(static_cast<char*>(out), first, count);
    lost += first - cursor_ + torn;
    statistics_.torn_steps += torn;
    cursor_ = last;
    if (torn == count) continue;  // every load was rewritten meanwhile: read newer ones

    if (torn > 0 && step_bytes_ > 0)
      std::memmove(out, static_cast<char*>(out) + torn * step_bytes_,
                   static_cast<std::size_t>((count - torn) * step_bytes_));
    steps_.assign(verdict_.begin() + 1 + torn, verdict_.begin() + 1 + count);
    if (lossless) advance_cursor(cursor_);
    account(count - torn);
    return {steps_.front(), count - torn, lost};
  }
}

std::int64_t BufferReaderState::read_range(char* out, std::int64_t first, std::int64_t count) {
  const RingLayout& layout = connection_->layout();
  const BufferWindow& window = connection_->window();
  const std::int64_t capacity = layout.capacity;
  for (const Piece& piece : pieces_)
    for_each_run(first, count, capacity, [&](std::int64_t slot, std::int64_t offset, int n) {
      FERRY_CALL_MPI(MPI_Get(out + offset * step_bytes_, n, piece.in_out.get(), piece.target,
                             layout.data(slot, piece.slot_bytes), n, piece.in_slot.get(),
                             window.get()));
      ++statistics_.data_gets;
    });
  for (std::size_t w = 0; w < watched_.size(); ++w)
    for_each_run(first, count, capacity, [&](std::int64_t slot, std::int64_t offset, int n) {
      window.fetch(watched_[w], layout.step(slot), n,
                   &slot_steps_[w * static_cast<std::size_t>(capacity) +
                                static_cast<std::size_t>(offset)]);
      ++statistics_.control_ops;
    });
  for (int rank : watched_) window.flush_local(rank);
  // The stamps are read only once the data has arrived: unchanged stamps prove that
  // no byte of the data came from a later load.
  for (std::size_t w = 0; w < watched_.size(); ++w)
    for_each_run(first, count, capacity, [&](std::int64_t slot, std::int64_t offset, int n) {
      window.fetch(watched_[w], layout.stamp(slot), n,
                   &stamps_[w * static_cast<std::size_t>(capacity) +
                            static_cast<std::size_t>(offset)]);
      ++statistics_.control_ops;
    });
  for (int rank : watched_) window.flush_local(rank);

  // This rank's verdict: how many leading loads were torn, and the step numbers
  // seen (max and negated min over the watched ranks); the group takes the maximum.
  std::int64_t torn = 0;
  for (std::int64_t i = 0; i < count; ++i) {
    std::int64_t high = std::numeric_limits<std::int64_t>::min();
    std::int64_t low = std::numeric_limits<std::int64_t>::max();
    for (std::size_t w = 0; w < watched_.size(); ++w) {
      const std::size_t k = w * static_cast<std::size_t>(capacity) + static_cast<std::size_t>(i);
      if (stamps_[k] != first + i) torn = i + 1;
      high = std::max(high, slot_steps_[k]);
      low = std::min(low, slot_steps_[k]);
    }
    verdict_[static_cast<std::size_t>(1 + i)] = high;
    verdict_[static_cast<std::size_t>(1 + count + i)] = -low;
  }
  verdict_[0] = torn;
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, verdict_.data(),
                               static_cast<int>(1 + 2 * count), MPI_INT64_T, MPI_MAX,
                               group_.get()));
  torn = verdict_[0];
  FERRY_CHECK(torn == 0 || connection_->mode() == BufferMode::Lossy, Errc::Internal,
              "TimeSeriesReader::read: load ", first + torn - 1,
              " was rewritten while worker group ", connection_->group(),
              " read it in lossless mode. This is a bug in ferry, please report it");
  for (std::int64_t i = torn; i < count; ++i) {
    const std::int64_t high = verdict_[static_cast<std::size_t>(1 + i)];
    const std::int64_t low = -verdict_[static_cast<std::size_t>(1 + count + i)];
    FERRY_CHECK(high == low, Errc::State, "TimeSeriesReader::read: the requester ranks hold "
                "different steps for load ", first + i, " (from ", low, " to ", high,
                "). Every requester rank must load the same steps in the same order");
  }
  return torn;
}

void BufferReaderState::advance_cursor(std::int64_t value) {
  if (connection_->mode() != BufferMode::Lossless) return;
  const BufferWindow& window = connection_->window();
  cursor_word_ = value;
  const MPI_Aint cursor = connection_->layout().cursor(connection_->group());
  for (int rank : watched_) window.update(rank, cursor, 1, &cursor_word_, MPI_MAX);
  for (int rank : watched_) window.flush(rank);
  statistics_.control_ops += static_cast<std::int64_t>(watched_.size());
}

void BufferReaderState::done() {
  FERRY_CHECK(!done_, Errc::State, "TimeSeriesReader::done: called twice on worker rank ",
              group_.rank(), ". Detach once");
  FERRY_CHECK(!connection_->freed(), Errc::State, "TimeSeriesReader::done: the buffer was freed "
              "on worker rank ", group_.rank(), ". Call done() before TimeSeriesBuffer::free()");
  advance_cursor(kEverything);
  done_ = true;
}

}  // namespace ferry::detail
