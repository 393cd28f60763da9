// `ferry bench collectives`: each all-to-all-v and all-reduce algorithm of
// ferry/collectives.hpp against its MPI collective, across sizes, at this rank count.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "size_sweep.hpp"
#include "statistics.hpp"

namespace ferry::bench {

/// One algorithm of one collective at one size. `bytes` is, for alltoallv, the
/// block each rank sends to each rank (itself included); for allreduce, the vector
/// each rank contributes. Both move float64 values.
struct CollectiveRow {
  std::string collective;  ///< "alltoallv" or "allreduce"
  std::int64_t bytes = 0;
  std::string algorithm;  ///< algorithm_name()
  Summary seconds;        ///< per call: slowest rank, over the samples
  double vs_mpi = 0;      ///< median / the MPI collective's median at the same size
};

/// Collective over `comm` (Errc::Arg on every rank for a bad sweep). For each
/// collective and size of the sweep, sets up every algorithm, checks its result
/// once against the exact expected values (integer-valued doubles, so every
/// algorithm must match MPI's bit for bit), then times them in turns, `repeat`
/// rounds. Returns the same rows on every rank, MPI's first for each size.
std::vector<CollectiveRow> run_collectives(MPI_Comm comm, const SweepConfig& config);

}  // namespace ferry::bench
