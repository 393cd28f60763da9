// What an engine asks the network to carry: messages, bytes and rounds per rank.
#pragma once

#include "ferry/comm.hpp"
#include "ferry/engine.hpp"
#include "statistics.hpp"

namespace ferry::bench {

/// Messages and bytes sent per exchange (a rank's points to itself are a local copy,
/// not traffic) and rounds of messages waited through. Max over all ranks, mean
/// over the ranks that send anything (the paper's "messages per process").
struct TrafficSpread {
  Spread messages;
  Spread bytes;
  Spread rounds;
};

/// Collective over `comm`: spreads this rank's `traffic` over the ranks.
TrafficSpread traffic_over_ranks(const Comm& comm, const Traffic& traffic);

}  // namespace ferry::bench
