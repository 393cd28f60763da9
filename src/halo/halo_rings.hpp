// Finding a rank's ghost cells ring by ring, asking the owners for neighbour lists.
#pragma once

#include <cstdint>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/halo.hpp"

namespace ferry::detail {

/// A rank's local cells: its own, then ghost rings 1 .. depth.
struct HaloRings {
  /// Global ids in storage order: owned (CellGraph order), then each ring by ascending id.
  std::vector<std::int64_t> cells;
  /// depth + 1 entries: the cells within r steps are [0, ring_end[r]).
  std::vector<std::int64_t> ring_end;
  /// Local-index adjacency (CSR) of the cells [0, ring_end[depth-1]), whose neighbours
  /// are all local, each in its owner's CellGraph order.
  std::vector<std::int64_t> offsets;
  std::vector<std::int64_t> neighbours;
};

/// Collective over `comm`; `graph` and `depth` already checked (check_cell_graph).
/// Ring r+1 is the cells adjacent to ring r that are neither owned nor in an inner
/// ring. While r < depth, ring r's neighbour lists come from their owners: one plan
/// and one exchange of the lists, padded to the longest, per ring. Memory stays
/// O(local cells x largest degree). Ownership errors as ghost_exchange().
HaloRings find_halo_rings(const Comm& comm, const CellGraph& graph, int depth);

}  // namespace ferry::detail
