// The rounds of a pairwise swap: in each round every rank exchanges with at most
// one partner, and over all rounds every pair of ranks meets exactly once.
#pragma once

#include <vector>

namespace ferry::detail {

/// This rank's partner in each round (-1: idle that round), for `size` ranks.
/// A power of two: P-1 rounds, partner rank XOR k. Otherwise the round-robin
/// tournament (the circle method): odd P plays P rounds, partner (k - rank) mod P,
/// idle when that is itself; even P plays P-1 rounds, ranks 0..P-2 as for odd P-1
/// and rank P-1 taking whoever would be idle.
std::vector<int> swap_partners(int rank, int size);

}  // namespace ferry::detail
