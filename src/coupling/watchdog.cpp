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
  const double start = MPI_Wtime();
  std::chrono::microseconds pause{0};
  for (int polls = 0; !ready(); ++polls) {
    const double waited = MPI_Wtime() - start;
    if (timeout_seconds > 0 && waited > timeout_seconds) {
      const std::string message = what();
      std::fprintf(stderr, "ferry watchdog: %s\n", message.c_str());
      std::fflush(stderr);
      throw Error(Errc::State, message);
    }
    // A short spin catches the common case of data already on its way.
    if (polls > 1000) {
      pause = std::min<std::chrono::microseconds>(std::chrono::microseconds(1000),
                                                  pause + std::chrono::microseconds(20));
      std::this_thread::sleep_for(pause);
    }
  }
  return MPI_Wtime() - start;
}

}  // namespace ferry::coupling
