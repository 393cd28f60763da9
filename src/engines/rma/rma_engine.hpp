// rma: one-sided exchange into receive windows exposed once at setup.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engines/field_engine.hpp"
#include "ferry/comm.hpp"

namespace ferry::detail {

/// One-sided engine. Each rank's receive buffer lives in an MPI-3 shared-memory
/// window over the ranks of its node (MPI_Comm_split_type SHARED). A source on the
/// same node as a destination gathers its points straight from the user's field
/// into the destination's receive block (one copy; the block address comes from
/// MPI_Win_shared_query plus the block displacement the destination sent once at
/// setup). A source on another node packs into its send buffer and MPI_Puts the
/// block through a second window over the whole communicator, created over the
/// same receive memory only if some rank has an off-node peer. The destination
/// scatters from its window into its fields in end(). Block layout per peer is
/// PackedEngine's: the active fields one after the other, count x element bytes.
///
/// Synchronisation: both windows stay in one passive-target epoch (MPI_Win_lock_all
/// with MPI_MODE_NOCHECK) from setup to close(), and peers notify each other
/// with persistent zero-byte messages, paired with MPI_Win_sync (the MPI-3 unified
/// model's rule for load/store and flushed puts):
///   ready: source -> destination after writing ("your block is filled"); for puts
///          only after MPI_Win_flush has completed them at the target;
///   free:  destination -> source after scattering in end() ("the block may be
///          overwritten"); a source waits for it in the next begin().
/// A rank therefore only ever waits for its own peers, never for the whole
/// communicator, and begin() waits only until its destinations have finished end()
/// of the previous exchange (the first exchange waits for nothing). Fences would
/// synchronise every rank twice per exchange; post/start/complete/wait is peer-only
/// too, but MPI_Win_start may return before the matching post, which covers puts
/// and not direct stores into shared memory.
///
/// traffic() counts one block per destination, written or put; the zero-byte notes
/// are not counted.
///
/// Teardown: close() frees both windows (collective). The destructor frees only the
/// notification requests: MPI_Win_free waits for every rank, which a destructor run
/// while a partner is gone must not, so windows not closed stay until MPI_Finalize.
///
/// Option `shared_memory` (default true): false treats every peer as off-node, so
/// every block goes through MPI_Put (tests the inter-node path on one node, or
/// avoids shared windows where they are slow).
class RmaEngine final : public FieldEngine {
 public:
  RmaEngine();
  RmaEngine(const RmaEngine&) = delete;
  RmaEngine& operator=(const RmaEngine&) = delete;
  ~RmaEngine() override;

  void setup(const Plan& plan, const Comm& comm, const std::vector<FieldSpec>& fields,
             const EngineOptions& options) override;
  void close() override;
  /// False while a destination has not yet read this rank's previous block.
  bool can_begin() override;
  void begin(const void* const* src, void* const* dst, const std::uint8_t* mask) override;
  void end() override;
  bool test() override;

 private:
  void split_node(bool shared_memory);
  void create_windows();
  void locate_destination_blocks();
  void create_notifications();
  void pack(std::size_t i, char* block);  // gathers send peer send_order_[i] into block
  void sync_windows();  // MPI_Win_sync on both windows, around every note
  void free_notifications() noexcept;

  Comm node_;                           // ranks whose receive windows this rank can load/store
  MPI_Win shared_win_ = MPI_WIN_NULL;   // receive buffers, allocated over node_
  MPI_Win remote_win_ = MPI_WIN_NULL;   // the same buffers over the whole communicator, or null
  char* recv_base_ = nullptr;           // this rank's receive buffer (in shared_win_)
  std::vector<char> send_buffer_;       // packed blocks for off-node destinations only

  // Send peers, reordered so that on-node destinations come first: plan peer index,
  // then where its block lives (pointer on the node, displacement in remote_win_),
  // and the send-buffer offset of off-node blocks.
  std::vector<std::size_t> send_order_;
  std::size_t node_sends_ = 0;
  std::vector<int> node_rank_;  // per plan send peer: rank in node_, or MPI_UNDEFINED
  std::vector<char*> node_block_;
  std::vector<MPI_Aint> remote_disp_;
  std::vector<std::int64_t> pack_offset_;

  // Persistent zero-byte notifications; those with destinations are indexed like send_order_.
  std::vector<MPI_Request> ready_send_;  // to destinations
  std::vector<MPI_Request> free_recv_;   // from destinations
  std::vector<MPI_Request> ready_recv_;  // from sources (plan recv order)
  std::vector<MPI_Request> free_send_;   // to sources
  bool free_in_flight_ = false;          // free_send_/free_recv_ started by the last end()
};

}  // namespace ferry::detail
