// RmaWindows: shared-memory windows over a node, of which rma engines take parts.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "engines/rma/rma_route.hpp"
#include "ferry/exchange_share.hpp"

namespace ferry::detail {

/// The receive memory of the rma engines of one ExchangeShare (or of one engine
/// without a share): MPI_Win_allocate_shared over the route's node once for all of
/// them, each engine its own part of it, instead of one window per engine (each
/// allocation creates a communicator inside MPI and synchronises the node). Each
/// rank's memory is on its own pages and each part starts on a page, as memory the
/// caller allocates would. The windows stay in one passive-target epoch
/// (MPI_Win_lock_all, MPI_MODE_NOCHECK) from allocation to close().
class RmaWindows final : public SharedResource {
 public:
  /// A part's place: the window, this rank's memory of the part, and its offset from
  /// this rank's base in the window (which node peers add to MPI_Win_shared_query's).
  struct Part {
    MPI_Win window = MPI_WIN_NULL;
    char* base = nullptr;
    std::size_t offset = 0;
  };

  /// Not collective: no window yet. Keeps `route` (its node communicator) alive.
  explicit RmaWindows(std::shared_ptr<const RmaRoute> route) : route_(std::move(route)) {}
  RmaWindows(const RmaWindows&) = delete;
  RmaWindows& operator=(const RmaWindows&) = delete;
  /// Frees nothing: MPI_Win_free waits for every rank of the node (see close()); the
  /// windows not closed stay until MPI_Finalize, with their communicators.
  ~RmaWindows() override = default;

  const RmaRoute* route() const noexcept { return route_.get(); }
  /// Not collective: whether a part of `bytes` fits in what is left of the newest window
  /// on this rank (false before the first).
  bool fits(std::size_t bytes) const noexcept;
  /// Collective over the route's node: a new window of `bytes` on this rank (rounded up
  /// to a page), where the next parts go.
  void allocate(std::size_t bytes);
  /// Not collective: the next `bytes` of the newest window, after fits() is true.
  Part take(std::size_t bytes);
  /// Collective over the route's node: frees every window. Idempotent.
  void close() override;

  /// Parts start on this boundary.
  static constexpr std::size_t kPartAlign = 4096;

 private:
  struct Window {
    MPI_Win window = MPI_WIN_NULL;
    // The window's own duplicate of the route's node communicator, freed after it by
    // close() and otherwise kept with it: MPICH tells a put's target window by the
    // context id of the window's communicator and a count of the windows created over
    // it, which a communicator created after that one is freed may get again (then
    // puts meant for a new window land in the old one).
    MPI_Comm comm = MPI_COMM_NULL;
    char* base = nullptr;
    std::size_t size = 0;
    std::size_t used = 0;
  };
  std::shared_ptr<const RmaRoute> route_;
  std::vector<Window> windows_;
};

}  // namespace ferry::detail
