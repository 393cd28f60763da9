// Timing collective steps the same way for every engine, the baseline and the bound.
#pragma once

#include <functional>
#include <vector>

#include "ferry/comm.hpp"
#include "statistics.hpp"

namespace ferry::bench {

/// Collective over `comm`: runs the steps in rotation, `repeat` rounds of step 0,
/// step 1, ..., so load from other processes on the machine hits every step
/// alike instead of whichever happened to run during a burst. Each run starts
/// after a barrier and is timed with MPI_Wtime; its sample is the slowest rank's
/// time (MPI_Allreduce MAX), because a coupling step waits for the slowest rank.
/// Returns one summary per step. The caller warms every step up first.
std::vector<Summary> time_in_rotation(const Comm& comm, int repeat,
                                      const std::vector<std::function<void()>>& steps);

}  // namespace ferry::bench
