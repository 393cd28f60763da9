#include "size_sweep.hpp"

#include "collectives/tuned_entry.hpp"
#include "util/check.hpp"

namespace ferry::bench {

namespace {
// The sizes are the tuning cache's size classes.
constexpr std::int64_t kSmallest = detail::kSmallestSizeClass;
}  // namespace

std::vector<std::int64_t> sweep_sizes(std::int64_t max_bytes) {
  std::vector<std::int64_t> sizes;
  for (std::int64_t bytes = kSmallest; bytes <= max_bytes; bytes *= 4) sizes.push_back(bytes);
  return sizes;
}

void check_sweep(const SweepConfig& config, const char* command) {
  FERRY_CHECK(config.repeat >= 1, Errc::Arg, command, ": --repeat must be >= 1; got ",
              config.repeat);
  FERRY_CHECK(config.max_bytes >= kSmallest, Errc::Arg, command, ": --max-bytes must be >= ",
              kSmallest, "; got ", config.max_bytes);
}

}  // namespace ferry::bench
