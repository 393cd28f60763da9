// Summaries of repeated measurements, and reductions of one value over ranks.
#pragma once

#include <cstdint>
#include <vector>

#include "ferry/comm.hpp"

namespace ferry::bench {

/// Median, minimum and maximum of a set of samples (all 0 for no samples).
struct Summary {
  double median = 0;
  double min = 0;
  double max = 0;
};

/// Not collective. The median of an even count is the mean of the middle two.
Summary summarize(std::vector<double> samples);

/// This process's CPU time in seconds (CLOCK_PROCESS_CPUTIME_ID): unlike wall time,
/// it leaves out the time the process waits, the steadier figure on a shared machine.
double process_cpu_seconds();

/// Collective over `comm`: the maximum of `value` over its ranks.
double max_over_ranks(const Comm& comm, double value);

/// Collective: maximum over all ranks, and mean over the ranks with `counted` true
/// (0 if none is), of a per-rank count.
struct Spread {
  std::int64_t max = 0;
  double mean = 0;
};
Spread spread_over_ranks(const Comm& comm, std::int64_t value, bool counted);

}  // namespace ferry::bench
