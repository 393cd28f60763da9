#include "collectives_bench.hpp"

#include <algorithm>
#include <functional>
#include <memory>

#include "ferry/collectives.hpp"
#include "ferry/comm.hpp"
#include "progress.hpp"
#include "timing.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"

namespace ferry::bench {

namespace {

// A sample makes enough calls to move about this many bytes per rank (at most kMostCalls).
constexpr std::int64_t kSampleBytes = std::int64_t{1} << 20;
constexpr std::int64_t kMostCalls = 50;

std::int64_t calls_per_sample(std::int64_t bytes_per_rank) {
  return std::clamp(kSampleBytes / std::max<std::int64_t>(bytes_per_rank, 1), std::int64_t{1},
                    kMostCalls);
}

// Times `run(k)` for every algorithm k (after one checked warm-up call) and makes the rows.
std::vector<CollectiveRow> time_algorithms(const Comm& comm, const SweepConfig& config,
                                           const char* collective, std::int64_t bytes,
                                           const std::vector<std::string>& names,
                                           std::int64_t bytes_per_rank,
                                           const std::function<void(std::size_t)>& run,
                                           const std::function<void(std::size_t)>& check) {
  for (std::size_t k = 0; k < names.size(); ++k) {
    run(k);
    detail::agree_on(comm, [&] { check(k); });
  }
  const std::int64_t calls = calls_per_sample(bytes_per_rank);
  std::vector<std::function<void()>> steps;
  for (std::size_t k = 0; k < names.size(); ++k)
    steps.emplace_back([&, k] {
      for (std::int64_t c = 0; c < calls; ++c) run(k);
    });
  const std::vector<Summary> summaries = time_in_rotation(comm, config.repeat, steps);
  std::vector<CollectiveRow> rows;
  const double n = static_cast<double>(calls);
  for (std::size_t k = 0; k < names.size(); ++k)
    rows.push_back({collective, bytes, names[k],
                    {summaries[k].median / n, summaries[k].min / n, summaries[k].max / n},
                    summaries[0].median > 0 ? summaries[k].median / summaries[0].median : 0});
  return rows;
}

// Value j of the block rank `from` sends rank `to`: an exact double.
double block_value(int from, int to, int size, std::int64_t j) {
  return static_cast<double>((static_cast<std::int64_t>(from) * size + to) << 24 | j);
}

std::vector<CollectiveRow> alltoallv_rows(const Comm& comm, const SweepConfig& config,
                                          std::int64_t bytes) {
  const int size = comm.size();
  const int rank = comm.rank();
  const int count = static_cast<int>(bytes / 8);
  std::vector<int> counts(static_cast<std::size_t>(size), count), displs(counts.size());
  for (int p = 0; p < size; ++p) displs[p] = p * count;
  std::vector<double> send(static_cast<std::size_t>(count) * size);
  for (int to = 0; to < size; ++to)
    for (int j = 0; j < count; ++j) send[to * count + j] = block_value(rank, to, size, j);
  std::vector<double> recv(send.size());

  std::vector<ferry::Alltoallv> variants;
  std::vector<std::string> names;
  for (AlltoallvAlgorithm algorithm : alltoallv_algorithms()) {
    variants.emplace_back(comm.get(), algorithm, Datatype::Float64, counts, displs, counts,
                          displs);
    names.emplace_back(algorithm_name(algorithm));
  }
  return time_algorithms(
      comm, config, "alltoallv", bytes, names, bytes * size,
      [&](std::size_t k) { variants[k].execute(send.data(), recv.data()); },
      [&](std::size_t k) {
        for (int from = 0; from < size; ++from)
          for (int j = 0; j < count; ++j)
            FERRY_CHECK(recv[from * count + j] == block_value(from, rank, size, j),
                        Errc::Internal, "bench collectives: alltoallv \"", names[k],
                        "\" delivered a wrong value from rank ", from, " at ", j, " (", bytes,
                        "-byte blocks). This is a bug in ferry, please report it");
      });
}

std::vector<CollectiveRow> allreduce_rows(const Comm& comm, const SweepConfig& config,
                                          std::int64_t bytes) {
  const int size = comm.size();
  const int count = static_cast<int>(bytes / 8);
  std::vector<double> send(static_cast<std::size_t>(count)), recv(send.size());
  for (int i = 0; i < count; ++i) send[i] = comm.rank() + i;

  std::vector<ferry::Allreduce> variants;
  std::vector<std::string> names;
  for (AllreduceAlgorithm algorithm : allreduce_algorithms()) {
    variants.emplace_back(comm.get(), algorithm, Datatype::Float64, count);
    names.emplace_back(algorithm_name(algorithm));
  }
  const double rank_sum = 0.5 * size * (size - 1);
  return time_algorithms(
      comm, config, "allreduce", bytes, names, bytes,
      [&](std::size_t k) { variants[k].execute(send.data(), recv.data()); },
      [&](std::size_t k) {
        for (int i = 0; i < count; ++i)
          FERRY_CHECK(recv[i] == rank_sum + static_cast<double>(size) * i, Errc::Internal,
                      "bench collectives: allreduce \"", names[k], "\" summed value ", i,
                      " wrong (", bytes, " bytes). This is a bug in ferry, please report it");
      });
}

}  // namespace

std::vector<CollectiveRow> run_collectives(MPI_Comm user_comm, const SweepConfig& config) {
  const Comm comm = Comm::dup(user_comm);
  detail::agree_on(comm, [&] {
    check_sweep(config, "bench collectives");
  });
  std::vector<CollectiveRow> rows;
  for (std::int64_t bytes : sweep_sizes(config.max_bytes)) {
    progress().stage(detail::cat("alltoallv algorithms at ", bytes, " bytes"));
    for (CollectiveRow& row : alltoallv_rows(comm, config, bytes)) rows.push_back(std::move(row));
  }
  for (std::int64_t bytes : sweep_sizes(config.max_bytes)) {
    progress().stage(detail::cat("allreduce algorithms at ", bytes, " bytes"));
    for (CollectiveRow& row : allreduce_rows(comm, config, bytes)) rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace ferry::bench
