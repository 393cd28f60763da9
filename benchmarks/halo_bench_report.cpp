#include "halo_bench_report.hpp"

#include <algorithm>

#include "json_line.hpp"
#include "text_table.hpp"
#include "util/format.hpp"

namespace ferry::bench {

namespace {

// Set by CMake from the FERRY_HAVE_MPI_NEIGHBOR_PERSISTENT probe.
constexpr bool kPersistentNeighbor = FERRY_HAVE_MPI_NEIGHBOR_PERSISTENT;

std::string ms(double seconds) { return fixed(seconds * 1e3, 4); }
std::string megabytes(double bytes) { return fixed(bytes / 1e6, 3); }
std::string ratio(double value, double reference) {
  return reference > 0 ? fixed(value / reference, 2) : "-";
}
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
  const std::vector<HaloRow>& rows = results.rows;
  const auto p2p = std::find_if(rows.begin(), rows.end(), [](const HaloRow& r) {
    return r.label == "p2p";
  });
  const bool has_p2p = p2p != rows.end();
  const double bound = results.memcpy_bound.median;

  std::vector<std::string> header = {"engine", "setup_ms", "median_ms", "min_ms", "max_ms",
                                     "x_memcpy"};
  if (has_p2p) header.push_back("x_p2p");
  for (const char* column : {"msgs_max", "msgs_mean", "MB_max", "MB_mean"})
    header.push_back(column);
  TextTable table(header);
  for (const HaloRow& r : rows) {
    std::vector<std::string> row = {r.label,           ms(r.setup_seconds),
                                    ms(r.exchange.median), ms(r.exchange.min),
                                    ms(r.exchange.max), ratio(r.exchange.median, bound)};
    if (has_p2p) row.push_back(ratio(r.exchange.median, p2p->exchange.median));
    row.push_back(std::to_string(r.traffic.messages.max));
    row.push_back(fixed(r.traffic.messages.mean, 1));
    row.push_back(megabytes(static_cast<double>(r.traffic.bytes.max)));
    row.push_back(megabytes(r.traffic.bytes.mean));
    table.add_row(std::move(row));
  }

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
      "memcpy bound: ", ms(bound), " ms (one memcpy of ",
      megabytes(static_cast<double>(results.payload_bytes_max)),
      " MB, the largest rank payload)\n\n");
  out += table.str();
  out += "\nTimes per exchange, slowest rank, over the repeats (engines and bound timed in "
         "rotation); x_memcpy = median / memcpy bound";
  if (has_p2p) out += "; x_p2p = median / p2p median";
  out += ".\nmsgs and MB: sent per rank and exchange (max over ranks, mean over sending ranks). "
         "Ghost values verified.\n";
  for (const HaloRow& r : rows)
    if (!r.report.text.empty()) out += "\n" + r.report.text;
  return out;
}

}  // namespace ferry::bench
