#include "config/config.hpp"

namespace ferry::config {

const char* transform_name(Transform transform) noexcept {
  switch (transform) {
    case Transform::Instant:
      return "instant";
    case Transform::Accumulate:
      return "accumulate";
    case Transform::Average:
      return "average";
    case Transform::Min:
      return "min";
    case Transform::Max:
      return "max";
  }
  return "instant";
}

}  // namespace ferry::config
