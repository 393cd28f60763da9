// Writing `ferry bench kernels` results: one JSON object per row, or a table.
#pragma once

#include <string>
#include <vector>

#include "kernels_bench.hpp"

namespace ferry::bench {

/// One line of JSON per protocol, size and direction, each ending in a newline.
std::string kernels_json(const std::vector<KernelRow>& rows, int ranks,
                         const SweepConfig& config, const std::string& mpi_library);

/// A header and an aligned table: bytes, direction, protocol, median and minimum
/// time per message (us), bandwidth (MB/s) and the ratio to blocking send/recv.
std::string kernels_table(const std::vector<KernelRow>& rows, int ranks,
                          const SweepConfig& config, const std::string& mpi_library);

}  // namespace ferry::bench
