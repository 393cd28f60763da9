// Waiting for a partner without hanging forever.
#pragma once

#include <functional>
#include <string>

namespace ferry::coupling {

/// Polls `ready` (which must make MPI progress, e.g. MPI_Test) until it returns true.
/// Spins briefly, then sleeps with growing pauses (up to 1 ms) so an idle rank leaves
/// its core to others. If `timeout_seconds` > 0 passes first, prints `what` to stderr
/// on this rank (every waiting rank prints its own line) and raises Errc::State with
/// it. Returns the seconds waited.
double wait_or_fail(const std::function<bool()>& ready, double timeout_seconds,
                    const std::function<std::string()>& what);

}  // namespace ferry::coupling
