// nearest_neighbour_weights: k-nearest-neighbour weights from grid coordinates.
#include "ferry/online_weights.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "ferry/global_sum.hpp"
#include "regrid/grid_input.hpp"
#include "regrid/nearest_fill.hpp"
#include "regrid/neighbour_search.hpp"
#include "regrid/weights_builder.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry {

namespace {

using regrid::detail::LocatedPoint;
using regrid::detail::NeighbourLists;

const char* const kCaller = "nearest_neighbour_weights";
// The distance given to a neighbour at the very place of the destination point, as CDO.
constexpr double kZeroDistance = 1e-14;

// The Gaussian scale s^2: the variance times the squared mean distance from a valid
// source point to its nearest other one (summed exactly, so any layout gives its bits).
double gaussian_scale2(const Comm& comm, const std::vector<LocatedPoint>& sources,
                       std::int64_t valid_sources, double variance) {
  const NeighbourLists lists = regrid::detail::find_nearest(comm, sources, sources, 2);
  std::vector<double> spacing(lists.queries.size());
  for (std::size_t q = 0; q < spacing.size(); ++q)
    spacing[q] = std::sqrt(lists.neighbours[2 * q + 1].d2);
  const double total =
      global_sums(comm.get(), SumMethod::Reprosum, 1, spacing.size(), spacing.data()).front();
  const double mean = total / static_cast<double>(valid_sources);
  return variance * mean * mean;
}

// The links of every destination point answered here, its neighbours in order: each
// neighbour's share of the row is share_of(row, i), none where that is negative; the
// source id is the neighbour's shifted right by `id_shift`.
template <class Share>
std::vector<WeightLink> weigh_rows(const NeighbourLists& lists, Share share_of, int id_shift) {
  const auto k = static_cast<std::size_t>(lists.k);
  std::vector<WeightLink> links;
  links.reserve(lists.neighbours.size());
  std::vector<double> share(k);
  for (std::size_t q = 0; q < lists.queries.size(); ++q) {
    const regrid::detail::Neighbour* row = &lists.neighbours[q * k];
    double total = 0;
    for (std::size_t i = 0; i < k; ++i) {
      share[i] = share_of(row, i);
      if (share[i] >= 0) total += share[i];
    }
    for (std::size_t i = 0; i < k; ++i)
      if (share[i] >= 0)
        links.push_back({lists.queries[q].point.id, row[i].id >> id_shift, share[i] / total,
                         static_cast<std::int64_t>(i)});
  }
  return links;
}

// Every neighbour of a row, weighted by `weighting`.
std::vector<WeightLink> weigh(const NeighbourLists& lists, NeighbourWeighting weighting,
                              double scale2) {
  return weigh_rows(
      lists,
      [&](const regrid::detail::Neighbour* row, std::size_t i) {
        if (weighting == NeighbourWeighting::InverseDistance) {
          const double d = std::sqrt(row[i].d2);
          return 1 / (d > 0 ? d : kZeroDistance);
        }
        // Relative to the nearest neighbour, so far rows never underflow to 0 / 0.
        return std::exp(-(row[i].d2 - row[0].d2) / (2 * scale2));
      },
      0);
}

// SCRIP's guard against a zero distance in DISTWGT: Fortran's epsilon(1.0d0).
constexpr double kScripEpsilon = 0x1p-52;

// With MaskedNeighbours::Dropped every source point takes part in the search, its
// mask carried in the lowest bit of its id: the order of ids, and so the ties, stays.
// A point on a pole is placed there whatever its longitude: SCRIP's arcs do not tell a
// pole row's copies apart (cos 90 degrees is below their rounding), so the lowest ids win.
std::vector<LocatedPoint> marked_sources(const GridPoints& src) {
  std::vector<LocatedPoint> points;
  points.reserve(src.lon.size());
  for (std::size_t i = 0; i < src.lon.size(); ++i) {
    const bool masked = !src.mask.empty() && src.mask[i] == 0;
    const double lon = std::abs(src.lat[i]) == 90 ? 0 : src.lon[i];
    points.push_back(regrid::detail::locate(lon, src.lat[i],
                                            2 * src.layout.ids()[i] + (masked ? 1 : 0)));
  }
  return points;
}

// OASIS's DISTWGT links of every destination point answered here: its k nearest
// (marked) source points less the masked ones, by inverse arc. Rows whose k are all
// masked get none here.
std::vector<WeightLink> weigh_unmasked(const NeighbourLists& lists) {
  return weigh_rows(
      lists,
      [](const regrid::detail::Neighbour* row, std::size_t i) {
        if (row[i].id % 2 != 0) return -1.0;
        const double arc = 2 * std::asin(std::min(1.0, std::sqrt(row[i].d2) / 2));
        return 1 / (arc + kScripEpsilon);
      },
      1);
}

}  // namespace

