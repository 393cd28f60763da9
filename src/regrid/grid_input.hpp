// Checking the grid points given to the online weight generators, and placing them.
#pragma once

#include <vector>

#include "ferry/comm.hpp"
#include "ferry/online_weights.hpp"
#include "regrid/neighbour_search.hpp"

namespace ferry::regrid::detail {

/// Collective over `comm`. Checks both grids as every generator needs them, raising on
/// every rank alike (naming `caller`): Errc::Arg for global sizes that differ between
/// ranks or a coordinate that is not finite or a latitude outside -90..90,
/// Errc::ArgSize for lon, lat or mask not of the layout's local size, Errc::ArgRange
/// for an id outside the grid, Errc::Duplicate for an id given twice.
void check_grids(const Comm& comm, const char* caller, const GridPoints& src,
                 const GridPoints& dst);

/// Not collective: this rank's points of `grid` on the sphere; only the valid ones
/// (mask not 0) if `valid_only`.
std::vector<LocatedPoint> located_points(const GridPoints& grid, bool valid_only);

}  // namespace ferry::regrid::detail
