#include "kernels_bench.hpp"

#include <algorithm>
#include <functional>
#include <optional>

#include "ferry/comm.hpp"
#include "progress.hpp"
#include "timing.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::bench {

namespace {

// A sample moves about this many bytes (at least one message, at most kMostMessages),
// so small messages are timed over many round trips rather than one clock tick.
constexpr std::int64_t kSampleBytes = std::int64_t{1} << 20;
constexpr std::int64_t kMostMessages = 100;
constexpr int kFieldsPerRow = 5;  // median, min, max, bandwidth, vs_blocking

// The rows of ranks 0 and 1 (measured on `pair`), for one size and direction.
std::vector<KernelRow> measure(const Comm& pair, TransferPair& transfers, std::int64_t bytes,
                               Direction direction, int repeat) {
  const std::int64_t messages = std::clamp(kSampleBytes / bytes, std::int64_t{1}, kMostMessages);
  const std::vector<Protocol> protocols = all_protocols();
  std::vector<std::function<void()>> steps;
  for (Protocol protocol : protocols)
    steps.emplace_back([&, protocol] {
      for (std::int64_t m = 0; m < messages; ++m) transfers.run(protocol, direction, bytes);
    });
  for (Protocol protocol : protocols) {  // warm-up: first touch, connections, windows
    transfers.run(protocol, direction, bytes);
    detail::agree_on(pair, [&] { transfers.verify(bytes); });
  }
  const std::vector<Summary> summaries = time_in_rotation(pair, repeat, steps);
  detail::agree_on(pair, [&] { transfers.verify(bytes); });

  // A round trip carries two one-way messages; a swap is one message each way.
  const double per_sample = static_cast<double>(messages) *
                            (direction == Direction::Unidirectional ? 2.0 : 1.0);
  const double moved = static_cast<double>(bytes) *
                       (direction == Direction::Unidirectional ? 1.0 : 2.0);
  std::vector<KernelRow> rows;
  for (std::size_t k = 0; k < protocols.size(); ++k) {
    KernelRow row;
    row.bytes = bytes;
    row.direction = direction;
    row.protocol = protocols[k];
    row.seconds = {summaries[k].median / per_sample, summaries[k].min / per_sample,
                   summaries[k].max / per_sample};
    row.bandwidth_bytes_per_second = row.seconds.median > 0 ? moved / row.seconds.median : 0;
    row.vs_blocking = summaries[0].median > 0 ? summaries[k].median / summaries[0].median : 0;
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

std::vector<KernelRow> run_kernels(MPI_Comm user_comm, const SweepConfig& config) {
  const Comm comm = Comm::dup(user_comm);
  detail::agree_on(comm, [&] {
    FERRY_CHECK(comm.size() >= 2, Errc::Arg, "bench kernels: needs at least 2 ranks; got ",
                comm.size(), ". Run it as mpiexec -n 2 ferry bench kernels");
    check_sweep(config, "bench kernels");
  });
  MPI_Comm split = MPI_COMM_NULL;
  FERRY_CALL_MPI(
      MPI_Comm_split(comm.get(), comm.rank() < 2 ? 0 : MPI_UNDEFINED, comm.rank(), &split));
  const Comm pair = Comm::adopt(split);

  const std::vector<std::int64_t> sizes = sweep_sizes(config.max_bytes);
  std::optional<TransferPair> transfers;
  if (pair.valid()) transfers.emplace(pair, sizes.back());
  std::vector<KernelRow> rows;
  for (std::int64_t bytes : sizes)
    for (Direction direction : {Direction::Unidirectional, Direction::Bidirectional}) {
      progress().stage(detail::cat("protocols at ", bytes, " bytes, ",
                                   direction == Direction::Unidirectional ? "one way" : "both ways"));
      if (transfers) {
        const std::vector<KernelRow> measured =
            measure(pair, *transfers, bytes, direction, config.repeat);
        rows.insert(rows.end(), measured.begin(), measured.end());
      } else {
        for (Protocol protocol : all_protocols())
          rows.push_back({bytes, direction, protocol, {}, 0, 0});
      }
    }
  transfers.reset();

  // Rank 0's numbers to every rank.
  std::vector<double> numbers;
  for (const KernelRow& row : rows)
    numbers.insert(numbers.end(), {row.seconds.median, row.seconds.min, row.seconds.max,
                                   row.bandwidth_bytes_per_second, row.vs_blocking});
  FERRY_CALL_MPI(MPI_Bcast(numbers.data(), static_cast<int>(numbers.size()), MPI_DOUBLE, 0,
                           comm.get()));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double* n = &numbers[i * kFieldsPerRow];
    rows[i].seconds = {n[0], n[1], n[2]};
    rows[i].bandwidth_bytes_per_second = n[3];
    rows[i].vs_blocking = n[4];
  }
  return rows;
}

}  // namespace ferry::bench
