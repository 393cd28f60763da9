// The fields a benchmark moves: source values computed from (global id, field),
// destination buffers, and the check that every received value is right.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ferry/layout.hpp"

namespace ferry::bench {

/// The value field `field` of `fields` holds at global id `gid`: distinct for every
/// (id, field) pair and exact in a double for grids of up to 2^53 / fields points.
double field_value(std::int64_t gid, int field, int fields) noexcept;

/// `fields` float64 fields (one component) on this rank's source and destination layouts.
class FieldData {
 public:
  /// Not collective. Fills the source fields with field_value().
  FieldData(const Layout& src, const Layout& dst, int fields);
  // The pointer arrays point into this object's vectors: copying would alias them.
  FieldData(const FieldData&) = delete;
  FieldData& operator=(const FieldData&) = delete;

  /// Pointer arrays in the form Exchange::execute takes: one entry per field.
  const void* const* src() const noexcept { return src_ptr_.data(); }
  void* const* dst() noexcept { return dst_ptr_.data(); }
  int fields() const noexcept { return static_cast<int>(src_.size()); }

  /// Sets every destination value to one no source ever sends (-1).
  void clear_destination();
  /// Not collective: nullopt if every destination value is right, else a
  /// description of the first wrong one and how many are wrong on this rank.
  std::optional<std::string> first_mismatch() const;

 private:
  std::vector<std::int64_t> dst_ids_;
  std::vector<std::vector<double>> src_;
  std::vector<std::vector<double>> dst_;
  std::vector<const void*> src_ptr_;
  std::vector<void*> dst_ptr_;
};

}  // namespace ferry::bench
