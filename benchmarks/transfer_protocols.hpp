// The ways two ranks can move one message between them (the PCCM study's COMMTEST
// protocols): two-sided blocking, combined, non-blocking, buffered and ready sends,
// and one-sided puts and gets.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ferry/comm.hpp"

namespace ferry::bench {

enum class Protocol {
  Blocking,   ///< MPI_Send / MPI_Recv
  Sendrecv,   ///< MPI_Sendrecv (MPI_PROC_NULL on the unused side one way)
  IsendRecv,  ///< MPI_Isend, MPI_Recv, MPI_Wait
  IrecvSend,  ///< MPI_Irecv posted first, MPI_Send, MPI_Wait
  Bsend,      ///< MPI_Bsend from an attached buffer / MPI_Recv
  Rsend,      ///< receiver posts MPI_Irecv and sends a zero-byte ready note; sender
              ///< receives the note, then MPI_Rsend
  Put,        ///< MPI_Put into the receiver's window, then MPI_Win_fence
  Get,        ///< MPI_Win_fence (data ready), MPI_Get from the sender's window, fence
};

/// One message at a time (ping-pong), or both ranks sending at once (swap).
enum class Direction { Unidirectional, Bidirectional };

const char* protocol_name(Protocol protocol) noexcept;
const char* direction_name(Direction direction) noexcept;  ///< "uni", "bi"
std::vector<Protocol> all_protocols();
std::optional<Protocol> parse_protocol(const std::string& name);

/// Ranks 0 and 1 of a communicator, with send and receive buffers of up to
/// `max_bytes` and RMA windows over them, moving stamped messages by any protocol.
/// Every message is checked on arrival: its first and last 8 bytes carry a stamp
/// that changes with each message (a cheap check on every transfer, inside the
/// timing), and verify() checks the stamps' record and every byte of the last one.
class TransferPair {
 public:
  /// Collective over `pair` (exactly 2 ranks). `max_bytes` is a multiple of 8.
  TransferPair(const Comm& pair, std::int64_t max_bytes);
  ~TransferPair();
  TransferPair(const TransferPair&) = delete;
  TransferPair& operator=(const TransferPair&) = delete;

  /// Collective over the pair. Unidirectional: rank 0 sends `bytes` to rank 1, which
  /// sends them back (one round trip). Bidirectional: both send `bytes` to each
  /// other at once. A wrong stamp is recorded for verify(), not raised, so that
  /// the peer is not left waiting.
  void run(Protocol protocol, Direction direction, std::int64_t bytes);
  /// Not collective: Errc::Internal if a message since the last verify() arrived
  /// with a wrong stamp, or if the last one (`bytes` long) differs anywhere from
  /// the sender's pattern.
  void verify(std::int64_t bytes);

 private:
  void send_one(Protocol protocol, int count);
  void receive_one(Protocol protocol, int count);
  void swap(Protocol protocol, int count);
  void stamp_outgoing(std::int64_t bytes);
  void check_stamp(std::int64_t bytes);

  const Comm& pair_;
  int peer_ = 0;
  std::vector<std::uint64_t> send_;
  std::vector<std::uint64_t> recv_;
  std::vector<char> bsend_buffer_;
  MPI_Win recv_window_ = MPI_WIN_NULL;  // Put targets
  MPI_Win send_window_ = MPI_WIN_NULL;  // Get origins
  std::size_t stamped_last_ = 0;  // the word holding the last message's second stamp
  std::uint64_t sent_ = 0;       // messages sent so far: the next stamp
  std::uint64_t received_ = 0;   // messages received so far
  std::string stamp_problem_;    // the first wrong stamp since the last verify()
};

}  // namespace ferry::bench
