#include "transfer_protocols.hpp"

#include <utility>

#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::bench {

namespace {

constexpr int kDataTag = 7401;
constexpr int kNoteTag = 7402;
constexpr std::uint64_t kPatternSeed = 0x9E3779B97F4A7C15ull;

// Word i of every message rank `sender` sends (between the two stamps).
std::uint64_t pattern(int sender, std::size_t i) {
  return (static_cast<std::uint64_t>(sender) + 1) * kPatternSeed ^ i;
}

// The stamp of message number `seq` from rank `sender`.
std::uint64_t stamp(int sender, std::uint64_t seq) {
  return (static_cast<std::uint64_t>(sender) + 1) << 56 | seq;
}

std::size_t words(std::int64_t bytes) { return static_cast<std::size_t>(bytes) / 8; }

}  // namespace

const char* protocol_name(Protocol protocol) noexcept {
  switch (protocol) {
    case Protocol::Blocking: return "blocking";
    case Protocol::Sendrecv: return "sendrecv";
    case Protocol::IsendRecv: return "isend_recv";
    case Protocol::IrecvSend: return "irecv_send";
    case Protocol::Bsend: return "bsend";
    case Protocol::Rsend: return "rsend";
    case Protocol::Put: return "put";
    case Protocol::Get: return "get";
  }
  return "unknown";
}

const char* direction_name(Direction direction) noexcept {
  return direction == Direction::Unidirectional ? "uni" : "bi";
}

std::vector<Protocol> all_protocols() {
  return {Protocol::Blocking, Protocol::Sendrecv, Protocol::IsendRecv, Protocol::IrecvSend,
          Protocol::Bsend,    Protocol::Rsend,    Protocol::Put,       Protocol::Get};
}

std::optional<Protocol> parse_protocol(const std::string& name) {
  for (Protocol p : all_protocols())
    if (name == protocol_name(p)) return p;
  return std::nullopt;
}

TransferPair::TransferPair(const Comm& pair, std::int64_t max_bytes)
    : pair_(pair), peer_(1 - pair.rank()) {
  FERRY_ASSERT(pair.size() == 2 && max_bytes >= 8 && max_bytes % 8 == 0, "a pair of ranks, got ",
               pair.size(), " and ", max_bytes, " bytes");
  send_.resize(words(max_bytes));
  recv_.resize(words(max_bytes));
  for (std::size_t i = 0; i < send_.size(); ++i) send_[i] = pattern(pair.rank(), i);
  // Room for two messages in flight: a Bsend returns before its message has left.
  const int bsend_bytes =
      detail::mpi_count<int>(2 * (max_bytes + MPI_BSEND_OVERHEAD), "buffered-send buffer bytes");
  bsend_buffer_.resize(static_cast<std::size_t>(bsend_bytes));
  FERRY_CALL_MPI(MPI_Buffer_attach(bsend_buffer_.data(), bsend_bytes));
  const auto window_bytes = static_cast<MPI_Aint>(max_bytes);
  FERRY_CALL_MPI(MPI_Win_create(recv_.data(), window_bytes, 1, MPI_INFO_NULL, pair.get(),
                                &recv_window_));
  FERRY_CALL_MPI(MPI_Win_create(send_.data(), window_bytes, 1, MPI_INFO_NULL, pair.get(),
                                &send_window_));
  FERRY_CALL_MPI(MPI_Win_fence(0, recv_window_));  // the first epoch of each window
  FERRY_CALL_MPI(MPI_Win_fence(0, send_window_));
}

TransferPair::~TransferPair() {
  // Errors are ignored here: a destructor has no one to report them to.
  MPI_Win_fence(0, recv_window_);
  MPI_Win_fence(0, send_window_);
  MPI_Win_free(&recv_window_);
  MPI_Win_free(&send_window_);
  void* buffer = nullptr;
  int size = 0;
  MPI_Buffer_detach(&buffer, &size);
}

void TransferPair::stamp_outgoing(std::int64_t bytes) {
  const std::size_t n = words(bytes);
  const std::uint64_t s = stamp(pair_.rank(), sent_++);
  send_[stamped_last_] = pattern(pair_.rank(), stamped_last_);  // a longer message's middle
  send_[0] = s;
  send_[n - 1] = s;
  stamped_last_ = n - 1;
}

