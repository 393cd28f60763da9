#include "pingpong.hpp"

#include "ferry/comm.hpp"
#include "statistics.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::bench {

namespace {
constexpr int kTag = 7201;
constexpr std::int64_t kSmallest = 8;
constexpr std::int64_t kLargest = std::int64_t{8} << 20;
}  // namespace

std::vector<std::int64_t> pingpong_sizes() {
  std::vector<std::int64_t> sizes;
  for (std::int64_t bytes = kSmallest; bytes <= kLargest; bytes *= 4) sizes.push_back(bytes);
  return sizes;
}

std::vector<PingpongRow> run_pingpong(MPI_Comm user_comm, int repeat) {
  const Comm comm = Comm::dup(user_comm);
  FERRY_CHECK(comm.size() >= 2, Errc::Arg, "run_pingpong: needs at least 2 ranks; got ",
              comm.size(), ". Run it as mpiexec -n 2 ferry bench pingpong");
  FERRY_CHECK(repeat >= 1, Errc::Arg, "run_pingpong: repeat must be >= 1; got ", repeat);

  std::vector<char> buffer(static_cast<std::size_t>(kLargest), 1);
  std::vector<PingpongRow> rows;
  for (std::int64_t bytes : pingpong_sizes()) {
    const int count = detail::mpi_count<int>(bytes, "ping-pong message bytes");
    auto round_trip = [&] {
      if (comm.rank() == 0) {
        FERRY_CALL_MPI(MPI_Send(buffer.data(), count, MPI_BYTE, 1, kTag, comm.get()));
        FERRY_CALL_MPI(
            MPI_Recv(buffer.data(), count, MPI_BYTE, 1, kTag, comm.get(), MPI_STATUS_IGNORE));
      } else if (comm.rank() == 1) {
        FERRY_CALL_MPI(
            MPI_Recv(buffer.data(), count, MPI_BYTE, 0, kTag, comm.get(), MPI_STATUS_IGNORE));
        FERRY_CALL_MPI(MPI_Send(buffer.data(), count, MPI_BYTE, 0, kTag, comm.get()));
      }
    };
    round_trip();  // warm-up: connection set-up and first touch are not latency
    FERRY_CALL_MPI(MPI_Barrier(comm.get()));
    // Rank 0 times each round trip on its own clock; it starts and ends each one.
    std::vector<double> samples;
    for (int r = 0; r < repeat; ++r) {
      const double start = MPI_Wtime();
      round_trip();
      samples.push_back(MPI_Wtime() - start);
    }
    const Summary trip = summarize(std::move(samples));
    double result[2] = {trip.median / 2, trip.min / 2};
    FERRY_CALL_MPI(MPI_Bcast(result, 2, MPI_DOUBLE, 0, comm.get()));
    rows.push_back({bytes, result[0], result[1],
                    result[0] > 0 ? static_cast<double>(bytes) / result[0] : 0.0});
  }
  return rows;
}

}  // namespace ferry::bench
