// The winners of `ferry tune kernels`: the fastest message protocol and collective
// algorithm per size class, kept in the adaptive engine's tuning cache file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "collectives_bench.hpp"
#include "kernels_bench.hpp"

namespace ferry::bench {

/// For `operation` ("transfer_uni", "transfer_bi", "alltoallv", "allreduce") at
/// `ranks` ranks and sizes from `bytes` up to the next measured size, `choice` (a
/// protocol_name() or algorithm_name()) was fastest.
struct TunedChoice {
  std::string operation;
  int ranks = 0;
  std::int64_t bytes = 0;
  std::string choice;
  /// Every candidate's median seconds in measuring order, the baseline first
  /// (blocking send/recv, or the MPI collective).
  std::vector<std::pair<std::string, double>> medians;
};

/// The fastest protocol per direction and size; `ranks` is the run's rank count.
std::vector<TunedChoice> kernel_winners(const std::vector<KernelRow>& rows, int ranks);
/// The fastest algorithm per collective and size.
std::vector<TunedChoice> collective_winners(const std::vector<CollectiveRow>& rows, int ranks);

/// Not collective (call on one rank). Adds or replaces each choice's entry in the
/// tuning cache at `path` (keyed by detail::tuned_signature(); the choice and the
/// candidates are single words, so the adaptive engine's reader accepts the lines,
/// never matches them to a plan, and keeps them when it rewrites the file), keeping
/// every other entry. Returns the problems (empty on success), as the adaptive
/// engine's writer words them.
std::vector<std::string> store_tuned_choices(const std::string& path,
                                             const std::vector<TunedChoice>& choices);

/// Not collective. The choice recorded for `operation` at `ranks` ranks for a size
/// of `bytes`: the entry of the largest size class (8 B, 32 B, ...) not above
/// `bytes`; nullopt if the cache has none (or `bytes` < 8) or cannot be read.
std::optional<TunedChoice> find_tuned_choice(const std::string& path, int ranks,
                                             const std::string& operation, std::int64_t bytes);

}  // namespace ferry::bench
