// Timers: where a component's time goes, per exchange and category.
#pragma once

#include <array>
#include <map>
#include <string>

#include "ferry/comm.hpp"

namespace ferry::detail {

/// What a timed span was spent on. `wait` is time blocked for a partner (imbalance
/// and transfer), `transfer` time inside the engine's calls, `pack` copies in and out
/// of coupler buffers, `transform` time transforms, `io` restart and output files,
/// `imbalance` a barrier over the component's ranks before an exchange (on request):
/// waiting for the slower ranks of the same component.
enum class TimerCategory { Setup, Put, Get, Wait, Transfer, Pack, Transform, Io, Imbalance, Count };

const char* timer_category_name(TimerCategory category) noexcept;

/// Seconds and calls per (exchange, category) on this rank; written as JSON.
class Timers {
 public:
  void add(const std::string& exchange, TimerCategory category, double seconds);
  /// Collective over `component` (the component's ranks): writes `path` on its rank 0
  /// with min/mean/max over the ranks of every timer, of `run_seconds` and of
  /// `enddef_seconds` (from the start of the run to the end of its set-up).
  void write_json(const Comm& component, const std::string& component_name,
                  double run_seconds, double enddef_seconds, const std::string& path) const;

 private:
  struct Entry {
    std::array<double, static_cast<int>(TimerCategory::Count)> seconds{};
    std::array<long long, static_cast<int>(TimerCategory::Count)> calls{};
  };
  std::map<std::string, Entry> entries_;
};

/// Adds the seconds between construction and destruction to a timer.
class ScopedTimer {
 public:
  ScopedTimer(Timers& timers, const std::string& exchange, TimerCategory category);
  ~ScopedTimer();
  ScopedTimer(const ScopedTimer&) = delete;
  ScopedTimer& operator=(const ScopedTimer&) = delete;

 private:
  Timers& timers_;
  const std::string& exchange_;
  TimerCategory category_;
  double start_;
};

}  // namespace ferry::detail
