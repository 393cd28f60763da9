// CopyRuns: an index mapping compiled once into runs of constant stride.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace ferry::detail {

/// The copy to[i] <- from[i], i < count, of fixed-size elements, where `from` and
/// `to` are index lists (nullptr = the identity i). Compiled at setup into runs of
/// constant stride, so the copy reads no index at all for regular layouts (blocks,
/// boxes, round-robin), and a unit-stride run is one memcpy. Lists too irregular
/// for runs to pay off (random layouts) are copied through the indices, which must
/// then outlive this object (they live in the Plan).
class CopyRuns {
 public:
  /// `length` positions start, start + stride, ...: an index list given by its runs.
  struct Strided {
    std::int64_t start, stride, length;
  };

  CopyRuns() = default;
  CopyRuns(const std::int64_t* from, const std::int64_t* to, std::int64_t count);
  /// The same copy with `to` given as strided runs (their lengths sum to `count`): the
  /// same runs as from the list they stand for, without the list. Empty if the copy is
  /// too irregular for runs (it then needs the list, which the caller must make).
  static std::optional<CopyRuns> from_strided(const std::int64_t* from,
                                               const std::vector<Strided>& to,
                                               std::int64_t count);
  /// `index[0 .. count)` as strided runs, each as long as it can be.
  static std::vector<Strided> strided_runs(const std::int64_t* index, std::int64_t count);

  /// to_base[to(i)] = from_base[from(i)] for elements of `element_bytes` bytes.
  void apply(char* to_base, const char* from_base, std::size_t element_bytes) const;

  std::int64_t count() const noexcept { return count_; }
  /// Number of runs, or 0 when copying through the indices.
  std::size_t run_count() const noexcept { return runs_.size(); }

 private:
  struct Run {
    std::int64_t from, from_stride, to, to_stride, length;
  };
  // Compiles the runs; false (and no runs) if they would be too short to pay off.
  template <class From, class To>
  bool compile(From from, To to, std::int64_t count);
  std::vector<Run> runs_;
  const std::int64_t* from_ = nullptr;
  const std::int64_t* to_ = nullptr;
  std::int64_t count_ = 0;
};

}  // namespace ferry::detail
