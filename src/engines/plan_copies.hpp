// PlanCopies: every local copy an engine makes for a plan, compiled once.
#pragma once

#include <memory>
#include <vector>

#include "engines/copy_runs.hpp"
#include "engines/field_set.hpp"
#include "ferry/comm.hpp"
#include "ferry/plan.hpp"

namespace ferry::detail {

/// The copies between user fields and per-peer blocks (and the rank's own points)
/// of one plan. A block holds the active fields one after the other: field f of a
/// block of `count` points starts at count * FieldSet::prefix_bytes(f). The rank's
/// own points can also wait in a block of their own, laid out the same way (an
/// engine holding fields between a caller's calls keeps them there).
class PlanCopies {
 public:
  PlanCopies() = default;
  explicit PlanCopies(const Plan& plan);

  /// The copies of `plan`, compiled by the first engine set up over it (or a copy of it
  /// sharing its index lists) on the ranks of `comm` and kept in the plan's cache: the
  /// entries of a coupler that share a plan compile it once. Local, no MPI traffic.
  static std::shared_ptr<const PlanCopies> shared(const Plan& plan, const Comm& comm);

  /// Gathers send peer k's points of every active field into `block`.
  void pack(std::size_t k, const FieldSet& fields, const char* const* src, char* block) const;
  /// Scatters receive peer k's `block` into every active field.
  void unpack(std::size_t k, const FieldSet& fields, const char* block, char* const* dst) const;
  /// Copies the rank's own points of every active field from src to dst.
  void copy_self(const FieldSet& fields, const char* const* src, char* const* dst) const;

  /// The same for field f alone (placed in the block as if every active field were).
  void pack_field(std::size_t k, const FieldSet& fields, std::size_t f, const char* src,
                  char* block) const;
  void unpack_field(std::size_t k, const FieldSet& fields, std::size_t f, const char* block,
                    char* dst) const;
  void copy_self_field(const FieldSet& fields, std::size_t f, const char* src, char* dst) const;

  /// The rank's own points of field f into, and out of, a block of self_count() points.
  void pack_self_field(const FieldSet& fields, std::size_t f, const char* src, char* block) const;
  void unpack_self_field(const FieldSet& fields, std::size_t f, const char* block,
                         char* dst) const;
  std::int64_t self_count() const noexcept { return self_.count(); }

 private:
  // True if these copies read the index lists of `plan` (they keep pointers into them).
  bool reads(const Plan& plan) const noexcept;

  const std::int64_t* compiled_from_[4] = {nullptr, nullptr, nullptr, nullptr};
  std::vector<CopyRuns> send_;
  std::vector<CopyRuns> recv_;
  CopyRuns self_;
  CopyRuns self_to_block_;
  CopyRuns self_from_block_;
};

}  // namespace ferry::detail
