#include "regrid/neighbour_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/rendezvous.hpp"
#include "regrid/latitude_bands.hpp"
#include "util/check.hpp"

namespace ferry::regrid::detail {

namespace {

using ferry::detail::route;

constexpr double kRadiansPerDegree = 3.14159265358979323846 / 180;
constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Widens a cap's latitude range so rounding never leaves out a band it touches.
constexpr double kBandSlackDegrees = 1e-9;

// A query sent on to another band, with the squared radius its home band found.
struct Forwarded {
  LocatedPoint query;
  double bound2;
  std::int32_t band;  // where it goes
  std::int32_t home;  // where it came from
  std::int32_t slot;  // the query's place in its home rank's list
};

// A candidate for query `slot` of its home rank.
struct Found {
  std::int32_t home;
  std::int32_t slot;
  Neighbour neighbour;
};

}  // namespace

LocatedPoint locate(double lon, double lat, std::int64_t id) {
  const double lambda = lon * kRadiansPerDegree;
  const double phi = lat * kRadiansPerDegree;
  return {{{std::cos(phi) * std::cos(lambda), std::cos(phi) * std::sin(lambda), std::sin(phi)},
           id},
          lon,
          lat};
}

NeighbourLists find_nearest(const Comm& comm, const std::vector<LocatedPoint>& sources,
                            const std::vector<LocatedPoint>& queries, int k) {
  const LatitudeBands bands(comm.size());
  const int me = comm.rank();
  auto by_band = [&](const LocatedPoint& p) { return bands.band(p.lat); };

  std::vector<SpherePoint> band_points;
  {
    const std::vector<LocatedPoint> mine = route(comm, sources, by_band);
    band_points.reserve(mine.size());
    for (const LocatedPoint& p : mine) band_points.push_back(p.point);
  }
  const PointTree tree(std::move(band_points));
  std::vector<LocatedPoint> home = route(comm, queries, by_band);

  // First answers from the home band; they bound the distance of the true k nearest.
  std::vector<Found> found;
  found.reserve(home.size() * static_cast<std::size_t>(k));
  std::vector<Forwarded> forward;
  std::vector<Neighbour> local;
  for (std::size_t q = 0; q < home.size(); ++q) {
    local.clear();
    tree.nearest(home[q].point.xyz, k, kInfinity, local);
    const auto slot = static_cast<std::int32_t>(q);
    for (const Neighbour& n : local) found.push_back({me, slot, n});
    const double bound2 = static_cast<int>(local.size()) == k ? local.back().d2 : kInfinity;
    int first = 0;
    int last = comm.size() - 1;
    if (bound2 < kInfinity) {
      // Every point nearer than the k-th candidate lies in the cap of this angle.
      const double angle =
          2 * std::asin(std::min(1.0, std::sqrt(bound2) / 2)) / kRadiansPerDegree +
          kBandSlackDegrees;
      first = bands.band(home[q].lat - angle);
      last = bands.band(home[q].lat + angle);
    }
    for (int b = first; b <= last; ++b)
      if (b != me) forward.push_back({home[q], bound2, b, me, slot});
  }

  // The other bands answer within the bound; their candidates go back home.
  {
    const std::vector<Forwarded> asked =
        route(comm, forward, [](const Forwarded& f) { return f.band; });
    forward = {};
    std::vector<Found> answers;
    for (const Forwarded& f : asked) {
      local.clear();
      tree.nearest(f.query.point.xyz, k, f.bound2, local);
      for (const Neighbour& n : local) answers.push_back({f.home, f.slot, n});
    }
    const std::vector<Found> back = route(comm, answers, [](const Found& f) { return f.home; });
    found.insert(found.end(), back.begin(), back.end());
  }

  // The k first of all candidates of each query: the candidates bucketed by query
  // (the home band's come sorted, the other bands' after them), each bucket sorted.
  std::vector<std::size_t> bucket(home.size() + 1, 0);
  for (const Found& f : found) ++bucket[static_cast<std::size_t>(f.slot) + 1];
  for (std::size_t q = 0; q < home.size(); ++q) bucket[q + 1] += bucket[q];
  std::vector<Neighbour> candidates(found.size());
  {
    std::vector<std::size_t> next(bucket.begin(), bucket.end() - 1);
    for (const Found& f : found) candidates[next[static_cast<std::size_t>(f.slot)]++] = f.neighbour;
  }
  found = {};
  const auto order = [](const Neighbour& a, const Neighbour& b) { return nearer(a, b); };
  NeighbourLists lists;
  lists.k = k;
  lists.neighbours.reserve(home.size() * static_cast<std::size_t>(k));
  for (std::size_t q = 0; q < home.size(); ++q) {
    const auto first = candidates.begin() + static_cast<std::ptrdiff_t>(bucket[q]);
    const auto last = candidates.begin() + static_cast<std::ptrdiff_t>(bucket[q + 1]);
    const auto taken = std::min<std::ptrdiff_t>(last - first, k);
    std::partial_sort(first, first + taken, last, order);
    lists.neighbours.insert(lists.neighbours.end(), first, first + taken);
  }
  FERRY_ASSERT(lists.neighbours.size() == home.size() * static_cast<std::size_t>(k),
               "fewer than k neighbours found for some query; k = ", k);
  lists.queries = std::move(home);
  return lists;
}

}  // namespace ferry::regrid::detail
