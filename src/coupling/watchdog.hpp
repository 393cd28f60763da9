// Waiting for a partner without hanging forever.
#pragma once

#include <functional>
#include <string>

namespace ferry::coupling {

/// Polls `ready` (which must make MPI progress, e.g. MPI_Test) until it returns true.
/// Spins for 1 ms, then sleeps between polls for 1/32 of the time waited so far (at
/// most 1 ms): oversleeping adds about 3% to a wait, and an idle rank leaves its core
/// to others. If `timeout_seconds` > 0 passes first, prints `what` to stderr
/// on this rank (every waiting rank prints its own line) and raises Errc::State with
/// it. Returns the seconds waited.
double wait_or_fail(const std::function<bool()>& ready, double timeout_seconds,
                    const std::function<std::string()>& what);

}  // namespace ferry::coupling
