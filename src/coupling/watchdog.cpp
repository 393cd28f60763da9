#include "coupling/watchdog.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include "util/check.hpp"

namespace ferry::coupling {

namespace {

[[noreturn]] void stop(const char* prefix, const std::string& message) {
  std::fprintf(stderr, "%s%s\n", prefix, message.c_str());
  std::fflush(stderr);
  throw Error(Errc::State, message);
}

}  // namespace

void Watchdog::check_notice() const {
  if (notice_ == nullptr) return;
  if (const auto& text = notice_->poll())
    stop("ferry: ", detail::cat("stopped because ", *text));
}

double Watchdog::wait(const std::function<bool()>& ready,
                      const std::function<std::string()>& what) const {
  // Spin first: most waits inside a coupling step are shorter than this, and a sleep
  // costs at least the kernel's timer slack on top of its length.
  constexpr double kSpinSeconds = 20e-3;
  // Then sleep at most this fraction of the time waited so far, so oversleeping adds
  // a few percent to a wait, and at most 1 ms, so a long wait leaves the core idle.
  constexpr double kPauseFraction = 1.0 / 32.0;
  constexpr double kMaxPauseSeconds = 1e-3;
  const double start = MPI_Wtime();
  while (!ready()) {
    check_notice();
    const double waited = MPI_Wtime() - start;
    if (timeout_ > 0 && waited > timeout_) stop("ferry watchdog: ", what());
    if (waited > kSpinSeconds)
      std::this_thread::sleep_for(
          std::chrono::duration<double>(std::min(kMaxPauseSeconds, waited * kPauseFraction)));
  }
  return MPI_Wtime() - start;
}

}  // namespace ferry::coupling
