// PlanCopies: every local copy an engine makes for a plan, compiled once.
#pragma once

#include <vector>

#include "engines/copy_runs.hpp"
#include "engines/field_set.hpp"
#include "ferry/plan.hpp"

namespace ferry::detail {

/// The copies between user fields and per-peer blocks (and the rank's own points)
/// of one plan. A block holds the active fields one after the other: field f of a
/// block of `count` points starts at count * FieldSet::prefix_bytes(f).
class PlanCopies {
 public:
  PlanCopies() = default;
  explicit PlanCopies(const Plan& plan);

  /// Gathers send peer k's points of every active field into `block`.
  void pack(std::size_t k, const FieldSet& fields, const char* const* src, char* block) const;
  /// Scatters receive peer k's `block` into every active field.
  void unpack(std::size_t k, const FieldSet& fields, const char* block, char* const* dst) const;
  /// Copies the rank's own points of every active field from src to dst.
  void copy_self(const FieldSet& fields, const char* const* src, char* const* dst) const;

 private:
  std::vector<CopyRuns> send_;
  std::vector<CopyRuns> recv_;
  CopyRuns self_;
};

}  // namespace ferry::detail
