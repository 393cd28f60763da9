// The distributed k-nearest-neighbour search on the sphere behind online weights.
#pragma once

#include <cstdint>
#include <vector>

#include "ferry/comm.hpp"
#include "regrid/point_tree.hpp"

namespace ferry::regrid::detail {

/// A point on the sphere with the coordinates (degrees) it was given: its latitude
/// places it in a band.
struct LocatedPoint {
  SpherePoint point;
  double lon;
  double lat;
};

/// The point at longitude `lon`, latitude `lat` (degrees) with global id `id`.
LocatedPoint locate(double lon, double lat, std::int64_t id);

/// The answers a rank holds after a search: query `queries[q]` has its k neighbours
/// at neighbours[q * k .. q * k + k - 1], nearest first.
struct NeighbourLists {
  int k = 0;
  std::vector<LocatedPoint> queries;
  std::vector<Neighbour> neighbours;
};

/// Collective over `comm`. Finds, for every query point any rank gives, the k source
/// points (of those all ranks give) that come first in the `nearer` order. The result
/// does not depend on the number of ranks or on who gives which point; which rank
/// answers a query does. Source points move to the rank of their latitude band (the
/// sphere cut into comm.size() bands of equal width); a query is answered by the band
/// of its latitude, then by every other band that the spherical cap through its k-th
/// candidate reaches, so the answer is exact. Needs at least k source points in all.
NeighbourLists find_nearest(const Comm& comm, const std::vector<LocatedPoint>& sources,
                            const std::vector<LocatedPoint>& queries, int k);

}  // namespace ferry::regrid::detail
