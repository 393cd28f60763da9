// The message sizes and repetitions of `ferry bench kernels`, `bench collectives`
// and `tune kernels`.
#pragma once

#include <cstdint>
#include <vector>

namespace ferry::bench {

struct SweepConfig {
  int repeat = 20;                                 ///< samples per candidate and size
  std::int64_t max_bytes = std::int64_t{8} << 20;  ///< the largest size
};

/// The sizes: 8 B, 32 B, ... (powers of 4 times 8) up to `max_bytes`.
std::vector<std::int64_t> sweep_sizes(std::int64_t max_bytes);

/// Not collective: Errc::Arg naming `command` if repeat < 1 or max_bytes < 8.
void check_sweep(const SweepConfig& config, const char* command);

}  // namespace ferry::bench
