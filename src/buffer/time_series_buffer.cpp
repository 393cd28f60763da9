#include "ferry/time_series_buffer.hpp"

#include <utility>

#include "buffer/buffer_connection.hpp"
#include "buffer/buffer_reader_state.hpp"
#include "buffer/ring_writer.hpp"
#include "util/check.hpp"

namespace ferry {

TimeSeriesBuffer TimeSeriesBuffer::expose(MPI_Comm parent,
                                          const std::vector<std::int64_t>& global_shape,
                                          const Box& my_box, Datatype type, Capacity capacity,
                                          BufferMode mode) {
  detail::BufferRole role;
  role.requester = true;
  role.shape = global_shape;
  role.box = my_box;
  role.type = type;
  role.capacity = capacity;
  role.mode = mode;
  TimeSeriesBuffer buffer(std::make_shared<detail::BufferConnection>(parent, role));
  buffer.writer_ = std::make_unique<detail::RingWriter>(*buffer.connection_);
  return buffer;
}

TimeSeriesBuffer TimeSeriesBuffer::connect(MPI_Comm parent, int group) {
  detail::BufferRole role;
  role.group = group;
  return TimeSeriesBuffer(std::make_shared<detail::BufferConnection>(parent, role));
}

TimeSeriesBuffer::TimeSeriesBuffer(std::shared_ptr<detail::BufferConnection> connection)
    : connection_(std::move(connection)) {}

TimeSeriesBuffer::TimeSeriesBuffer(TimeSeriesBuffer&&) noexcept = default;
TimeSeriesBuffer& TimeSeriesBuffer::operator=(TimeSeriesBuffer&&) noexcept = default;
TimeSeriesBuffer::~TimeSeriesBuffer() = default;

const detail::BufferConnection& TimeSeriesBuffer::connection(const char* function) const {
  FERRY_CHECK(connection_ != nullptr, Errc::State, function,
              ": the buffer was moved from. Use the object it was moved to");
  FERRY_CHECK(!connection_->freed(), Errc::State, function,
              ": the buffer was freed (free()). Make a new one");
  return *connection_;
}

void TimeSeriesBuffer::free() {
  FERRY_CHECK(connection_ != nullptr, Errc::State,
              "TimeSeriesBuffer::free: the buffer was moved from. Use the object it was moved to");
  if (connection_->freed()) return;
  if (writer_) {
    if (!writer_->closed()) writer_->close();
    writer_.reset();
  }
  connection_->free();
}

void TimeSeriesBuffer::load(const void* data, std::int64_t step) {
  const auto& c = connection("TimeSeriesBuffer::load");
  FERRY_CHECK(writer_ != nullptr, Errc::State, "TimeSeriesBuffer::load: rank ", c.parent().rank(),
              " connected as a worker (group ", c.group(),
              "). Only the ranks that called expose() load steps");
  writer_->load(data, step);
}

void TimeSeriesBuffer::close() {
  const auto& c = connection("TimeSeriesBuffer::close");
  FERRY_CHECK(writer_ != nullptr, Errc::State, "TimeSeriesBuffer::close: rank ", c.parent().rank(),
              " connected as a worker (group ", c.group(),
              "). Only the ranks that called expose() close the buffer");
  writer_->close();
}

TimeSeriesReader TimeSeriesBuffer::attach(MPI_Comm worker_comm, const Box& my_box) {
  connection("TimeSeriesBuffer::attach");
  return TimeSeriesReader(
      std::make_unique<detail::BufferReaderState>(connection_, worker_comm, my_box));
}

bool TimeSeriesBuffer::is_requester() const noexcept { return writer_ != nullptr; }
const std::vector<std::int64_t>& TimeSeriesBuffer::global_shape() const noexcept {
  return connection_->shape();
}
Datatype TimeSeriesBuffer::type() const noexcept { return connection_->type(); }
BufferMode TimeSeriesBuffer::mode() const noexcept { return connection_->mode(); }
std::int64_t TimeSeriesBuffer::capacity_steps() const noexcept {
  return connection_->layout().capacity;
}
int TimeSeriesBuffer::groups() const noexcept { return connection_->groups(); }

TimeSeriesReader::TimeSeriesReader(std::unique_ptr<detail::BufferReaderState> state)
    : state_(std::move(state)) {}
TimeSeriesReader::TimeSeriesReader(TimeSeriesReader&&) noexcept = default;
TimeSeriesReader& TimeSeriesReader::operator=(TimeSeriesReader&&) noexcept = default;
TimeSeriesReader::~TimeSeriesReader() = default;

namespace {
detail::BufferReaderState& live(const std::unique_ptr<detail::BufferReaderState>& state,
                                const char* function) {
  FERRY_CHECK(state != nullptr, Errc::State, function,
              ": the reader was moved from. Use the object it was moved to");
  return *state;
}
}  // namespace

ReadResult TimeSeriesReader::read(void* out, std::int64_t max_steps) {
  return live(state_, "TimeSeriesReader::read").read(out, max_steps);
}
void TimeSeriesReader::done() { live(state_, "TimeSeriesReader::done").done(); }
bool TimeSeriesReader::is_done() const noexcept { return state_ && state_->is_done(); }
const std::vector<std::int64_t>& TimeSeriesReader::steps() const noexcept {
  return state_->steps();
}
std::int64_t TimeSeriesReader::values_per_step() const noexcept {
  return state_->values_per_step();
}
const ReaderStatistics& TimeSeriesReader::statistics() const noexcept {
  return state_->statistics();
}

}  // namespace ferry
