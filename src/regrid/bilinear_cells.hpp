// Locating destination points in the cells of a logically rectangular source grid.
#pragma once

#include <cstdint>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/online_weights.hpp"
#include "ferry/weights.hpp"
#include "regrid/neighbour_search.hpp"

namespace ferry::regrid::detail {

/// A source point's place (radians) and mask, on its way to rank `to`.
struct SourcePoint {
  std::int64_t id;
  double lon;
  double lat;
  std::int32_t mask;
  std::int32_t to;
};

/// Collective over `comm`: the source points `ids` (ascending, unique, any on any
/// rank), fetched from a directory of every source point spread by id blocks; sorted
/// by id.
std::vector<SourcePoint> fetch_source_points(const Comm& comm, const GridPoints& src,
                                             const std::vector<std::int64_t>& ids);

/// A destination point in a source cell: the cell's corners (i, j), (i + 1, j),
/// (i + 1, j + 1), (i, j + 1) and the point's position (a, b) in it (0..1 each, by the
/// bilinear map in longitude and latitude; for a cell round a pole, in which the pole
/// is no point in longitude and latitude, by the bilinear map in the gnomonic
/// projection onto the plane tangent at the cell's centre).
struct CellHit {
  std::int64_t dst;
  std::int64_t corner[4];
  double a;
  double b;
};

/// A valid destination point in no cell or in a cell with a masked corner: its 4
/// nearest source points (masked or not), nearest first, their squared chord
/// distances and whether each is valid.
struct NearestFour {
  LocatedPoint target;
  std::int64_t source[4];
  double d2[4];
  bool valid[4];
};

/// Where the valid destination points fall: in a cell with 4 valid corners (`hits`) or
/// not (`misses`, in no cell or in one with a masked corner).
struct CellSearch {
  std::vector<CellHit> hits;
  std::vector<NearestFour> misses;
};

/// Collective over `comm`. For every valid destination point (any share) in a cell of
/// the options.nx x (size / nx) source grid (SCRIP's and CDO's search: the cells around
/// its 4 nearest source points, by ascending cell id, the first containing it; a cell
/// round a pole, and if none of them contains the point but one is round a pole, all of
/// them, located on the sphere as CellHit says), its
/// hit if the cell's corners are all valid, else (and for points in no cell) its 4
/// nearest source points. Returns this rank's share; the same for any ranks and
/// layouts. Checks the options and grids as bilinear_weights says, naming `caller`.
CellSearch locate_in_cells(const Comm& comm, const char* caller, const GridPoints& src,
                           const GridPoints& dst, const BilinearOptions& options);

/// OASIS's (SCRIP's) weights for a point of `misses`: inverse great-circle distance
/// 1 / (d + 1e-14) over its 4 nearest source points, the masked ones dropped and the
/// rest normalised to a sum of 1; none if all 4 are masked. Appends them to `links`
/// (link order: the neighbour's rank, nearest first).
void four_nearest_links(const NearestFour& miss, std::vector<WeightLink>& links);

/// Collective over `comm`. The links options.unmapped gives the valid destination
/// points that the hits of `search` leave without any: none (Fill); the nearest valid
/// source point (Nearest); four_nearest_links, then the nearest valid source point
/// where all 4 are masked (FourNearest). This rank's share.
std::vector<WeightLink> unmapped_links(const Comm& comm, const GridPoints& src,
                                       const BilinearOptions& options, const CellSearch& search);

/// The description of weights of `method` made with options.unmapped.
const char* unmapped_title(Unmapped unmapped, bool bicubic);

}  // namespace ferry::regrid::detail
