// LatitudeBands: the sphere cut into bands of latitude, one per rank, for the online weights.
#pragma once

#include <algorithm>
#include <cmath>

namespace ferry::regrid::detail {

/// `parts` latitude bands of equal width, south to north; band p lives on rank p.
/// band() never decreases with the latitude, so a latitude range [a, b] lies in
/// bands band(a) .. band(b).
class LatitudeBands {
 public:
  explicit LatitudeBands(int parts) : parts_(parts) {}
  int band(double lat) const {
    const auto b = static_cast<int>(std::floor((lat + 90) / 180 * parts_));
    return std::clamp(b, 0, parts_ - 1);
  }

 private:
  int parts_;
};

}  // namespace ferry::regrid::detail
