#include "kernels_report.hpp"

#include "json_line.hpp"
#include "text_table.hpp"
#include "util/format.hpp"

namespace ferry::bench {

std::string kernels_json(const std::vector<KernelRow>& rows, int ranks,
                         const SweepConfig& config, const std::string& mpi_library) {
  std::string out;
  for (const KernelRow& row : rows) {
    JsonLine json;
    json.add("bench", "kernels")
        .add("ranks", ranks)
        .add("repeat", config.repeat)
        .add("bytes", row.bytes)
        .add("direction", direction_name(row.direction))
        .add("protocol", protocol_name(row.protocol))
        .add("median_s", row.seconds.median)
        .add("min_s", row.seconds.min)
        .add("max_s", row.seconds.max)
        .add("bandwidth_bytes_per_s", row.bandwidth_bytes_per_second)
        .add("x_blocking", row.vs_blocking)
        .add("verified", true)
        .add("mpi_library", mpi_library);
    out += json.str() + "\n";
  }
  return out;
}

std::string kernels_table(const std::vector<KernelRow>& rows, int ranks,
                          const SweepConfig& config, const std::string& mpi_library) {
  TextTable table({"bytes", "dir", "protocol", "median_us", "min_us", "MB/s", "x_blocking"});
  for (const KernelRow& row : rows)
    table.add_row({std::to_string(row.bytes), direction_name(row.direction),
                   protocol_name(row.protocol), fixed(row.seconds.median * 1e6, 2),
                   fixed(row.seconds.min * 1e6, 2),
                   fixed(row.bandwidth_bytes_per_second / 1e6, 1), fixed(row.vs_blocking, 2)});
  return detail::cat(
      "message kernels between ranks 0 and 1 (of ", ranks, "), repeat ", config.repeat,
      "\nMPI: ", mpi_library, "\n\n", table.str(),
      "\ntime per message, median over the samples: uni = half a round trip, bi = one swap\n"
      "(both ranks send and receive the bytes; MB/s counts both directions). x_blocking =\n"
      "median / blocking send/recv's median at the same size and direction. Every message\n"
      "was checked on arrival.\n");
}

}  // namespace ferry::bench
