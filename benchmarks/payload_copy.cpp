#include "payload_copy.hpp"

#include <cstring>

#include "timing.hpp"

namespace ferry::bench {

namespace {
// Called through a volatile pointer so the compiler cannot drop a copy nobody reads.
void* (*volatile g_copy)(void*, const void*, std::size_t) = std::memcpy;
}  // namespace

PayloadCopy::PayloadCopy(std::size_t bytes) : from_(bytes, 1), to_(bytes, 0) {}

void PayloadCopy::run() {
  if (!from_.empty()) g_copy(to_.data(), from_.data(), from_.size());
}

Summary time_payload_copy(const Comm& comm, std::size_t bytes, int repeat) {
  constexpr int kWarmup = 3;
  PayloadCopy copy(bytes);
  for (int k = 0; k < kWarmup; ++k) copy.run();
  return time_in_rotation(comm, repeat, {[&copy] { copy.run(); }})[0];
}

}  // namespace ferry::bench
