// A global operator new/delete that counts allocations and live bytes, so tests
// can prove that an exchange allocates nothing and measure a plan's peak memory.
#pragma once

#include <cstddef>

namespace ferry_test {

struct AllocationStats {
  std::size_t allocations = 0;  ///< calls to operator new since reset
  std::size_t live_bytes = 0;   ///< bytes allocated and not yet freed
  std::size_t peak_bytes = 0;   ///< highest live_bytes since reset
};

/// Current counters.
AllocationStats allocation_stats();
/// Zeroes the allocation count and sets the peak to the current live bytes.
void reset_allocation_stats();

}  // namespace ferry_test
