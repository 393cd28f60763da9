#include "statistics.hpp"

#include <algorithm>
#include <ctime>

#include "util/mpi.hpp"

namespace ferry::bench {

Summary summarize(std::vector<double> samples) {
  if (samples.empty()) return {};
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  const double median = n % 2 == 1 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
  return {median, samples.front(), samples.back()};
}

double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double max_over_ranks(const Comm& comm, double value) {
  double result = 0;
  FERRY_CALL_MPI(MPI_Allreduce(&value, &result, 1, MPI_DOUBLE, MPI_MAX, comm.get()));
  return result;
}

Spread spread_over_ranks(const Comm& comm, std::int64_t value, bool counted) {
  std::int64_t max = 0;
  FERRY_CALL_MPI(MPI_Allreduce(&value, &max, 1, MPI_INT64_T, MPI_MAX, comm.get()));
  std::int64_t local[2] = {counted ? value : 0, counted ? 1 : 0};
  std::int64_t total[2] = {0, 0};
  FERRY_CALL_MPI(MPI_Allreduce(local, total, 2, MPI_INT64_T, MPI_SUM, comm.get()));
  const double mean =
      total[1] > 0 ? static_cast<double>(total[0]) / static_cast<double>(total[1]) : 0.0;
  return {max, mean};
}

}  // namespace ferry::bench
