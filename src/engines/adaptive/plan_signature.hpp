// The key of a tuning-cache entry: what decides which engine moves a plan fastest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/plan.hpp"

namespace ferry::detail {

/// Collective over `comm`. One line of "key=value" words, the same on every rank:
/// ranks, source and destination ranks, global points, bytes of one point of all
/// fields (`point_bytes`), messages per exchange (total, and the most one rank sends
/// or receives), bytes sent per exchange (total, and the most one rank sends), and
/// last the MPI library (the first line of MPI_Get_library_version; '|' becomes '/'
/// so the line stays a valid cache entry). One reduction.
std::string plan_signature(const Plan& plan, const Comm& comm, std::size_t point_bytes);

/// As above, and `also_max` (this rank's values in, the maxima over ranks out) rides
/// in the signature's reduction, so a caller needing a maximum pays no extra one.
std::string plan_signature(const Plan& plan, const Comm& comm, std::size_t point_bytes,
                           std::vector<std::int64_t>& also_max);

/// Not collective. The MPI library as the cache keys name it: the first line of
/// MPI_Get_library_version, '|' replaced by '/'.
std::string mpi_library();

}  // namespace ferry::detail
