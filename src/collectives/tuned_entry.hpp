// The tuning-cache entries of `ferry tune kernels`: the winning send protocol or
// collective algorithm per operation, rank count and size class.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engines/tuning/tuning_cache.hpp"

namespace ferry::detail {

/// The smallest size class; the classes are 8 B, 32 B, 128 B, ... (times 4).
inline constexpr std::int64_t kSmallestSizeClass = 8;

/// The class of `bytes`: the largest class not above it; 0 if `bytes` is below 8.
std::int64_t size_class(std::int64_t bytes);

/// Not collective. The key of an entry: "ranks=P tuned=OPERATION bytes=CLASS mpi=LIBRARY".
/// It starts with "ranks=" and never equals a plan signature, so the adaptive engine
/// reads such lines as well-formed entries of other plans and keeps them.
std::string tuned_signature(int ranks, const std::string& operation, std::int64_t size_class);

/// Not collective. The entry for `operation` at `ranks` ranks in the class of
/// `bytes`; nullopt if there is none. The file's problems go to `warnings`.
std::optional<CacheEntry> find_tuned_entry(const std::string& path, int ranks,
                                           const std::string& operation, std::int64_t bytes,
                                           std::vector<std::string>& warnings);

}  // namespace ferry::detail
