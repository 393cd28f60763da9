// IdSet: a set of global ids within a range, as bits, with each id's place in O(1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ferry::regrid::detail {

/// The ids of [first, first + span) a search marks, one bit each. Replaces a sort
/// and unique of the marked ids (ids() lists them ascending) and a binary search
/// among them (position()). Memory: about 2 bits per id of the range.
class IdSet {
 public:
  IdSet(std::int64_t first, std::int64_t span);

  /// Marks `id` (first <= id < first + span); marking it again changes nothing.
  void insert(std::int64_t id) {
    const std::uint64_t at = offset(id);
    words_[at / 64] |= std::uint64_t{1} << (at % 64);
  }
  bool contains(std::int64_t id) const {
    const std::uint64_t at = offset(id);
    return (words_[at / 64] >> (at % 64)) & 1;
  }
  /// The marked ids, ascending. Also counts them for position(): insert nothing after.
  std::vector<std::int64_t> ids();
  /// The place of marked `id` in ids().
  std::size_t position(std::int64_t id) const {
    const std::uint64_t at = offset(id);
    const std::uint64_t below = words_[at / 64] & ((std::uint64_t{1} << (at % 64)) - 1);
    return before_[at / 64] + static_cast<std::size_t>(__builtin_popcountll(below));
  }

 private:
  std::uint64_t offset(std::int64_t id) const { return static_cast<std::uint64_t>(id - first_); }

  std::int64_t first_;
  std::vector<std::uint64_t> words_;
  std::vector<std::size_t> before_;  // marked ids in the words before each word
};

}  // namespace ferry::regrid::detail
