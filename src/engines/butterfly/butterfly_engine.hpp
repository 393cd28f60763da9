// butterfly: the data-transfer paper's butterfly kernel, with process mapping by
// iterative pairing and stages that can be skipped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engines/butterfly/hop_schedule.hpp"
#include "engines/field_engine.hpp"

namespace ferry::detail {

/// Moves a plan's data through the butterfly kernel (see hop_schedule.hpp for the
/// route). Option `stages`: "all" (default: every stage is a round of pairwise
/// exchange), "none" (every stage skipped: the plain point-to-point exchange), or one
/// character per stage, '1' to keep it and '0' to skip it, stage 0 first (e.g.
/// "101"); a skipped stage is merged into a neighbouring kept one, which then sends to
/// more partners per process in fewer rounds.
///
/// Split phase: begin() packs and runs every hop but the last; end() completes the
/// last hop and unpacks, so computation overlaps only the last hop.
class ButterflyEngine final : public FieldEngine {
 public:
  ButterflyEngine();
  void setup(const Plan& plan, const Comm& comm, const std::vector<FieldSpec>& fields,
             const EngineOptions& options) override;
  void begin(const void* const* src, void* const* dst, const std::uint8_t* mask) override;
  void end() override;
  bool test() override;
  Traffic traffic() const override;

 private:
  void start_hop(std::size_t h);
  void finish_hop(std::size_t h);

  HopSchedule schedule_;
  std::vector<char> hold_[2];   // the data held between hops, alternating
  std::vector<char> staging_;   // messages made of several separate segments
  std::vector<MPI_Request> requests_;
};

}  // namespace ferry::detail
