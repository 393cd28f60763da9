// The table the exchange and halo benchmarks print: one row per engine with its setup,
// its exchange times against the memcpy bound and a reference engine, and its traffic.
#pragma once

#include <string>
#include <vector>

#include "statistics.hpp"
#include "traffic.hpp"

namespace ferry::bench {

struct EngineTableRow {
  std::string engine;
  double setup_seconds = 0;
  Summary exchange;
  TrafficSpread traffic;
};

/// The table and its first footer line, which explains x_memcpy (median over
/// `memcpy_bound`) and x_<reference> (median over the median of the row whose engine
/// is `reference`; the column is left out when there is no such row).
std::string engine_table(const std::vector<EngineTableRow>& rows, double memcpy_bound,
                         const std::string& reference);

}  // namespace ferry::bench
