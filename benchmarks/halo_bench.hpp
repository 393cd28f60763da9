// `ferry bench halo`: ghost-cell exchanges on a geodesic mesh, timed per engine.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ferry/cell_partition.hpp"
#include "ferry/comm.hpp"
#include "ferry/engine.hpp"
#include "ferry/halo.hpp"
#include "statistics.hpp"
#include "traffic.hpp"

namespace ferry::bench {

struct HaloBenchConfig {
  std::int64_t cells = 40962;  ///< about this many cells (the nearest geodesic mesh)
  int levels = 36 * 35;        ///< float64 values per cell: FVWAM's directions x frequencies
  int depth = 1;
  PartitionMethod partition = PartitionMethod::Block;
  /// Deal the parts to ranks in a seeded random order instead of part p to rank p:
  /// the placement a reordering would have to repair.
  bool shuffle_parts = false;
  int repeat = 20;
};

/// One row: an engine and its options, e.g. neighbor with reorder=true.
struct HaloVariant {
  std::string label;  ///< "neighbor:reorder" for neighbor with reorder, else the engine name
  std::string engine;
  EngineOptions options;
};

/// What every row of a run shares: the mesh and its partition.
struct HaloRun {
  HaloBenchConfig config;
  int frequency = 0;
  std::int64_t cells = 0;
  std::int64_t edge_cut = 0;  ///< mesh edges between cells of different ranks
  int ranks = 0;
};

struct HaloRow {
  std::string label;
  double setup_seconds = 0;  ///< Halo construction (rings + plan + engine), slowest rank
  Summary exchange;
  TrafficSpread traffic;
  EngineReport report;  ///< the adaptive engine's choice; empty for the others
};

/// The rows, and the halo's shape (the same for every row) with its bound.
struct HaloResults {
  Spread ghosts;                       ///< ghost cells per rank (mean over all ranks)
  Spread peers;                        ///< ranks each rank receives from
  std::int64_t payload_bytes_max = 0;  ///< max over ranks of max(ghost bytes, bytes sent)
  Summary memcpy_bound;                ///< one memcpy of the largest rank payload
  std::vector<HaloRow> rows;
};

/// Collective over `comm` throughout; every rank gets the same results.
class HaloBench {
 public:
  /// Rank 0 builds the mesh and partitions it, then sends each rank its CellGraph
  /// (the other ranks hold only their part). Errc::Arg, on every rank, for settings
  /// this build or rank count cannot run (METIS missing, a bad size).
  HaloBench(MPI_Comm comm, const HaloBenchConfig& config);

  const HaloRun& run() const noexcept { return run_; }

  /// Builds a Halo per variant, exchanges once and checks every ghost value
  /// (Errc::Internal on every rank if one is wrong anywhere), lets the adaptive engine
  /// settle, then times the memcpy bound and every variant in rotation.
  HaloResults measure(const std::vector<HaloVariant>& variants);

 private:
  void check_ghosts(const Halo& halo, const std::vector<double>& values,
                    const std::string& label) const;

  Comm comm_;
  HaloRun run_;
  CellGraph graph_;
};

}  // namespace ferry::bench
