#include "payload_copy.hpp"

#include <cstring>

namespace ferry::bench {

namespace {
// Called through a volatile pointer so the compiler cannot drop a copy nobody reads.
void* (*volatile g_copy)(void*, const void*, std::size_t) = std::memcpy;
}  // namespace

PayloadCopy::PayloadCopy(std::size_t bytes) : from_(bytes, 1), to_(bytes, 0) {}

void PayloadCopy::run() {
  if (!from_.empty()) g_copy(to_.data(), from_.data(), from_.size());
}

}  // namespace ferry::bench
