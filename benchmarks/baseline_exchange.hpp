// The reference every engine is compared with: the exchange a competent user
// writes by hand with Isend/Irecv, using ferry only to learn who sends what.
#pragma once

#include <mpi.h>

#include <vector>

#include "ferry/comm.hpp"
#include "ferry/engine.hpp"
#include "ferry/layout.hpp"
#include "ferry/plan.hpp"

namespace ferry::bench {

/// The row name of the hand-written reference in benchmark reports.
inline constexpr const char* kBaselineName = "baseline";

/// Moves `fields` float64 fields (one component) from `src` to `dst` with one
/// message per peer: pack every field of the peer's points, Irecv/Isend, copy the
/// rank's own points, Waitall, unpack. Buffers are allocated once here; no
/// persistent requests, no contiguous-run shortcuts, no overlap tricks.
class BaselineExchange {
 public:
  /// Collective over `comm` (duplicated): builds the plan and the buffers.
  BaselineExchange(MPI_Comm comm, const Layout& src, const Layout& dst, int fields);

  /// Collective. src[f] / dst[f]: field f's values on this rank's source / destination layout.
  void execute(const void* const* src, void* const* dst);

  const Plan& plan() const noexcept { return plan_; }
  /// One message per send peer, every field in it.
  Traffic traffic() const;
  /// Seconds spent building the plan and the buffers on this rank.
  double setup_seconds() const noexcept { return setup_seconds_; }

 private:
  Comm comm_;
  Plan plan_;
  int fields_ = 0;
  std::vector<double> send_;
  std::vector<double> recv_;
  std::vector<MPI_Request> requests_;
  double setup_seconds_ = 0;
};

}  // namespace ferry::bench
