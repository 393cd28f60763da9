// Locating destination points in the cells of a logically rectangular source grid.
#pragma once

#include <cstdint>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/online_weights.hpp"

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
/// bilinear map in longitude and latitude), and whether every corner is valid.
struct CellHit {
  std::int64_t dst;
  std::int64_t corner[4];
  double a;
  double b;
  bool valid;
};

/// Collective over `comm`. For every valid destination point (any share) in a cell of
/// the options.nx x (size / nx) source grid (SCRIP's and CDO's search: the cells around
/// its 4 nearest source points, by ascending cell id, the first containing it), its
/// hit; points in no cell get none. Returns this rank's share; the same hits for any
/// ranks and layouts. Checks the options and grids as bilinear_weights says, naming
/// `caller`.
std::vector<CellHit> locate_in_cells(const Comm& comm, const char* caller, const GridPoints& src,
                                     const GridPoints& dst, const BilinearOptions& options);

}  // namespace ferry::regrid::detail
