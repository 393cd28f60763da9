#include "collectives_report.hpp"

#include "json_line.hpp"
#include "text_table.hpp"
#include "util/format.hpp"

namespace ferry::bench {

std::string collectives_json(const std::vector<CollectiveRow>& rows, int ranks,
                             const SweepConfig& config, const std::string& mpi_library) {
  std::string out;
  for (const CollectiveRow& row : rows) {
    JsonLine json;
    json.add("bench", "collectives")
        .add("ranks", ranks)
        .add("repeat", config.repeat)
        .add("collective", row.collective)
        .add("bytes", row.bytes)
        .add("algorithm", row.algorithm)
        .add("median_s", row.seconds.median)
        .add("min_s", row.seconds.min)
        .add("max_s", row.seconds.max)
        .add("x_mpi", row.vs_mpi)
        .add("verified", true)
        .add("mpi_library", mpi_library);
    out += json.str() + "\n";
  }
  return out;
}

std::string collectives_table(const std::vector<CollectiveRow>& rows, int ranks,
                              const SweepConfig& config, const std::string& mpi_library) {
  TextTable table({"collective", "bytes", "algorithm", "median_us", "min_us", "x_mpi"});
  for (const CollectiveRow& row : rows)
    table.add_row({row.collective, std::to_string(row.bytes), row.algorithm,
                   fixed(row.seconds.median * 1e6, 2), fixed(row.seconds.min * 1e6, 2),
                   fixed(row.vs_mpi, 2)});
  return detail::cat(
      "collective algorithms on ", ranks, " ranks, float64 values, repeat ", config.repeat,
      "\nMPI: ", mpi_library, "\n\n", table.str(),
      "\nbytes: alltoallv, the block each rank sends each rank; allreduce, each rank's vector.\n"
      "Time per call, the slowest rank's, median over the samples; x_mpi = median / the MPI\n"
      "collective's median at the same size. Every algorithm's result was checked exactly.\n");
}

}  // namespace ferry::bench
