// The lower bound every exchange is compared with: one memcpy of a rank's payload.
#pragma once

#include <cstddef>
#include <vector>

#include "ferry/comm.hpp"
#include "statistics.hpp"

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

/// Collective over `comm`: the memcpy bound, one robust figure. Every rank copies its
/// `bytes` (buffers allocated and touched here, then a few warm-up copies, so the copy
/// is hot), `repeat` times, each after a barrier; a sample is the slowest rank's time.
/// Timed on its own, never in rotation with engines, so it is the same figure
/// whatever a run times besides: the same hot copy of the same bytes in every mode.
Summary time_payload_copy(const Comm& comm, std::size_t bytes, int repeat);

}  // namespace ferry::bench
