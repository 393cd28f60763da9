// Writing `ferry bench coupling` results: one JSON object per case, or a table.
#pragma once

#include <string>
#include <vector>

#include "coupling_bench.hpp"

namespace ferry::bench {

/// One line of JSON per case, each ending in a newline.
std::string coupling_json(const CouplingRun& run, const std::vector<CouplingCase>& cases,
                          const Summary& memcpy_bound,
                          const std::string& mpi_library);

/// The run's description, an aligned table of the cases with their ratios to the
/// bare exchange (time) and to the fields' bytes (heap), the targets, and a legend.
std::string coupling_table(const CouplingRun& run, const std::vector<CouplingCase>& cases,
                           const Summary& memcpy_bound,
                           const std::string& mpi_library);

}  // namespace ferry::bench
