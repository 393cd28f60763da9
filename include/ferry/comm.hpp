// ferry::Comm: a move-only owner of a private duplicate of a user communicator.
#pragma once

#include <mpi.h>

namespace ferry {

/// A communicator handle. `Comm::dup` makes a private duplicate that ferry owns
/// (freed on destruction) with MPI_ERRORS_RETURN set; `Comm::view` wraps a
/// communicator without owning it. Move-only, so ownership is never silent.
class Comm {
 public:
  Comm() = default;
  /// Collective: duplicates `comm`. Raises Errc::State if MPI is not initialised.
  static Comm dup(MPI_Comm comm);
  /// Not collective: a non-owning view of `comm`.
  static Comm view(MPI_Comm comm);
  /// Takes ownership of a communicator ferry created itself (split, graph, ...).
  static Comm adopt(MPI_Comm comm);

  Comm(Comm&& other) noexcept;
  Comm& operator=(Comm&& other) noexcept;
  Comm(const Comm&) = delete;
  Comm& operator=(const Comm&) = delete;
  ~Comm();

  MPI_Comm get() const noexcept { return comm_; }
  bool owning() const noexcept { return owning_; }
  bool valid() const noexcept { return comm_ != MPI_COMM_NULL; }
  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }

 private:
  Comm(MPI_Comm comm, bool owning);
  void release() noexcept;

  MPI_Comm comm_ = MPI_COMM_NULL;
  bool owning_ = false;
  int rank_ = -1;
  int size_ = 0;
};

}  // namespace ferry