void TransferPair::check_stamp(std::int64_t bytes) {
  const std::size_t n = words(bytes);
  const std::uint64_t want = stamp(peer_, received_++);
  if ((recv_[0] != want || recv_[n - 1] != want) && stamp_problem_.empty())
    stamp_problem_ = detail::cat("message ", received_ - 1, " of ", bytes, " bytes had stamps ",
                                 recv_[0], " and ", recv_[n - 1], ", expected ", want);
}

void TransferPair::verify(std::int64_t bytes) {
  const std::string problem = std::exchange(stamp_problem_, "");
  FERRY_CHECK(problem.empty(), Errc::Internal, "bench kernels: rank ", pair_.rank(), ": ", problem,
              ". The MPI library or ferry is broken");
  const std::size_t n = words(bytes);
  for (std::size_t i = 1; i + 1 < n; ++i)
    FERRY_CHECK(recv_[i] == pattern(peer_, i), Errc::Internal, "bench kernels: rank ",
                pair_.rank(), " received word ", i, " of a ", bytes,
                "-byte message wrong. The MPI library or ferry is broken");
}

void TransferPair::send_one(Protocol protocol, int count) {
  const MPI_Comm comm = pair_.get();
  void* data = send_.data();
  switch (protocol) {
    case Protocol::Blocking:
    case Protocol::IrecvSend:
      FERRY_CALL_MPI(MPI_Send(data, count, MPI_BYTE, peer_, kDataTag, comm));
      return;
    case Protocol::Sendrecv:
      FERRY_CALL_MPI(MPI_Sendrecv(data, count, MPI_BYTE, peer_, kDataTag, nullptr, 0, MPI_BYTE,
                                  MPI_PROC_NULL, kDataTag, comm, MPI_STATUS_IGNORE));
      return;
    case Protocol::IsendRecv: {
      MPI_Request request = MPI_REQUEST_NULL;
      FERRY_CALL_MPI(MPI_Isend(data, count, MPI_BYTE, peer_, kDataTag, comm, &request));
      FERRY_CALL_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
      return;
    }
    case Protocol::Bsend:
      FERRY_CALL_MPI(MPI_Bsend(data, count, MPI_BYTE, peer_, kDataTag, comm));
      return;
    case Protocol::Rsend:
      FERRY_CALL_MPI(MPI_Recv(nullptr, 0, MPI_BYTE, peer_, kNoteTag, comm, MPI_STATUS_IGNORE));
      FERRY_CALL_MPI(MPI_Rsend(data, count, MPI_BYTE, peer_, kDataTag, comm));
      return;
    case Protocol::Put:
      FERRY_CALL_MPI(MPI_Put(data, count, MPI_BYTE, peer_, 0, count, MPI_BYTE, recv_window_));
      FERRY_CALL_MPI(MPI_Win_fence(0, recv_window_));
      return;
    case Protocol::Get:
      FERRY_CALL_MPI(MPI_Win_fence(0, send_window_));  // the stamped message is ready
      FERRY_CALL_MPI(MPI_Win_fence(0, send_window_));  // the peer has read it
      return;
  }
}

void TransferPair::receive_one(Protocol protocol, int count) {
  const MPI_Comm comm = pair_.get();
  void* data = recv_.data();
  switch (protocol) {
    case Protocol::Blocking:
    case Protocol::IsendRecv:
    case Protocol::Bsend:
      FERRY_CALL_MPI(MPI_Recv(data, count, MPI_BYTE, peer_, kDataTag, comm, MPI_STATUS_IGNORE));
      return;
    case Protocol::Sendrecv:
      FERRY_CALL_MPI(MPI_Sendrecv(nullptr, 0, MPI_BYTE, MPI_PROC_NULL, kDataTag, data, count,
                                  MPI_BYTE, peer_, kDataTag, comm, MPI_STATUS_IGNORE));
      return;
    case Protocol::IrecvSend: {
      MPI_Request request = MPI_REQUEST_NULL;
      FERRY_CALL_MPI(MPI_Irecv(data, count, MPI_BYTE, peer_, kDataTag, comm, &request));
      FERRY_CALL_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
      return;
    }
    case Protocol::Rsend: {
      MPI_Request request = MPI_REQUEST_NULL;
      FERRY_CALL_MPI(MPI_Irecv(data, count, MPI_BYTE, peer_, kDataTag, comm, &request));
      FERRY_CALL_MPI(MPI_Send(nullptr, 0, MPI_BYTE, peer_, kNoteTag, comm));
      FERRY_CALL_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
      return;
    }
    case Protocol::Put:
      FERRY_CALL_MPI(MPI_Win_fence(0, recv_window_));
      return;
    case Protocol::Get:
      FERRY_CALL_MPI(MPI_Win_fence(0, send_window_));
      FERRY_CALL_MPI(MPI_Get(data, count, MPI_BYTE, peer_, 0, count, MPI_BYTE, send_window_));
      FERRY_CALL_MPI(MPI_Win_fence(0, send_window_));
      return;
  }
}

