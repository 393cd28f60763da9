// A configuration drawn as a Graphviz diagram: who sends what to whom, and how.
#pragma once

#include <string>

#include "config/config.hpp"

namespace ferry::config {

/// The configuration as a Graphviz digraph (DOT text): each component is a cluster of
/// its fields (ellipses; the components list gives the clusters of components without
/// fields too); each exchange is a box between the fields it moves, labelled with its
/// name, period, lag, transform, sequence, engine and options, regridding (weight file
/// or method, map_on, mode, conservation), output and restart file; each buffer is a
/// cylinder between its fields, with its mode and capacity. The grids are not in the
/// configuration (the components declare them at run time), so they are not drawn.
/// Not collective.
std::string config_diagram(const Config& config);

}  // namespace ferry::config
