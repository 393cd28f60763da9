// TimeTransform: what the source makes of the puts of one coupling period.
#pragma once

#include <cstdint>
#include <vector>

#include "config/config.hpp"
#include "ferry/datatype.hpp"

namespace ferry::coupling {

/// Accumulates the puts of one coupling period, point by point, for accumulate
/// (sum), average (sum / number of puts), min and max. Values are accumulated in
/// double precision whatever the field type, and converted back (integers rounded to
/// nearest) when the period's value is taken. Point-wise, so the result does not
/// depend on the decomposition.
class TimeTransform {
 public:
  TimeTransform() = default;
  /// `values`: this rank's values of the field (local points x bundle).
  TimeTransform(config::Transform kind, Datatype type, std::int64_t values);

  /// Feeds one put's values (`values` of the field's type).
  void add(const void* data);
  /// Writes the period's value into `out` (the field's type) and starts a new period.
  /// Needs at least one put since the last take().
  void take(void* out);
  /// Puts fed since the last take().
  int count() const noexcept { return count_; }

  /// The accumulator as doubles, for restart files, and its restoration.
  const std::vector<double>& state() const noexcept { return state_; }
  void restore(const std::vector<double>& state, int count);

 private:
  config::Transform kind_ = config::Transform::Instant;
  Datatype type_ = Datatype::Float64;
  std::vector<double> state_;
  int count_ = 0;
};

}  // namespace ferry::coupling
