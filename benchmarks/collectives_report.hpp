// Writing `ferry bench collectives` results: one JSON object per row, or a table.
#pragma once

#include <string>
#include <vector>

#include "collectives_bench.hpp"

namespace ferry::bench {

/// One line of JSON per collective, size and algorithm, each ending in a newline.
std::string collectives_json(const std::vector<CollectiveRow>& rows, int ranks,
                             const SweepConfig& config, const std::string& mpi_library);

/// A header and an aligned table: collective, bytes, algorithm, median and minimum
/// time per call (us) and the ratio to the MPI collective.
std::string collectives_table(const std::vector<CollectiveRow>& rows, int ranks,
                              const SweepConfig& config, const std::string& mpi_library);

}  // namespace ferry::bench
