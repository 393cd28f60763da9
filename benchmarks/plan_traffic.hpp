// What a plan asks the network to carry: messages and bytes sent per rank.
#pragma once

#include <cstddef>

#include "ferry/comm.hpp"
#include "ferry/plan.hpp"
#include "statistics.hpp"

namespace ferry::bench {

/// Messages (one per send peer) and bytes sent per exchange; a rank's points to
/// itself are a local copy, not traffic. Max over all ranks, mean over the
/// source ranks (the paper's "messages per process" of the sending component).
struct Traffic {
  Spread messages;
  Spread bytes;
};

/// Collective over `comm` (the plan's ranks). `point_bytes`: bytes of one point of all fields.
Traffic plan_traffic(const Comm& comm, const Plan& plan, std::size_t point_bytes);

}  // namespace ferry::bench
