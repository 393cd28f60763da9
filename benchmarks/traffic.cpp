#include "traffic.hpp"

namespace ferry::bench {

TrafficSpread traffic_over_ranks(const Comm& comm, const Traffic& traffic) {
  const bool sends = traffic.messages > 0;
  return {spread_over_ranks(comm, traffic.messages, sends),
          spread_over_ranks(comm, traffic.bytes, sends),
          spread_over_ranks(comm, traffic.rounds, sends)};
}

}  // namespace ferry::bench
