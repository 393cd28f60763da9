// AgreedSetup: an engine whose set-up agrees once, in the agreement of its Exchange.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/engine_options.hpp"
#include "ferry/plan.hpp"
#include "util/agree.hpp"

namespace ferry::detail {

/// What an AgreedSetup engine agrees on besides errors (kAnyValue where unused), and
/// its spread over the ranks.
using AgreedValues = std::array<std::int64_t, 2>;
using AgreedSpread = std::array<ValueSpread, 2>;

/// Implemented besides Engine by an engine whose setup() is prepare(), one
/// agree_with_spread of prepare()'s error and values, then finish(). An Exchange over
/// an ExchangeShare that gives the engine a tag range calls the two itself and agrees
/// on prepare()'s part together with its own checks (the fields'): one collective
/// round for both, on every entry an OASIS namcouple has between two partitions.
class AgreedSetup {
 public:
  virtual ~AgreedSetup() = default;
  /// Not collective: setup() up to its first collective call, reading every option.
  /// Raises what fails on this rank; returns the values to agree on.
  virtual AgreedValues prepare(const Plan& plan, const Comm& comm,
                               const std::vector<FieldSpec>& fields,
                               const EngineOptions& options) = 0;
  /// Collective, once no rank failed before or in prepare(): the rest of setup(), given
  /// the spread of prepare()'s values. Agrees itself on the errors it meets before its
  /// own collective calls; an error after the last one (a failed MPI call setting up
  /// messages to peers) is this rank's alone.
  virtual void finish(const AgreedSpread& agreed) = 0;
};

}  // namespace ferry::detail
