// Checking the CellGraph and depth each rank gives a Halo, agreed across ranks.
#pragma once

#include "ferry/comm.hpp"
#include "ferry/halo.hpp"

namespace ferry::detail {

/// Collective over `comm`. Raises on every rank the error of the lowest failing rank:
/// Errc::Arg (depth < 1, ranks disagree on depth or global_cells, global_cells < 0),
/// Errc::ArgSize (offsets not cells + 1 long, not from 0 to neighbours.size(), or
/// decreasing), Errc::ArgRange (a cell or neighbour id outside 0 .. global_cells-1),
/// Errc::Duplicate (a cell listed twice among one rank's cells).
void check_cell_graph(const Comm& comm, const CellGraph& graph, int depth);

}  // namespace ferry::detail
