#include "coupling/time_transform.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "util/check.hpp"

namespace ferry::coupling {

namespace {

double load(const void* data, Datatype type, std::size_t i) {
  switch (type) {
    case Datatype::Float64: {
      double v;
      std::memcpy(&v, static_cast<const char*>(data) + i * sizeof v, sizeof v);
      return v;
    }
    case Datatype::Float32: {
      float v;
      std::memcpy(&v, static_cast<const char*>(data) + i * sizeof v, sizeof v);
      return v;
    }
    case Datatype::Int32: {
      std::int32_t v;
      std::memcpy(&v, static_cast<const char*>(data) + i * sizeof v, sizeof v);
      return v;
    }
    case Datatype::Int64: {
      std::int64_t v;
      std::memcpy(&v, static_cast<const char*>(data) + i * sizeof v, sizeof v);
      return static_cast<double>(v);
    }
  }
  return 0;
}

void store(void* data, Datatype type, std::size_t i, double value) {
  char* at = static_cast<char*>(data);
  switch (type) {
    case Datatype::Float64: std::memcpy(at + i * 8, &value, 8); break;
    case Datatype::Float32: {
      const auto v = static_cast<float>(value);
      std::memcpy(at + i * 4, &v, 4);
      break;
    }
    case Datatype::Int32: {
      const auto v = static_cast<std::int32_t>(std::llround(value));
      std::memcpy(at + i * 4, &v, 4);
      break;
    }
    case Datatype::Int64: {
      const auto v = static_cast<std::int64_t>(std::llround(value));
      std::memcpy(at + i * 8, &v, 8);
      break;
    }
  }
}

}  // namespace

TimeTransform::TimeTransform(config::Transform kind, Datatype type, std::int64_t values)
    : kind_(kind), type_(type), state_(static_cast<std::size_t>(values), 0.0) {}

void TimeTransform::add(const void* data) {
  for (std::size_t i = 0; i < state_.size(); ++i) {
    const double v = load(data, type_, i);
    double& s = state_[i];
    switch (kind_) {
      case config::Transform::Instant: s = v; break;
      case config::Transform::Accumulate:
      case config::Transform::Average: s = count_ == 0 ? v : s + v; break;
      case config::Transform::Min: s = count_ == 0 ? v : std::min(s, v); break;
      case config::Transform::Max: s = count_ == 0 ? v : std::max(s, v); break;
    }
  }
  ++count_;
}

void TimeTransform::take(void* out) {
  FERRY_ASSERT(count_ > 0, "time transform taken without any put");
  const double divisor = kind_ == config::Transform::Average ? static_cast<double>(count_) : 1.0;
  for (std::size_t i = 0; i < state_.size(); ++i) store(out, type_, i, state_[i] / divisor);
  count_ = 0;
}

void TimeTransform::restore(const std::vector<double>& state, int count) {
  FERRY_ASSERT(state.size() == state_.size(), "restored transform of ", state.size(),
               " values for ", state_.size());
  state_ = state;
  count_ = count;
}

}  // namespace ferry::coupling
