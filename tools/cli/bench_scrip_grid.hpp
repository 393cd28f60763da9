// Writing the grids of `ferry bench regrid --grid rotated` as SCRIP grid files, so
// that CDO and YAC compute weights on exactly the cells ferry uses.
#pragma once

#include <string>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/online_weights.hpp"

namespace ferry::cli {

/// Collective over `comm`. Writes a SCRIP grid file of nx x ny cells (grid_rank 2,
/// grid_dims {nx, ny}, id = j nx + i): each rank writes its block (`cells.layout`,
/// a block of ids; `centre_lon`/`centre_lat` one per cell, degrees) in rank order,
/// so no rank holds the whole grid. Masked cells get grid_imask 0.
void write_scrip_grid(const Comm& comm, const std::string& path, const GridCells& cells,
                      const std::vector<double>& centre_lon,
                      const std::vector<double>& centre_lat, std::int64_t nx, std::int64_t ny);

}  // namespace ferry::cli
