// Blocks: the 1-D block distribution of Layout::block, with the owner of any id in O(1).
#pragma once

#include <algorithm>
#include <cstdint>

namespace ferry::regrid::detail {

/// N ids cut into `parts` contiguous blocks, the first N % parts blocks one id longer:
/// exactly the parts of Layout::block(n, parts, p). Weights keep their rows and point
/// data this way, so any rank finds the holder of an id without asking anybody.
class Blocks {
 public:
  Blocks(std::int64_t n, int parts) : n_(n), base_(n / parts), extra_(n % parts) {}

  std::int64_t first(int part) const { return part * base_ + std::min<std::int64_t>(part, extra_); }
  std::int64_t count(int part) const { return base_ + (part < extra_ ? 1 : 0); }
  /// The part holding `id` (0 <= id < n).
  int owner(std::int64_t id) const {
    const std::int64_t long_ids = extra_ * (base_ + 1);
    if (id < long_ids) return static_cast<int>(id / (base_ + 1));
    return static_cast<int>(extra_ + (id - long_ids) / base_);
  }
  std::int64_t size() const { return n_; }

 private:
  std::int64_t n_;
  std::int64_t base_;
  std::int64_t extra_;
};

}  // namespace ferry::regrid::detail
