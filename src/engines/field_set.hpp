// The fields of one exchange: bytes per point, and which fields a mask selects.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ferry/datatype.hpp"

namespace ferry::detail {

/// Per-field element sizes and, for the current exchange, the active fields and
/// where each sits inside a peer's packed block (fields one after the other).
class FieldSet {
 public:
  /// Raises Errc::Arg for components < 1 or an unknown type.
  void assign(const std::vector<FieldSpec>& fields);
  /// Selects the fields moved by `mask` (nullptr = all). Allocation-free.
  /// Returns true if the selection changed since the last call.
  bool select(const std::uint8_t* mask);

  std::size_t size() const noexcept { return element_bytes_.size(); }
  /// Bytes of one point of field f (type size x components).
  std::size_t element_bytes(std::size_t f) const noexcept { return element_bytes_[f]; }
  /// Bytes of one point of every field together.
  std::size_t point_bytes_all() const noexcept { return point_bytes_all_; }
  /// Bytes of one point of the selected fields.
  std::size_t point_bytes() const noexcept { return point_bytes_; }
  bool active(std::size_t f) const noexcept { return active_[f] != 0; }
  bool all_active() const noexcept { return point_bytes_ == point_bytes_all_; }
  /// Bytes of the selected fields before field f, per point: field f of a block of
  /// `count` points starts at count * prefix_bytes(f).
  std::size_t prefix_bytes(std::size_t f) const noexcept { return prefix_[f]; }

 private:
  std::vector<std::size_t> element_bytes_;
  std::vector<std::uint8_t> active_;
  std::vector<std::size_t> prefix_;
  std::size_t point_bytes_all_ = 0;
  std::size_t point_bytes_ = 0;
};

}  // namespace ferry::detail
