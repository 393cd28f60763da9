// Pausing between polls of an MPI counter, without hogging a shared core.
#pragma once

#include <chrono>

namespace ferry::detail {

/// The first polls follow each other at once (each is an MPI call, which also
/// makes MPI progress); after that the caller sleeps, twice as long each time up
/// to a millisecond, so a waiting rank leaves its core to the ranks it waits for.
class Backoff {
 public:
  /// Waits before the next poll.
  void pause();

 private:
  static constexpr int kSpins = 32;
  static constexpr std::chrono::microseconds kFirstSleep{8};
  static constexpr std::chrono::microseconds kLongestSleep{1000};
  int polls_ = 0;
  std::chrono::microseconds sleep_ = kFirstSleep;
};

}  // namespace ferry::detail
