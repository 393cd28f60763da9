// What an engine asks the network to carry: messages, bytes and rounds per rank.
#pragma once

#include "ferry/comm.hpp"
#include "ferry/engine.hpp"
#include "json_line.hpp"
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

/// Adds msgs_per_rank_max, msgs_per_rank_mean, bytes_per_rank_max and bytes_per_rank_mean.
JsonLine& add_traffic(JsonLine& json, const TrafficSpread& traffic);

}  // namespace ferry::bench
