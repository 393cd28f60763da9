// rma: one-sided exchange into receive windows exposed once at setup.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "engines/field_engine.hpp"
#include "engines/rma/rma_route.hpp"
#include "engines/rma/rma_windows.hpp"
#include "engines/agreed_setup.hpp"
#include "ferry/comm.hpp"

namespace ferry::detail {

/// One-sided engine. Each rank's receive memory lives in an MPI-3 shared-memory
/// window over the ranks of its node (MPI_Comm_split_type SHARED), in two parts:
///   field areas: two of them, used by turns (exchange n fills area n % 2), only on
///     ranks with a source on the same node; each holds every field laid out as the
///     destination holds it (dst_local_size x components elements per field, each
///     field 64-byte aligned) and is written by the sources of the same node;
///   block area: one packed block per source on another node (PackedEngine's block
///     layout: the active fields one after the other), written by MPI_Put through a
///     second window over the whole communicator, created over the same memory only
///     if some rank has an off-node peer.
/// A source on the same node as a destination copies each point straight from the
/// user's source field to its place in the destination's field area: at setup the
/// destination sends each such source the positions of its points (and its field
/// area's size), the source compiles them into copy runs, and finds the area with
/// MPI_Win_shared_query. In end() the destination copies the points of its node's
/// sources from the field area to the user's field and unpacks the off-node blocks;
/// its own points go directly in begin(). A caller that passes the field area itself
/// as dst[f] (destination_field(f), asked before each begin) skips the copy out:
/// each value from a node peer moves once.
///
/// Synchronisation: both windows stay in one passive-target epoch (MPI_Win_lock_all
/// with MPI_MODE_NOCHECK) from setup to close(), and peers notify each other
/// with persistent zero-byte messages, paired with MPI_Win_sync (the MPI-3 unified
/// model's rule for load/store and flushed puts):
///   ready: source -> destination after writing ("your memory is filled"); for puts
///          only after MPI_Win_flush has completed them at the target;
///   free:  destination -> source at the end of end() ("the blocks have been read,
///          and the field area of the previous exchange is no longer the caller's");
///          a source waits for it in the next begin().
/// A rank therefore only ever waits for its own peers, never for the whole
/// communicator, and begin() waits only until its destinations have finished end()
/// of the previous exchange (the first exchange waits for nothing). Two field areas
/// are what keeps it so when the caller holds its values in one: exchange n+1 writes
/// the other, and area n % 2 is written again by exchange n+2, after the free note
/// of end(n+1). Fences would synchronise every rank twice per exchange;
/// post/start/complete/wait is peer-only too, but MPI_Win_start may return before
/// the matching post, which covers puts and not direct stores into shared memory.
///
/// traffic() counts one block per destination, written or put; the zero-byte notes
/// are not counted.
///
/// The receive memory is a part of a window of RmaWindows: the ExchangeShare's for the
/// route when the exchange has one (one MPI_Win_allocate_shared for all the exchanges
/// over the share, sized at the first for as many as the share expects; a later one
/// that does not fit on some rank makes all allocate a new one), else the engine's own.
/// Messages carry tags from tag_base(), so exchanges over one share use its communicator.
///
/// Teardown: close() frees the off-node window and, without a share, the shared one
/// (collective; with a share, ExchangeShare::close() frees it). The destructor frees
/// only the notification requests: MPI_Win_free waits for every rank, which a
/// destructor run while a partner is gone must not, so windows not closed stay until
/// MPI_Finalize, each with the duplicate communicator it was created over.
///
/// Set-up (AgreedSetup): prepare() checks this rank's input, reads the options and lays
/// out over the route cached with the plan, if any; one reduction agrees on the errors,
/// whether every rank has the route and whether every part fits the share's window
/// (over a share, the Exchange's agreement on the fields); finish() builds a new route
/// where some rank lacks it, allocates a new window where a part does not fit, and
/// sets up the windows and the notes.
///
/// Option `shared_memory` (default true): false treats every peer as off-node, so
/// every block goes through MPI_Put (tests the inter-node path on one node, or
/// avoids shared windows where they are slow).
class RmaEngine final : public FieldEngine, public AgreedSetup {
 public:
  RmaEngine();
  RmaEngine(const RmaEngine&) = delete;
  RmaEngine& operator=(const RmaEngine&) = delete;
  ~RmaEngine() override;

