// Process mapping of the butterfly engine (data-transfer paper, section 3.2):
// which sender or receiver maps onto which kernel process (how many there are is
// butterfly_stage_count(), engines/tuning/candidate.hpp).
#pragma once

#include <cstdint>
#include <vector>

namespace ferry::detail {

/// The smallest power of two >= n (n >= 1).
int next_power_of_two(int n);

/// Iterative pairing: at each step the groups, sorted by total size (largest first,
/// ties in their current order), pair largest with smallest into groups of twice the
/// size, the larger group first; after log2(n) steps one group remains, whose order
/// is returned. `sizes.size()` must be a power of two (pad with zeros).
/// Example from the paper (Fig. 12): sizes of S0..S7 = 9, 10, 8, 6, 7, 0, 0, 0
/// give S4, S3, S2, S5, S1, S7, S0, S6.
std::vector<int> iterative_pairing(const std::vector<std::int64_t>& sizes);

/// Maps each of `sizes.size()` processes onto one of `kernel` kernel processes
/// (a power of two): pad with empty processes to N_P = max(next power of two,
/// kernel), reorder by iterative pairing, and give each run of N_P / kernel
/// consecutive processes to one kernel process. Returns the kernel index of each
/// real process; never many-to-many.
std::vector<int> map_onto_kernel(const std::vector<std::int64_t>& sizes, int kernel);

}  // namespace ferry::detail
