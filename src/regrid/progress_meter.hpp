// Progress reports of a long weight generation on one rank: to the caller's callback at
// a bounded rate, and to the log (FERRY_LOG_LEVEL=info). Rank-local: no communication,
// so a rank that fails cannot leave another waiting in a report.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>

#include "ferry/online_weights.hpp"

namespace ferry::regrid::detail {

class ProgressMeter {
 public:
  /// `what` names the call in the log ("conservative_weights"), `stage` the step;
  /// `total` items on this rank. Calls `callback` (if any) with done = 0.
  ProgressMeter(const char* what, const char* stage, int rank, std::int64_t total,
                const std::function<void(const WeightProgress&)>& callback, double seconds);

  /// `done` items of `total` are finished: reports when the last report is older than
  /// the callback's interval (or the log's). Cheap enough to call per item.
  void advance(std::int64_t done) {
    if ((done & (kItemsPerClockCheck - 1)) == 0) report_if_due(done);
  }
  /// Every item is finished: the last report (done = total) and a log line.
  void finish();

 private:
  static constexpr std::int64_t kItemsPerClockCheck = 64;
  using Clock = std::chrono::steady_clock;

  void report_if_due(std::int64_t done);
  void call(std::int64_t done);
  void log(std::int64_t done) const;

  const char* what_;
  const char* stage_;
  int rank_;
  std::int64_t total_;
  const std::function<void(const WeightProgress&)>& callback_;
  Clock::duration interval_;
  Clock::time_point start_;
  Clock::time_point last_call_;
  Clock::time_point last_log_;
};

}  // namespace ferry::regrid::detail
