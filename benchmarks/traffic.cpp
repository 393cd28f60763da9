#include "traffic.hpp"

namespace ferry::bench {

TrafficSpread traffic_over_ranks(const Comm& comm, const Traffic& traffic) {
  const bool sends = traffic.messages > 0;
  return {spread_over_ranks(comm, traffic.messages, sends),
          spread_over_ranks(comm, traffic.bytes, sends),
          spread_over_ranks(comm, traffic.rounds, sends)};
}

JsonLine& add_traffic(JsonLine& json, const TrafficSpread& traffic) {
  return json.add("msgs_per_rank_max", traffic.messages.max)
      .add("msgs_per_rank_mean", traffic.messages.mean)
      .add("bytes_per_rank_max", traffic.bytes.max)
      .add("bytes_per_rank_mean", traffic.bytes.mean);
}

}  // namespace ferry::bench