void TransferPair::swap(Protocol protocol, int count) {
  const MPI_Comm comm = pair_.get();
  void* out = send_.data();
  void* in = recv_.data();
  MPI_Request request = MPI_REQUEST_NULL;
  switch (protocol) {
    case Protocol::Blocking:  // ordered, or both ranks would wait in MPI_Send
      if (pair_.rank() == 0) {
        send_one(protocol, count);
        receive_one(protocol, count);
      } else {
        receive_one(protocol, count);
        send_one(protocol, count);
      }
      return;
    case Protocol::Sendrecv:
      FERRY_CALL_MPI(MPI_Sendrecv(out, count, MPI_BYTE, peer_, kDataTag, in, count, MPI_BYTE,
                                  peer_, kDataTag, comm, MPI_STATUS_IGNORE));
      return;
    case Protocol::IsendRecv:
      FERRY_CALL_MPI(MPI_Isend(out, count, MPI_BYTE, peer_, kDataTag, comm, &request));
      FERRY_CALL_MPI(MPI_Recv(in, count, MPI_BYTE, peer_, kDataTag, comm, MPI_STATUS_IGNORE));
      FERRY_CALL_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
      return;
    case Protocol::IrecvSend:
      FERRY_CALL_MPI(MPI_Irecv(in, count, MPI_BYTE, peer_, kDataTag, comm, &request));
      FERRY_CALL_MPI(MPI_Send(out, count, MPI_BYTE, peer_, kDataTag, comm));
      FERRY_CALL_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
      return;
    case Protocol::Bsend:
      FERRY_CALL_MPI(MPI_Bsend(out, count, MPI_BYTE, peer_, kDataTag, comm));
      FERRY_CALL_MPI(MPI_Recv(in, count, MPI_BYTE, peer_, kDataTag, comm, MPI_STATUS_IGNORE));
      return;
    case Protocol::Rsend:
      FERRY_CALL_MPI(MPI_Irecv(in, count, MPI_BYTE, peer_, kDataTag, comm, &request));
      FERRY_CALL_MPI(MPI_Sendrecv(nullptr, 0, MPI_BYTE, peer_, kNoteTag, nullptr, 0, MPI_BYTE,
                                  peer_, kNoteTag, comm, MPI_STATUS_IGNORE));
      FERRY_CALL_MPI(MPI_Rsend(out, count, MPI_BYTE, peer_, kDataTag, comm));
      FERRY_CALL_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
      return;
    case Protocol::Put:
      // A fence first, so neither side overwrites a message the other still reads.
      FERRY_CALL_MPI(MPI_Win_fence(0, recv_window_));
      FERRY_CALL_MPI(MPI_Put(out, count, MPI_BYTE, peer_, 0, count, MPI_BYTE, recv_window_));
      FERRY_CALL_MPI(MPI_Win_fence(0, recv_window_));
      return;
    case Protocol::Get:
      FERRY_CALL_MPI(MPI_Win_fence(0, send_window_));
      FERRY_CALL_MPI(MPI_Get(in, count, MPI_BYTE, peer_, 0, count, MPI_BYTE, send_window_));
      FERRY_CALL_MPI(MPI_Win_fence(0, send_window_));
      return;
  }
}

void TransferPair::run(Protocol protocol, Direction direction, std::int64_t bytes) {
  const int count = detail::mpi_count<int>(bytes, "bench kernels message bytes");
  if (direction == Direction::Bidirectional) {
    stamp_outgoing(bytes);
    swap(protocol, count);
    check_stamp(bytes);
    return;
  }
  for (int sender = 0; sender < 2; ++sender) {
    if (pair_.rank() == sender) {
      stamp_outgoing(bytes);
      send_one(protocol, count);
    } else {
      receive_one(protocol, count);
      check_stamp(bytes);
    }
  }
}

}  // namespace ferry::bench
