#include "tuning_options.hpp"

#include <cstdlib>

namespace ferry::cli {

namespace {
constexpr std::int64_t kMostRepeats = 1 << 20;
constexpr std::int64_t kLargestBytes = std::int64_t{1} << 30;  // MPI int counts of bytes
}  // namespace

const char* const kSweepOptionsHelp =
    "  --repeat R             samples per candidate and size (default 20)\n"
    "  --max-bytes B          the largest size; sizes are 8, 32, 128, ... up to B\n"
    "                         (default 8388608)\n";

const char* const kCacheOptionHelp =
    "  --cache FILE           the tuning cache (default $FERRY_TUNING_CACHE; one of\n"
    "                         the two is required)\n";

void add_sweep_options(CLI::App& app, bench::SweepConfig& config) {
  add_int_option(app, "--repeat", config.repeat, 1, kMostRepeats);
  add_int_option(app, "--max-bytes", config.max_bytes, 8, kLargestBytes);
}

std::string cache_path(const std::string& given) {
  std::string cache = given;
  if (cache.empty()) {
    const char* env = std::getenv("FERRY_TUNING_CACHE");
    cache = env ? env : "";
  }
  if (cache.empty())
    throw UsageError("no tuning cache to fill: give --cache FILE or set FERRY_TUNING_CACHE");
  return cache;
}

}  // namespace ferry::cli