  void setup(const Plan& plan, const Comm& comm, const std::vector<FieldSpec>& fields,
             const EngineOptions& options) override;
  AgreedValues prepare(const Plan& plan, const Comm& comm, const std::vector<FieldSpec>& fields,
                       const EngineOptions& options) override;
  void finish(const AgreedSpread& agreed) override;
  void close() override;
  /// False while a destination has not yet read this rank's previous block.
  bool can_begin() override;
  void begin(const void* const* src, void* const* dst, const std::uint8_t* mask) override;
  void end() override;
  bool test() override;
  void* destination_field(std::size_t field) override;

 private:
  const char* windows_key() const noexcept;  // the share's RmaWindows for shared_memory_
  std::shared_ptr<RmaWindows> route_windows() const;  // the share's for route_, or null
  int fits_route_windows() const;  // 1 if this exchange's part fits them
  void lay_out();  // send buffer, field areas and block offsets for these fields
  std::size_t window_bytes() const;  // this exchange's part of the receive window
  void create_windows(const RmaWindows::Part& part);
  void locate_destinations();
  void create_notifications();
  void pack(std::size_t i, char* block);  // gathers send peer send_order[i] into block
  void write_node_peer(std::size_t i);    // copies on-node send peer i's points into its area
  void sync_windows();  // MPI_Win_sync on both windows, around every note
  void free_notifications() noexcept;

  bool shared_memory_ = true;  // option shared_memory
  std::shared_ptr<const RmaRoute> route_;  // node communicator, peers, positions
  std::shared_ptr<RmaWindows> own_windows_;  // without a share: the engine's own, closed by close()
  MPI_Win shared_win_ = MPI_WIN_NULL;   // receive memory over the route's node (RmaWindows')
  std::size_t part_offset_ = 0;         // of recv_base_ in this rank's memory of shared_win_
  MPI_Win remote_win_ = MPI_WIN_NULL;   // the same memory over the whole communicator, or null
  // remote_win_'s own duplicate of the communicator, freed after it by close() and
  // otherwise kept with it (see RmaWindows::Window::comm).
  MPI_Comm remote_win_comm_ = MPI_COMM_NULL;
  char* recv_base_ = nullptr;           // this rank's receive memory (in shared_win_)
  std::vector<std::size_t> field_offset_;  // field f's place in a field area
  std::size_t field_area_bytes_ = 0;       // one field area's (0: none); blocks follow both
  std::size_t area_ = 0;                   // the field area of the next or current exchange
  std::vector<char> send_buffer_;       // packed blocks for off-node destinations only

  // Send peers in the route's send_order: the field area of on-node ones (its base,
  // and each field's offset in it), and the displacement in remote_win_ and
  // send-buffer offset of off-node blocks.
  std::vector<char*> node_area_;
  std::vector<std::vector<std::size_t>> node_field_offset_;
  std::vector<std::size_t> node_area_bytes_;  // size of one of its field areas
  std::vector<MPI_Aint> remote_disp_;
  std::vector<std::int64_t> pack_offset_;

  // Persistent zero-byte notifications; those with destinations are indexed like send_order.
  std::vector<MPI_Request> ready_send_;  // to destinations
  std::vector<MPI_Request> free_recv_;   // from destinations
  std::vector<MPI_Request> ready_recv_;  // from sources (plan recv order)
  std::vector<MPI_Request> free_send_;   // to sources
  bool free_in_flight_ = false;          // free_send_/free_recv_ started by the last end()
};

}  // namespace ferry::detail
