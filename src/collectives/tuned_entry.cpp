#include "collectives/tuned_entry.hpp"

#include "engines/tuning/plan_signature.hpp"
#include "util/format.hpp"

namespace ferry::detail {

std::int64_t size_class(std::int64_t bytes) {
  if (bytes < kSmallestSizeClass) return 0;
  std::int64_t size = kSmallestSizeClass;
  while (size <= bytes / 4) size *= 4;
  return size;
}

std::string tuned_signature(int ranks, const std::string& operation, std::int64_t size_class) {
  return cat("ranks=", ranks, " tuned=", operation, " bytes=", size_class, " mpi=", mpi_library());
}

std::optional<CacheEntry> find_tuned_entry(const std::string& path, int ranks,
                                           const std::string& operation, std::int64_t bytes,
                                           std::vector<std::string>& warnings) {
  const std::int64_t size = size_class(bytes);
  if (size == 0) return std::nullopt;
  CacheLookup lookup = find_entry(path, tuned_signature(ranks, operation, size));
  warnings.insert(warnings.end(), lookup.warnings.begin(), lookup.warnings.end());
  if (lookup.entries.empty()) return std::nullopt;
  return std::move(lookup.entries.front());
}

}  // namespace ferry::detail
