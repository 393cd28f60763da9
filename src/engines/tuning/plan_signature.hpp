// The key of a tuning-cache entry: what decides which engine moves a plan fastest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/plan.hpp"

namespace ferry::detail {

/// A plan's signature, and what else its reduction found.
struct PlanSignature {
  /// One line of "key=value" words, the same on every rank: ranks, source and
  /// destination ranks, global points, bytes of one point of all fields, messages per
  /// exchange (total, and the most one rank sends or receives), bytes sent per
  /// exchange (total, and the most one rank sends), and last the MPI library.
  std::string text;
  int involved_ranks = 0;  ///< ranks that send or receive (the butterfly's N_T)
};

/// Collective over `comm`: one reduction. `also_max` (this rank's values in, the
/// maxima over ranks out) rides in it, so a caller needing maxima pays no extra one.
PlanSignature plan_signature(const Plan& plan, const Comm& comm, std::size_t point_bytes,
                             std::vector<std::int64_t>& also_max);

/// Not collective. A test that is false for a signature that cannot be
/// plan_signature() of `plan` on `comm` with `point_bytes`, judged by the words every
/// rank knows without communicating (ranks, points, point bytes, MPI library).
std::function<bool(const std::string& signature)> signature_filter(const Plan& plan,
                                                                   const Comm& comm,
                                                                   std::size_t point_bytes);

/// Not collective. The MPI library as the cache keys name it: the first line of
/// MPI_Get_library_version, '|' replaced by '/'.
std::string mpi_library();

}  // namespace ferry::detail
