// What the ranks of a regridding product need of the grid they do not hold: the
// other side's declared point data, moved to their block of that grid.
#pragma once

#include <cstdint>
#include <string>

#include "coupling/declarations.hpp"
#include "ferry/comm.hpp"
#include "ferry/layout.hpp"
#include "ferry/online_weights.hpp"
#include "ferry/weights.hpp"

namespace ferry::coupling {

/// One side's points as this rank holds them: `partition` on the side's members
/// (null elsewhere), `block` on the product ranks (null elsewhere), `size` the grid's.
struct BlockMove {
  const Comm* link = nullptr;  ///< source and target members
  const PartitionDecl* partition = nullptr;
  const Layout* block = nullptr;
  std::int64_t size = 0;
  std::string where;           ///< the entry, for messages
};

/// This rank's declared centres and mask of a partition (mask absent: all valid).
/// Raises Errc::Arg naming the entry and `method` when a rank holding points did
/// not call set_coordinates. Not collective.
GridPoints declared_coordinates(const PartitionDecl& partition, const char* side,
                                const std::string& where, const char* method, int rank);

/// Collective over the link: `points` (on the side's members) moved to the block.
/// The side's partition must hold each point of its grid once (Errc::Duplicate or
/// Errc::Missing naming the entry otherwise).
GridPoints block_coordinates(const BlockMove& move, const GridPoints* points);

/// This rank's declared cell corners and mask of a partition (mask absent: all
/// valid; no points: 4 corners). Raises Errc::Arg naming the entry and `method` when
/// a rank holding points did not call set_corners. Not collective.
GridCells declared_corners(const PartitionDecl& partition, const char* side,
                           const std::string& where, const char* method, int rank);

/// Collective over the link: `cells` (on the side's members) moved to the block, as
/// block_coordinates moves points. Ranks may declare different numbers of corners:
/// the block has the most, cells with fewer repeat their last corner.
GridCells block_corners(const BlockMove& move, const GridCells* cells);

/// Collective over the link: the side's declared areas (when every member declared
/// them) and mask (when any did; 1 elsewhere) moved to the block.
GridPointData block_areas_and_mask(const BlockMove& move);

}  // namespace ferry::coupling
