// Links for target points no source covers: each takes its nearest valid source point.
#pragma once

#include <cstdint>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/weights.hpp"
#include "regrid/neighbour_search.hpp"

namespace ferry::regrid::detail {

/// Collective over `comm`. For every point of `targets` (valid target points, any
/// share on any rank) whose row has no link in `links` (held anywhere), a link of
/// weight 1 from its nearest point of `sources` (valid source points, any share; ties
/// to the lower id, as find_nearest). Returns this rank's share of the new links;
/// none if there are no sources. The same links for any number of ranks and layouts.
std::vector<WeightLink> nearest_fill(const Comm& comm, const std::vector<LocatedPoint>& sources,
                                     const std::vector<LocatedPoint>& targets,
                                     std::int64_t dst_size, const std::vector<WeightLink>& links);

}  // namespace ferry::regrid::detail
