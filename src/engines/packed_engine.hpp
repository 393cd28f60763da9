// PackedEngine: pack -> transfer -> unpack, with the transfer left to each engine.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "engines/field_engine.hpp"

namespace ferry::detail {

/// Base of the two-sided engines (p2p, alltoallv, neighbor). `begin` packs each
/// send peer's points of the selected fields into one block of the send buffer
/// (so one message per peer carries every field), calls start_transfer(), then
/// copies the rank's own points directly; `end` waits for the requests
/// start_transfer() returned and unpacks. Buffers are sized once in setup for all
/// fields; a mask only shortens the blocks, so nothing is allocated per exchange.
/// Fields wait in these buffers between calls (stage, take): the send and receive
/// blocks hold them, except the rank's own points, which wait in a block of their
/// own sized at its first use.
///
/// An engine supplies only its transfer: setup_transfer() and start_transfer().
class PackedEngine : public FieldEngine {
 public:
  void setup(const Plan& plan, const Comm& comm, const std::vector<FieldSpec>& fields,
             const EngineOptions& options) final;
  void begin(const void* const* src, void* const* dst, const std::uint8_t* mask) final;
  void end() final;
  bool test() final;
  void stage(std::size_t field, const void* src) final;
  void take(std::size_t field, void* dst) final;

 protected:
  /// The requests of one transfer in flight: complete when all of them are.
  struct Requests {
    MPI_Request* data;
    int count;
  };

  /// `persistent`: setup_transfer() creates persistent requests or communicators.
  /// `tagged`: Capabilities::tagged (the engine sends only with tags from tag_base()).
  PackedEngine(std::string_view name, bool persistent, bool tagged = false);

  /// Collective: create requests, graph communicators, ... Buffers already exist.
  virtual void setup_transfer(const EngineOptions& options) = 0;
  /// Starts moving the packed send blocks into the receive blocks; returns the
  /// requests that complete the transfer (waited for in end(), tested in test()).
  virtual Requests start_transfer() = 0;

  char* send_buffer() noexcept { return send_buffer_.data(); }
  char* recv_buffer() noexcept { return recv_buffer_.data(); }
  /// Per send/recv peer (plan order): bytes of this exchange, and block start in bytes.
  const std::vector<int>& send_bytes() const noexcept { return send_bytes_; }
  const std::vector<int>& send_displs() const noexcept { return send_displs_; }
  const std::vector<int>& recv_bytes() const noexcept { return recv_bytes_; }
  const std::vector<int>& recv_displs() const noexcept { return recv_displs_; }
  /// True if this exchange moves every field (the block sizes fixed at setup).
  bool moves_all_fields() const noexcept { return fields().all_active(); }

 private:
  void size_blocks();
  void check_field(const char* call, std::size_t field) const;
  void copy_own_points();
  char* self_block();

  std::vector<char> send_buffer_;
  std::vector<char> recv_buffer_;
  std::vector<int> send_bytes_, send_displs_, recv_bytes_, recv_displs_;
  Requests transfer_{nullptr, 0};     // of the exchange in flight
  std::vector<std::uint8_t> staged_;  // per field: stage() put it in the send blocks
  std::vector<std::uint8_t> held_;    // per field: the last exchange left it for take()
  std::vector<char> self_buffer_;     // own points of staged or held fields
};

}  // namespace ferry::detail
