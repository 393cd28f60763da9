// ferry::Layout: which global ids of an index space one rank holds, in order.
#pragma once

#include <cstdint>
#include <vector>

namespace ferry {

/// A global index space of `global_size` ids (0 .. N-1) and the ordered list of
/// ids this rank holds. A layout is rank-local data: build it on every rank of
/// a group with the same arguments and that rank's `part`. The constructors are
/// pure (no MPI); the collective checks (ids in range, no id owned twice on the
/// source side) run when a Plan is built, and fail identically on every rank.
///
/// A rank that is not part of a group passes `Layout::none(n)`; a rank of the
/// group that happens to hold no ids has an empty layout (`member()` is true).
class Layout {
 public:
  Layout() = default;

  /// 1-D blocks: part p holds a contiguous run; the first N % parts parts hold one more id.
  static Layout block(std::int64_t global_size, int parts, int part);
  /// 2-D nx x ny grid (id = j*nx + i) cut into px x py rectangular blocks;
  /// part = block_j*px + block_i; ids are listed row by row inside the block.
  static Layout box(std::int64_t nx, std::int64_t ny, int px, int py, int part);
  /// Latitude bands: the ny rows of an nx x ny grid split into `parts` bands of whole rows.
  static Layout orange(std::int64_t nx, std::int64_t ny, int parts, int part);
  /// Ids dealt cyclically: part p holds p, p + parts, p + 2*parts, ...
  static Layout round_robin(std::int64_t global_size, int parts, int part);
  /// An explicit list of ids, in the order the rank stores them.
  static Layout points(std::int64_t global_size, std::vector<std::int64_t> ids);
  /// For tests: each id goes to a part chosen by a hash of (seed, id), and each part
  /// lists its ids in a seeded random order. Same seed, same layout on every rank.
  static Layout random(std::int64_t global_size, int parts, int part, std::uint64_t seed);
  /// This rank is not a member of the group (holds nothing, counts for nothing).
  static Layout none(std::int64_t global_size);

  std::int64_t global_size() const noexcept { return global_size_; }
  std::int64_t local_size() const noexcept { return static_cast<std::int64_t>(ids_.size()); }
  const std::vector<std::int64_t>& ids() const noexcept { return ids_; }
  bool member() const noexcept { return member_; }

 private:
  Layout(std::int64_t global_size, std::vector<std::int64_t> ids, bool member);

  std::int64_t global_size_ = 0;
  std::vector<std::int64_t> ids_;
  bool member_ = false;
};

}  // namespace ferry
