// Writing `ferry bench exchange` results: one JSON object per engine, or a table.
#pragma once

#include <string>

#include "exchange_bench.hpp"

namespace ferry::bench {

/// One line of JSON per engine row, each ending in a newline.
std::string exchange_json(const ExchangeRun& run, const ExchangeResults& results,
                          const std::string& mpi_library);

/// The run's description, an aligned table of every row with the ratios
/// median / memcpy bound and (when a baseline row is present) median / baseline,
/// and a legend.
std::string exchange_table(const ExchangeRun& run, const ExchangeResults& results,
                           const std::string& mpi_library);

}  // namespace ferry::bench
