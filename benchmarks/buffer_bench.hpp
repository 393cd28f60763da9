// `ferry bench buffer`: the data-buffer benchmark of CoToCoA (Zhou, Fukazawa and
// Nanri, Table 2) on this machine: one requester rank writes a square int32 array
// per step, one worker rank reads its central sub-array, N x 100 steps for N = 1..10.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ferry::bench {

/// The run. Defaults are the paper's: a 900 x 900 array, the 600 x 600 sub-array
/// from (150, 150), N x 100 steps for N = 1 .. 10.
struct BufferBenchConfig {
  std::int64_t size = 900;          ///< the array is size x size; the sub-array is the middle 2/3
  int max_n = 10;                   ///< runs N = 1 .. max_n ...
  int steps_per_n = 100;            ///< ... of N x steps_per_n steps each
  std::int64_t capacity_mib = 256;  ///< the buffer's ring on the requester rank
  int repeat = 1;                   ///< runs of every method at every N; rows give medians
};

/// One way of moving the steps, at one N. Times are seconds per step.
struct BufferBenchRow {
  /// memcpy and ring-copy are the requester's bounds: a memcpy of the step to one
  /// fixed place, and to the next slot of a private ring as large as the buffer's;
  /// ring-stream is ring-copy with the streaming copy that load() uses for large
  /// steps, and ring-huge is ring-stream on a ring advised for transparent huge
  /// pages. two-sided, one-sided and buffer move the steps to the worker.
  std::string method;
  int n = 0;
  std::int64_t steps = 0;
  /// Requester time spent on moving data per step (median and mean over the steps):
  /// the copy (bounds), Isend + Wait (two-sided), waiting for the worker's get
  /// before overwriting (one-sided), load() including lossless waits (buffer).
  double requester_median_seconds = 0;
  double requester_mean_seconds = 0;
  /// Worker communication time per step, waiting for the requester excluded:
  /// Irecv + Wait, MPI_Get + flush, or the transfer part of read().
  double worker_seconds = 0;
  /// Steps moved per message (two-sided) or per MPI_Get of step data.
  double steps_per_call = 0;
  /// The two bounds' median per step at this N, for the ratios.
  double memcpy_seconds = 0;
  double ring_copy_seconds = 0;
  /// ring-huge: the share of its ring the kernel put on huge pages (0 elsewhere).
  double huge_page_share = 0;
};

/// Collective over `comm`, which must have exactly 2 ranks (Errc::Arg otherwise):
/// rank 0 is the requester, rank 1 the worker. For each N, runs the four bounds and
/// the three methods in rotation, `repeat` times, and reports the median of each
/// number over the runs; every run starts with untimed warm-up steps. The worker
/// checks sampled values of every step it receives (Errc::Internal on a wrong
/// value). Every rank returns the same rows.
std::vector<BufferBenchRow> run_buffer_bench(MPI_Comm comm, const BufferBenchConfig& config);

/// One JSON object per row and line.
std::string buffer_bench_json(const std::vector<BufferBenchRow>& rows,
                              const BufferBenchConfig& config, const std::string& mpi_library);
/// A header and an aligned table (microseconds per step).
std::string buffer_bench_table(const std::vector<BufferBenchRow>& rows,
                               const BufferBenchConfig& config, const std::string& mpi_library);

}  // namespace ferry::bench
