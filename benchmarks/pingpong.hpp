// `ferry bench pingpong`: latency and bandwidth of blocking send/recv between two ranks.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace ferry::bench {

/// One message size: latency is half the median round trip; bandwidth is
/// bytes / latency.
struct PingpongRow {
  std::int64_t bytes = 0;
  double latency_seconds = 0;
  double min_latency_seconds = 0;
  double bandwidth_bytes_per_second = 0;
};

/// The message sizes measured: 8 B, 32 B, ... 8 MiB (powers of 4).
std::vector<std::int64_t> pingpong_sizes();

/// Collective over `comm` (at least 2 ranks; Errc::Arg otherwise). Ranks 0 and 1
/// bounce each message `repeat` times after one warm-up round trip; other ranks
/// wait. Every rank returns rank 0's results.
std::vector<PingpongRow> run_pingpong(MPI_Comm comm, int repeat);

}  // namespace ferry::bench
