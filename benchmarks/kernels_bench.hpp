// `ferry bench kernels`: the time of one message between two ranks for every
// protocol, size and direction (the PCCM study's COMMTEST, its Fig. 2).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "size_sweep.hpp"
#include "statistics.hpp"
#include "transfer_protocols.hpp"

namespace ferry::bench {

/// One protocol at one size and direction. Times are per message: half a round
/// trip one way, one swap both ways (each rank sending and receiving `bytes`).
struct KernelRow {
  std::int64_t bytes = 0;
  Direction direction = Direction::Unidirectional;
  Protocol protocol = Protocol::Blocking;
  Summary seconds;  ///< over the samples
  /// Bytes moved per second at the median: `bytes` one way, 2 `bytes` both ways.
  double bandwidth_bytes_per_second = 0;
  double vs_blocking = 0;  ///< median / blocking's median at the same size and direction
};

/// Collective over `comm` (at least 2 ranks; Errc::Arg otherwise, or for a bad
/// sweep). Ranks 0 and 1 move the messages; the others wait. For each size of the
/// sweep and direction the protocols take turns, `repeat` rounds, each sample
/// timing (the slower of the two ranks' clocks) enough messages to move about
/// 1 MiB, 1 to 100. Every message's stamps are checked, and every byte of each
/// protocol's warm-up message and of the last one (see TransferPair). Every rank
/// returns rank 0's rows: sizes ascending, one way first, protocols in
/// all_protocols() order (blocking first).
std::vector<KernelRow> run_kernels(MPI_Comm comm, const SweepConfig& config);

}  // namespace ferry::bench
