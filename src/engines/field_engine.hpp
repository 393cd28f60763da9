// FieldEngine: what every built-in engine that moves fields itself keeps and checks.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "engines/field_set.hpp"
#include "engines/plan_copies.hpp"
#include "ferry/engine.hpp"

namespace ferry::detail {

/// Base of the engines that move a plan's fields themselves (all built-in engines
/// but adaptive, which forwards to one of them): its name and capabilities, the plan
/// and communicator given to setup, the fields with the selection of the exchange in
/// flight (FieldSet), the copies between fields and per-peer blocks compiled for the
/// plan (PlanCopies), the field pointers of the exchange in flight, and the checks of
/// the call order, with the same messages for every engine. Nothing here allocates
/// after setup.
///
/// The two-sided engines build on PackedEngine, which adds the send and receive
/// buffers. butterfly and rma build on this class directly because their data does
/// not go from one packed send buffer to one receive buffer: butterfly forwards
/// segments through intermediate ranks, hop by hop, in hold buffers laid out by its
/// schedule; rma packs the blocks of on-node destinations straight into their
/// receive windows, and its receive buffer is window memory.
class FieldEngine : public Engine {
 public:
  std::string_view name() const final { return name_; }
  Capabilities capabilities() const final { return capabilities_; }
  /// One message per send peer carrying every field, in one round.
  Traffic traffic() const override;

 protected:
  FieldEngine(std::string_view name, Capabilities capabilities)
      : name_(name), capabilities_(capabilities) {}

  /// setup(): keeps `plan` and `comm` (which outlive the engine) and compiles the
  /// plan's copies. Errc::State if the engine was set up before. Not collective.
  void bind(const Plan& plan, const Comm& comm, std::size_t field_count);
  /// setup(): the fields' sizes (Errc::Arg for components < 1 or an unknown type).
  void assign_fields(const std::vector<FieldSpec>& fields) { fields_.assign(fields); }

  /// begin(): Errc::State before setup or while an exchange is in flight.
  void check_begin() const;
  /// begin(), after check_begin(): selects the fields of `mask` (nullptr = all), keeps
  /// the field pointers and marks the exchange in flight. True if the selection changed
  /// since the last exchange.
  bool open_exchange(const void* const* src, void* const* dst, const std::uint8_t* mask);
  /// end(): Errc::State unless an exchange is in flight; marks it complete.
  void close_exchange();
  /// test(): Errc::State unless an exchange is in flight.
  void check_in_flight() const;

  bool set_up() const noexcept { return plan_ != nullptr; }
  bool in_flight() const noexcept { return in_flight_; }
  const Plan& plan() const noexcept { return *plan_; }
  const Comm& communicator() const noexcept { return *comm_; }
  MPI_Comm comm() const noexcept { return comm_->get(); }
  FieldSet& fields() noexcept { return fields_; }
  const FieldSet& fields() const noexcept { return fields_; }
  const PlanCopies& copies() const noexcept { return *copies_; }
  /// Field pointers of the exchange in flight (null where the caller passed none).
  const char* const* src() const noexcept { return src_.data(); }
  char* const* dst() const noexcept { return dst_.data(); }

 private:
  std::string_view name_;
  Capabilities capabilities_;
  const Plan* plan_ = nullptr;
  const Comm* comm_ = nullptr;
  FieldSet fields_;
  // Shared with the other engines set up over the same plan.
  std::shared_ptr<const PlanCopies> copies_ = std::make_shared<const PlanCopies>();
  std::vector<const char*> src_;
  std::vector<char*> dst_;
  bool in_flight_ = false;
};

}  // namespace ferry::detail
