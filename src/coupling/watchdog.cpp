#include "coupling/watchdog.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include "util/check.hpp"

namespace ferry::coupling {

double wait_or_fail(const std::function<bool()>& ready, double timeout_seconds,
                    const std::function<std::string()>& what) {
  // Spin first: most waits inside a coupling step are shorter than this, and a sleep
  // costs at least the kernel's timer slack on top of its length.
  constexpr double kSpinSeconds = 20e-3;
  // Then sleep at most this fraction of the time waited so far, so oversleeping adds
  // a few percent to a wait, and at most 1 ms, so a long wait leaves the core idle.
  constexpr double kPauseFraction = 1.0 / 32.0;
  constexpr double kMaxPauseSeconds = 1e-3;
  const double start = MPI_Wtime();
  while (!ready()) {
    const double waited = MPI_Wtime() - start;
    if (timeout_seconds > 0 && waited > timeout_seconds) {
      const std::string message = what();
      std::fprintf(stderr, "ferry watchdog: %s\n", message.c_str());
      std::fflush(stderr);
      throw Error(Errc::State, message);
    }
    if (waited > kSpinSeconds)
      std::this_thread::sleep_for(
          std::chrono::duration<double>(std::min(kMaxPauseSeconds, waited * kPauseFraction)));
  }
  return MPI_Wtime() - start;
}

}  // namespace ferry::coupling
