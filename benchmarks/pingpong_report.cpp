#include "pingpong_report.hpp"

#include "json_line.hpp"
#include "text_table.hpp"
#include "util/format.hpp"

namespace ferry::bench {

std::string pingpong_json(const std::vector<PingpongRow>& rows, int ranks, int repeat,
                          const std::string& mpi_library) {
  std::string out;
  for (const PingpongRow& row : rows) {
    JsonLine json;
    json.add("bench", "pingpong")
        .add("ranks", ranks)
        .add("repeat", repeat)
        .add("bytes", row.bytes)
        .add("latency_s", row.latency_seconds)
        .add("latency_min_s", row.min_latency_seconds)
        .add("bandwidth_bytes_per_s", row.bandwidth_bytes_per_second)
        .add("mpi_library", mpi_library);
    out += json.str() + "\n";
  }
  return out;
}

std::string pingpong_table(const std::vector<PingpongRow>& rows, int ranks, int repeat,
                           const std::string& mpi_library) {
  TextTable table({"bytes", "latency_us", "min_us", "bandwidth_MB/s"});
  for (const PingpongRow& row : rows)
    table.add_row({std::to_string(row.bytes), fixed(row.latency_seconds * 1e6, 2),
                   fixed(row.min_latency_seconds * 1e6, 2),
                   fixed(row.bandwidth_bytes_per_second / 1e6, 1)});
  return detail::cat("ping-pong between ranks 0 and 1 (of ", ranks,
                     "), blocking MPI_Send/MPI_Recv, repeat ", repeat, "\nMPI: ", mpi_library,
                     "\n\n", table.str(),
                     "\nlatency = half the median round trip; bandwidth = bytes / latency.\n");
}

}  // namespace ferry::bench
