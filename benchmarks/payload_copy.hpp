// The lower bound every exchange is compared with: one memcpy of a rank's payload.
#pragma once

#include <cstddef>
#include <vector>

namespace ferry::bench {

/// Copies `bytes` (a rank's payload) once per run(). No exchange can move a
/// rank's data faster than the rank can copy it once, so the slowest rank's copy
/// time bounds every engine from below.
class PayloadCopy {
 public:
  /// Not collective. Allocates and touches both buffers.
  explicit PayloadCopy(std::size_t bytes);
  /// Not collective: one memcpy of the payload.
  void run();

 private:
  std::vector<char> from_;
  std::vector<char> to_;
};

}  // namespace ferry::bench
