// The timer files the coupler writes at finalize (ferry_timers_<component>.json).
#pragma once

#include <string>
#include <vector>

#include "util/timers.hpp"

namespace ferry::report {

/// A number over the ranks of a component.
struct OverRanks {
  double min = 0;
  double mean = 0;
  double max = 0;
};

/// One (exchange, category) timer: seconds on each rank, and calls on the busiest rank.
struct Timer {
  std::string exchange;
  detail::TimerCategory category = detail::TimerCategory::Setup;
  long long calls_max = 0;
  OverRanks seconds;
};

/// One component of one run: what Timers::write_json wrote.
struct TimerFile {
  std::string path;
  std::string component;
  int ranks = 0;
  OverRanks run_seconds;  ///< from the Coupler's construction to finalize
  /// From the Coupler's construction to the end of enddef (files written before it was
  /// recorded have none: zeros).
  OverRanks enddef_seconds;
  std::vector<Timer> timers;
};

/// Not collective. Raises Errc::Io naming the file (and the place in it) for a file
/// that cannot be read or is not a timer file of format version 1.
TimerFile read_timer_file(const std::string& path);

/// The files named: a directory stands for its ferry_timers_*.json files, in name
/// order. Raises Errc::Io for a path that does not exist or a directory without any.
std::vector<std::string> timer_file_paths(const std::vector<std::string>& names);

}  // namespace ferry::report
