#include "plan_traffic.hpp"

#include <cstdint>

namespace ferry::bench {

Traffic plan_traffic(const Comm& comm, const Plan& plan, std::size_t point_bytes) {
  const auto messages = static_cast<std::int64_t>(plan.send().peer_count());
  const std::int64_t bytes = plan.send().total() * static_cast<std::int64_t>(point_bytes);
  return {spread_over_ranks(comm, messages, plan.src_member()),
          spread_over_ranks(comm, bytes, plan.src_member())};
}

}  // namespace ferry::bench
