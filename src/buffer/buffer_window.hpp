// The MPI window behind a TimeSeriesBuffer and the atomic accesses made on it.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "ferry/comm.hpp"

namespace ferry::detail {

/// One MPI_Win_allocate window over the buffer's parent communicator (requester
/// ranks expose their ring, worker ranks expose 0 bytes), kept in a single
/// passive-target epoch (MPI_Win_lock_all, MPI_MODE_NOCHECK) from creation to
/// free(). Every control word is accessed with MPI atomics only (accumulate
/// family, which MPI makes atomic per element against each other); step data is
/// written by its owner with plain stores and read with MPI_Get.
///
/// Relies on the unified memory model (MPI_WIN_MODEL == MPI_WIN_UNIFIED, checked at
/// creation): the owner's stores become visible to MPI_Get after MPI_Win_sync, and a
/// get racing with stores returns some mix of old and new bytes (the stamps tell
/// the reader to discard it) rather than failing.
class BufferWindow {
 public:
  BufferWindow() = default;
  /// Collective over `comm`: allocates `bytes` (>= 0) on this rank, zero-filled, and
  /// opens the epoch. Errc::Unsupported, on every rank, if any rank's window has
  /// the separate memory model.
  BufferWindow(const Comm& comm, MPI_Aint bytes);
  BufferWindow(BufferWindow&& other) noexcept;
  BufferWindow& operator=(BufferWindow&& other) noexcept;
  BufferWindow(const BufferWindow&) = delete;
  BufferWindow& operator=(const BufferWindow&) = delete;
  /// Not collective, never waits: a window not freed (free()) stays until MPI_Finalize,
  /// since freeing it waits for every rank, which may be gone.
  ~BufferWindow();

  /// Collective over the communicator, idempotent: closes this rank's epoch, waits in
  /// a barrier until every rank is done with the window (where MPI keeps serving other
  /// ranks' accesses: some libraries, like Open MPI's osc/pt2pt, stop serving them once
  /// inside MPI_Win_free), then frees it. `comm` must still be valid.
  void free();
  /// False once freed (or for a default-constructed window).
  bool valid() const noexcept { return win_ != MPI_WIN_NULL; }

  /// This rank's memory (nullptr for 0 bytes).
  char* base() const noexcept { return base_; }
  MPI_Win get() const noexcept { return win_; }

  /// Starts an atomic read of `count` words at `disp` of `target` into `out`
  /// (MPI_Get_accumulate with MPI_NO_OP); `out` is valid after flush_local(target).
  void fetch(int target, MPI_Aint disp, int count, std::int64_t* out) const;
  /// Starts an atomic update of `count` words at `disp` of `target` with `op`
  /// (MPI_REPLACE or MPI_MAX); `values` must stay valid until flush(target).
  void update(int target, MPI_Aint disp, int count, const std::int64_t* values, MPI_Op op) const;
  /// Completes this rank's operations to `target` at the target (writes visible).
  void flush(int target) const;
  /// Completes this rank's operations to `target` locally (read results arrived).
  void flush_local(int target) const;
  /// Orders this rank's plain stores to its own memory against its MPI accesses.
  void sync() const;

 private:
  void release() noexcept;  // forgets the window (after free(), or leaving it to MPI)

  MPI_Comm comm_ = MPI_COMM_NULL;  // not owned
  MPI_Win win_ = MPI_WIN_NULL;
  char* base_ = nullptr;
};

}  // namespace ferry::detail
