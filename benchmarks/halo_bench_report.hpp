// `ferry bench halo` results as an aligned table or as JSON lines.
#pragma once

#include <string>

#include "halo_bench.hpp"

namespace ferry::bench {

/// One JSON object per row and line, each carrying the run's metadata.
std::string halo_json(const HaloRun& run, const HaloResults& results,
                      const std::string& mpi_library);

/// A header describing the mesh, partition and halo, then one row per variant.
std::string halo_table(const HaloRun& run, const HaloResults& results,
                       const std::string& mpi_library);

}  // namespace ferry::bench
