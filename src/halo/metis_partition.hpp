// METIS_PartGraphKway behind ferry's partition interface (builds with METIS only).
#pragma once

#include <cstdint>
#include <vector>

namespace ferry::detail {

/// Minimum-edge-cut partition of a symmetric CSR graph into `parts` (>= 2) parts,
/// METIS's default options with the given seed. Errc::Overflow if the graph does not
/// fit METIS's index type, Errc::Arg if METIS rejects the input.
std::vector<int> metis_partition(const std::vector<std::int64_t>& offsets,
                                 const std::vector<std::int64_t>& neighbours, int parts,
                                 std::uint64_t seed);

}  // namespace ferry::detail
