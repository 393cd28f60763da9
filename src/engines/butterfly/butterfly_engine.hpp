// butterfly: the data-transfer paper's butterfly kernel, with process mapping by
// iterative pairing and stages that can be skipped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engines/butterfly/hop_schedule.hpp"
#include "engines/field_set.hpp"
#include "engines/plan_copies.hpp"
#include "ferry/engine.hpp"

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
class ButterflyEngine final : public Engine {
 public:
  std::string_view name() const override { return "butterfly"; }
  Capabilities capabilities() const override {
    Capabilities c;
    c.independent_sides = false;
    return c;
  }
  void setup(const Plan& plan, const Comm& comm, const std::vector<FieldSpec>& fields,
             const EngineOptions& options) override;
  void begin(const void* const* src, void* const* dst, const std::uint8_t* mask) override;
  void end() override;
  bool test() override;
  Traffic traffic() const override;

 private:
  void start_hop(std::size_t h);
  void finish_hop(std::size_t h);

  const Plan* plan_ = nullptr;
  const Comm* comm_ = nullptr;
  FieldSet fields_;
  PlanCopies copies_;
  HopSchedule schedule_;
  std::vector<char> hold_[2];   // the data held between hops, alternating
  std::vector<char> staging_;   // messages made of several separate segments
  std::vector<MPI_Request> requests_;
  std::vector<const char*> src_;
  std::vector<char*> dst_;
  bool in_flight_ = false;
};

}  // namespace ferry::detail
