// The collective set-up of a TimeSeriesBuffer over its parent communicator, and
// what every rank knows about the buffer afterwards.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "buffer/buffer_window.hpp"
#include "buffer/ring_layout.hpp"
#include "ferry/comm.hpp"
#include "ferry/time_series_buffer.hpp"

namespace ferry::detail {

/// What one rank brings to the set-up: a requester its array, box, type, capacity
/// and mode; a worker the index of its group.
struct BufferRole {
  bool requester = false;
  std::vector<std::int64_t> shape;
  Box box;
  Datatype type = Datatype::Float64;
  Capacity capacity = Capacity::steps(1);
  BufferMode mode = BufferMode::Lossless;
  int group = -1;
};

/// A requester rank as every rank of the parent knows it.
struct RequesterRank {
  int rank = 0;  ///< in the parent communicator
  Box box;
  std::int64_t slot_bytes = 0;  ///< one step of its box
};

/// The buffer's shared facts and its window. Requester ranks and the readers of
/// worker ranks hold it through a shared_ptr; the window lives until free() (or, if
/// never freed, until MPI_Finalize).
class BufferConnection {
 public:
  /// Collective over `parent`. Checks every rank's role (errors agreed across the
  /// parent), exchanges the requester boxes, sizes the rings and creates the window.
  BufferConnection(MPI_Comm parent, const BufferRole& role);

  const Comm& parent() const noexcept { return parent_; }
  /// The requester ranks only (MPI_COMM_NULL on worker ranks).
  const Comm& requester_comm() const noexcept { return requester_comm_; }
  bool is_requester() const noexcept { return group_ < 0; }
  /// This worker rank's group; -1 on requester ranks.
  int group() const noexcept { return group_; }
  int groups() const noexcept { return layout_.groups; }
  /// Ranks of the parent that connected as workers of `group`.
  int group_size(int group) const { return group_sizes_.at(static_cast<std::size_t>(group)); }

  const std::vector<std::int64_t>& shape() const noexcept { return shape_; }
  Datatype type() const noexcept { return type_; }
  BufferMode mode() const noexcept { return mode_; }
  const RingLayout& layout() const noexcept { return layout_; }
  const std::vector<RequesterRank>& requesters() const noexcept { return requesters_; }
  const BufferWindow& window() const noexcept { return window_; }
  /// Collective over the parent, idempotent: frees the window (BufferWindow::free).
  void free() { window_.free(); }
  bool freed() const noexcept { return !window_.valid(); }

  /// Worker ranks: whether this rank's group has attached (rank-local record).
  bool attached() const noexcept { return attached_; }
  void mark_attached() noexcept { attached_ = true; }

 private:
  void adopt_roles(const std::vector<std::int64_t>& records);
  void size_rings(std::int64_t capacity_value, bool capacity_in_steps);

  Comm parent_;
  Comm requester_comm_;
  int group_ = -1;
  std::vector<int> group_sizes_;
  std::vector<std::int64_t> shape_;
  Datatype type_ = Datatype::Float64;
  BufferMode mode_ = BufferMode::Lossless;
  RingLayout layout_;
  std::vector<RequesterRank> requesters_;
  BufferWindow window_;
  bool attached_ = false;
};

}  // namespace ferry::detail