Weights nearest_neighbour_weights(MPI_Comm user_comm, const GridPoints& src, const GridPoints& dst,
                                  const NearestNeighbourOptions& options) {
  const Comm comm = Comm::dup(user_comm);
  const int k = options.neighbours;
  const bool gaussian = options.weighting == NeighbourWeighting::Gaussian;
  const bool dropped = options.masked == MaskedNeighbours::Dropped;
  detail::agree_on(comm, [&] {
    FERRY_CHECK(k >= 1, Errc::Arg, kCaller, ": neighbours is ", k, "; give 1 or more");
    FERRY_CHECK(!gaussian || (options.gaussian_variance > 0 &&
                              std::isfinite(options.gaussian_variance)),
                Errc::Arg, kCaller, ": gaussian_variance is ", options.gaussian_variance,
                "; give a finite number > 0 (OASIS GAUSWGT uses values near 0.1 to 1)");
    FERRY_CHECK(!gaussian || !dropped, Errc::Arg, kCaller,
                ": masked neighbours dropped (OASIS's DISTWGT rule) takes inverse-distance "
                "weighting; give MaskedNeighbours::Skipped for Gaussian weighting");
  });
  regrid::detail::check_grids(comm, kCaller, src, dst);

  const std::vector<LocatedPoint> sources = regrid::detail::located_points(src, true);
  auto local_valid = static_cast<std::int64_t>(sources.size());
  std::int64_t valid = 0;
  FERRY_CALL_MPI(MPI_Allreduce(&local_valid, &valid, 1, MPI_INT64_T, MPI_SUM, comm.get()));
  detail::agree_on(comm, [&] {
    if (dropped)
      FERRY_CHECK(k <= src.layout.global_size(), Errc::Arg, kCaller, ": neighbours is ", k,
                  " but the source grid has ", src.layout.global_size(),
                  " points. Ask for at most ", src.layout.global_size(), " neighbours");
    else
      FERRY_CHECK(k <= valid, Errc::Arg, kCaller, ": neighbours is ", k,
                  " but the source grid has ", valid, " valid (unmasked) points. Ask for at most ",
                  valid, " neighbours, or check the source mask");
    FERRY_CHECK(!gaussian || valid >= 2, Errc::Arg, kCaller,
                ": Gaussian weighting needs 2 or more valid source points to measure their "
                "spacing; the source grid has ", valid);
  });

  const double scale2 =
      gaussian ? gaussian_scale2(comm, sources, valid, options.gaussian_variance) : 0;
  const std::vector<LocatedPoint> targets = regrid::detail::located_points(dst, true);
  std::vector<WeightLink> links;
  if (dropped) {
    links = weigh_unmasked(regrid::detail::find_nearest(comm, marked_sources(src), targets, k));
    const std::vector<WeightLink> fill = regrid::detail::nearest_fill(
        comm, sources, targets, dst.layout.global_size(), links);
    links.insert(links.end(), fill.begin(), fill.end());
  } else {
    links = weigh(regrid::detail::find_nearest(comm, sources, targets, k), options.weighting,
                  scale2);
  }

  Weights weights = WeightsBuilder::distribute(comm, kCaller, src.layout.global_size(),
                                               dst.layout.global_size(), std::move(links));
  WeightsBuilder::set_points(
      weights, {}, {},
      detail::cat("ferry nearest neighbours: ", k, gaussian ? ", gaussian, variance " : "",
                  gaussian ? detail::cat(options.gaussian_variance) : std::string(),
                  gaussian ? "" : ", inverse distance",
                  dropped ? ", masked neighbours dropped" : ""));
  return weights;
}

}  // namespace ferry
