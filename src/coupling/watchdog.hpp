// Waiting for a partner without hanging forever.
#pragma once

#include <functional>
#include <string>

#include "coupling/failure_notice.hpp"

namespace ferry::coupling {

/// How long a rank of a coupled run waits for its partners before it gives up, and
/// the failure notices that end a wait at once.
class Watchdog {
 public:
  /// `timeout_seconds` <= 0 waits forever (a notice still ends the wait); `notice` may
  /// be nullptr (nothing to poll) and must outlive the watchdog.
  Watchdog(double timeout_seconds, FailureNotice* notice)
      : timeout_(timeout_seconds), notice_(notice) {}

  double timeout() const noexcept { return timeout_; }
  /// The same notices with another timeout.
  Watchdog with_timeout(double seconds) const { return Watchdog(seconds, notice_); }

  /// Polls `ready` (which must make MPI progress, e.g. MPI_Test) until it returns true.
  /// Spins for 20 ms, then sleeps between polls for 1/32 of the time waited so far (at
  /// most 1 ms): oversleeping adds about 3% to a wait, and an idle rank leaves its core
  /// to others. Raises Errc::State, printing the message on stderr first (every
  /// waiting rank prints its own line): "stopped because <notice>" as soon as another
  /// rank's failure notice arrives, or what() once the timeout has passed. Returns the
  /// seconds waited.
  double wait(const std::function<bool()>& ready, const std::function<std::string()>& what) const;
  /// Raises as wait() does if a notice has arrived; else returns. Never blocks.
  void check_notice() const;

 private:
  double timeout_;
  FailureNotice* notice_;
};

}  // namespace ferry::coupling
