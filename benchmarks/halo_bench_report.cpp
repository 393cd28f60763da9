#include "halo_bench_report.hpp"

#include <algorithm>

#include "engine_table.hpp"
#include "json_line.hpp"
#include "text_table.hpp"
#include "util/format.hpp"

namespace ferry::bench {

namespace {

// Set by CMake from the FERRY_HAVE_MPI_NEIGHBOR_PERSISTENT probe.
constexpr bool kPersistentNeighbor = FERRY_HAVE_MPI_NEIGHBOR_PERSISTENT;

const char* placement(const HaloRun& run) {
  return run.config.shuffle_parts ? "shuffled" : "ordered";
}

}  // namespace

std::string halo_json(const HaloRun& run, const HaloResults& results,
                      const std::string& mpi_library) {
  std::string out;
  for (const HaloRow& row : results.rows) {
    JsonLine json;
    json.add("bench", "halo")
        .add("engine", row.label)
        .add("ranks", run.ranks)
        .add("cells", run.cells)
        .add("frequency", run.frequency)
        .add("levels", run.config.levels)
        .add("depth", run.config.depth)
        .add("partition", partition_method_name(run.config.partition))
        .add("placement", placement(run))
        .add("edge_cut", run.edge_cut)
        .add("ghosts_per_rank_max", results.ghosts.max)
        .add("ghosts_per_rank_mean", results.ghosts.mean)
        .add("peers_per_rank_max", results.peers.max)
        .add("peers_per_rank_mean", results.peers.mean)
        .add("repeat", run.config.repeat)
        .add("setup_s", row.setup_seconds)
        .add_seconds("exchange", row.exchange)
        .add("memcpy_bound_s", results.memcpy_bound.median)
        .add("payload_bytes_max", results.payload_bytes_max);
    add_traffic(json, row.traffic)
        .add("verified", true)
        .add("mpi_library", mpi_library)
        .add("mpi_persistent_neighbor", kPersistentNeighbor);
    if (!row.report.choice.empty()) json.add("adaptive_choice", row.report.choice);
    out += json.str() + "\n";
  }
  return out;
}

std::string halo_table(const HaloRun& run, const HaloResults& results,
                       const std::string& mpi_library) {
  const double bound = results.memcpy_bound.median;
  std::vector<EngineTableRow> rows;
  for (const HaloRow& r : results.rows)
    rows.push_back({r.label, r.setup_seconds, r.exchange, r.traffic});

  std::string out = detail::cat(
      "halo: ", run.cells, " cells (geodesic mesh, frequency ", run.frequency, "), ",
      run.config.levels, " float64 values per cell, depth ", run.config.depth, "\n",
      "partition ", partition_method_name(run.config.partition), " (parts on ranks ",
      run.config.shuffle_parts ? "in shuffled order" : "in order", "), edge cut ", run.edge_cut,
      ", ranks ", run.ranks, ", repeat ", run.config.repeat, "\n", "ghost cells per rank: max ",
      results.ghosts.max, ", mean ", fixed(results.ghosts.mean, 1),
      "; ranks received from: max ", results.peers.max, ", mean ", fixed(results.peers.mean, 1),
      "\n", "MPI: ", mpi_library, "; persistent neighbourhood collectives: ",
      kPersistentNeighbor ? "yes" : "no (MPI_Neighbor_alltoallv_init is MPI-4)", "\n",
      "memcpy bound: ", milliseconds(bound), " ms (one memcpy of ",
      megabytes(static_cast<double>(results.payload_bytes_max)),
      " MB, the largest rank payload)\n\n");
  out += engine_table(rows, bound, "p2p");
  out += "msgs and MB: sent per rank and exchange (max over ranks, mean over sending ranks). "
         "Ghost values verified.\n";
  for (const HaloRow& r : results.rows)
    if (!r.report.text.empty()) out += "\n" + r.report.text;
  return out;
}

}  // namespace ferry::bench
