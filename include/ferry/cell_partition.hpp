// Partitions of a mesh's cells over ranks: contiguous blocks, random, or METIS.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ferry {

/// How partition_cells() deals the cells out.
enum class PartitionMethod {
  Block,   ///< contiguous id ranges, as equal as possible
  Random,  ///< a seeded random permutation cut into equal blocks: the worst case for locality
  Metis,   ///< METIS_PartGraphKway (minimum edge cut); only in builds with METIS
};

/// "block", "random", "metis".
const char* partition_method_name(PartitionMethod method) noexcept;
/// True if this build can partition with `method` (Metis needs ferry built with METIS).
bool partition_method_available(PartitionMethod method) noexcept;

/// Not collective: the owner (0 .. parts-1) of each cell of a graph given in CSR form
/// (cell c's neighbours are neighbours[offsets[c] .. offsets[c+1])). The same input
/// gives the same partition on every rank and every run. Errc::Arg for parts < 1,
/// Errc::ArgSize for offsets that do not describe `neighbours`, Errc::Unsupported for
/// Metis in a build without METIS, Errc::Overflow for a graph too large for METIS's
/// index type.
std::vector<int> partition_cells(const std::vector<std::int64_t>& offsets,
                                 const std::vector<std::int64_t>& neighbours, int parts,
                                 PartitionMethod method, std::uint64_t seed = 0);

}  // namespace ferry
