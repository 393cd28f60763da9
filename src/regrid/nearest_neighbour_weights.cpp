// nearest_neighbour_weights: k-nearest-neighbour weights from grid coordinates.
#include "ferry/online_weights.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "ferry/global_sum.hpp"
#include "regrid/bilinear_cells.hpp"
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

// The links of every destination point answered here, its neighbours in order:
// shares_of(q, row, share) sets each neighbour's share of row q, none where it is
// negative; the source id is the neighbour's shifted right by `id_shift`.
template <class Shares>
std::vector<WeightLink> weigh_rows(const NeighbourLists& lists, Shares shares_of, int id_shift) {
  const auto k = static_cast<std::size_t>(lists.k);
  std::vector<WeightLink> links;
  links.reserve(lists.neighbours.size());
  std::vector<double> share(k);
  for (std::size_t q = 0; q < lists.queries.size(); ++q) {
    const regrid::detail::Neighbour* row = &lists.neighbours[q * k];
    shares_of(q, row, share);
    double total = 0;
    for (std::size_t i = 0; i < k; ++i)
      if (share[i] >= 0) total += share[i];
    for (std::size_t i = 0; i < k; ++i)
      if (share[i] >= 0)
        links.push_back({lists.queries[q].point.id, row[i].id >> id_shift, share[i] / total,
                         static_cast<std::int64_t>(i)});
  }
  return links;
}

// SCRIP's guard against a zero distance in DISTWGT: Fortran's epsilon(1.0d0).
constexpr double kScripEpsilon = 0x1p-52;

// The great-circle arc (radians) of a squared chord.
double arc_of_chord2(double d2) { return 2 * std::asin(std::min(1.0, std::sqrt(d2) / 2)); }

// Every neighbour of a row (the k nearest valid points) by inverse chord or by a
// Gaussian of one scale s^2 = scale2.
std::vector<WeightLink> weigh(const NeighbourLists& lists, NeighbourWeighting weighting,
                              double scale2) {
  const auto k = static_cast<std::size_t>(lists.k);
  return weigh_rows(
      lists,
      [&](std::size_t, const regrid::detail::Neighbour* row, std::vector<double>& share) {
        for (std::size_t i = 0; i < k; ++i) {
          if (weighting == NeighbourWeighting::InverseDistance) {
            const double d = std::sqrt(row[i].d2);
            share[i] = 1 / (d > 0 ? d : kZeroDistance);
          } else {
            // Relative to the nearest neighbour, so far rows never underflow to 0 / 0.
            share[i] = std::exp(-(row[i].d2 - row[0].d2) / (2 * scale2));
          }
        }
      },
      0);
}

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

// OASIS's DISTWGT shares of a row of marked neighbours: the masked ones none, the
// others their inverse arc.
void inverse_arc_shares(const regrid::detail::Neighbour* row, std::vector<double>& share) {
  for (std::size_t i = 0; i < share.size(); ++i)
    share[i] = row[i].id % 2 != 0 ? -1.0 : 1 / (arc_of_chord2(row[i].d2) + kScripEpsilon);
}

// The unit vectors of the source points `ids` (ascending, unique) any rank asks for.
class SourcePlaces {
 public:
  SourcePlaces(const Comm& comm, const GridPoints& src, const std::vector<std::int64_t>& ids) {
    for (const regrid::detail::SourcePoint& p : regrid::detail::fetch_source_points(comm, src, ids)) {
      ids_.push_back(p.id);
      xyz_.insert(xyz_.end(), {std::cos(p.lat) * std::cos(p.lon),
                               std::cos(p.lat) * std::sin(p.lon), std::sin(p.lat)});
    }
  }

  // The squared chord between source points a and b, summed as the search sums it.
  double chord2(std::int64_t a, std::int64_t b) const {
    const double* p = place(a);
    const double* r = place(b);
    double d2 = 0;
    for (int c = 0; c < 3; ++c) d2 += (p[c] - r[c]) * (p[c] - r[c]);
    return d2;
  }

 private:
  const double* place(std::int64_t id) const {
    const auto n = std::lower_bound(ids_.begin(), ids_.end(), id) - ids_.begin();
    return &xyz_[3 * static_cast<std::size_t>(n)];
  }

  std::vector<std::int64_t> ids_;
  std::vector<double> xyz_;
};

// SCRIP's GAUSWGT (GaussianScale::NeighbourSpacing): the neighbours that get links
// (`keep`), by their arc a_i, share exp(-(a_i^2 - a_0^2) / (2 s^2)) with s^2 = variance
// * m^2, m the mean arc between the pairs of them (a_0 the nearest kept one's arc, so
// far rows never underflow). Collective: fetches the places of the kept neighbours.
template <class Keep>
std::vector<WeightLink> weigh_neighbour_gaussian(const Comm& comm, const GridPoints& src,
                                                 const NeighbourLists& lists, int id_shift,
                                                 double variance, Keep keep) {
  std::vector<std::int64_t> ids;
  for (const regrid::detail::Neighbour& n : lists.neighbours)
    if (keep(n)) ids.push_back(n.id >> id_shift);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  const SourcePlaces places(comm, src, ids);
  const auto k = static_cast<std::size_t>(lists.k);
  return weigh_rows(
      lists,
      [&](std::size_t, const regrid::detail::Neighbour* row, std::vector<double>& share) {
        double pair_arcs = 0;
        std::int64_t pairs = 0;
        std::size_t nearest = k;
        for (std::size_t i = 0; i < k; ++i) {
          if (!keep(row[i])) continue;
          if (nearest == k) nearest = i;
          for (std::size_t j = i + 1; j < k; ++j)
            if (keep(row[j])) {
              pair_arcs += arc_of_chord2(
                  places.chord2(row[i].id >> id_shift, row[j].id >> id_shift));
              ++pairs;
            }
        }
        const double mean = pairs > 0 ? pair_arcs / static_cast<double>(pairs) : 0;
        const double scale2 = variance * mean * mean;
        for (std::size_t i = 0; i < k; ++i) {
          if (!keep(row[i])) {
            share[i] = -1;
          } else if (scale2 > 0) {
            const double a = arc_of_chord2(row[i].d2);
            const double a0 = arc_of_chord2(row[nearest].d2);
            share[i] = std::exp(-(a * a - a0 * a0) / (2 * scale2));
          } else {
            share[i] = 1;  // one neighbour, or all at one place
          }
        }
      },
      id_shift);
}

}  // namespace

Weights nearest_neighbour_weights(MPI_Comm user_comm, const GridPoints& src, const GridPoints& dst,
                                  const NearestNeighbourOptions& options) {
  const Comm comm = Comm::dup(user_comm);
  const int k = options.neighbours;
  const bool gaussian = options.weighting == NeighbourWeighting::Gaussian;
  const bool per_target = gaussian && options.gaussian_scale == GaussianScale::NeighbourSpacing;
  const bool dropped = options.masked != MaskedNeighbours::Skipped;
  detail::agree_on(comm, [&] {
    FERRY_CHECK(k >= 1, Errc::Arg, kCaller, ": neighbours is ", k, "; give 1 or more");
    FERRY_CHECK(options.weighting == NeighbourWeighting::InverseDistance || gaussian, Errc::Arg,
                kCaller, ": weighting is ", static_cast<int>(options.weighting),
                "; give InverseDistance (0) or Gaussian (1)");
    FERRY_CHECK(options.gaussian_scale == GaussianScale::SourceSpacing ||
                    options.gaussian_scale == GaussianScale::NeighbourSpacing,
                Errc::Arg, kCaller, ": gaussian_scale is ", static_cast<int>(options.gaussian_scale),
                "; give SourceSpacing (0) or NeighbourSpacing (1)");
    FERRY_CHECK(options.masked == MaskedNeighbours::Skipped ||
                    options.masked == MaskedNeighbours::Dropped ||
                    options.masked == MaskedNeighbours::DroppedNoFill,
                Errc::Arg, kCaller, ": masked neighbours is ", static_cast<int>(options.masked),
                "; give Skipped (0), Dropped (1) or DroppedNoFill (2)");
    FERRY_CHECK(!gaussian || (options.gaussian_variance > 0 &&
                              std::isfinite(options.gaussian_variance)),
                Errc::Arg, kCaller, ": gaussian_variance is ", options.gaussian_variance,
                "; give a finite number > 0 (OASIS GAUSWGT uses values near 0.1 to 1)");
    FERRY_CHECK(!gaussian || !dropped || per_target, Errc::Arg, kCaller,
                ": masked neighbours dropped (OASIS's DISTWGT and GAUSWGT rule) takes "
                "inverse-distance weighting or Gaussian weighting with "
                "GaussianScale::NeighbourSpacing (OASIS's GAUSWGT); give one of those, or "
                "MaskedNeighbours::Skipped");
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
    FERRY_CHECK(!gaussian || per_target || valid >= 2, Errc::Arg, kCaller,
                ": Gaussian weighting needs 2 or more valid source points to measure their "
                "spacing; the source grid has ", valid);
  });

  const std::vector<LocatedPoint> targets = regrid::detail::located_points(dst, true);
  std::vector<WeightLink> links;
  if (dropped) {
    const NeighbourLists lists =
        regrid::detail::find_nearest(comm, marked_sources(src), targets, k);
    const auto unmasked = [](const regrid::detail::Neighbour& n) { return n.id % 2 == 0; };
    links = per_target ? weigh_neighbour_gaussian(comm, src, lists, 1, options.gaussian_variance,
                                                  unmasked)
                       : weigh_rows(
                             lists,
                             [](std::size_t, const regrid::detail::Neighbour* row,
                                std::vector<double>& share) { inverse_arc_shares(row, share); },
                             1);
    if (options.masked == MaskedNeighbours::Dropped) {
      const std::vector<WeightLink> fill = regrid::detail::nearest_fill(
          comm, sources, targets, dst.layout.global_size(), links);
      links.insert(links.end(), fill.begin(), fill.end());
    }
  } else if (per_target) {
    links = weigh_neighbour_gaussian(comm, src,
                                     regrid::detail::find_nearest(comm, sources, targets, k), 0,
                                     options.gaussian_variance,
                                     [](const regrid::detail::Neighbour&) { return true; });
  } else {
    const double scale2 =
        gaussian ? gaussian_scale2(comm, sources, valid, options.gaussian_variance) : 0;
    links = weigh(regrid::detail::find_nearest(comm, sources, targets, k), options.weighting,
                  scale2);
  }

  Weights weights = WeightsBuilder::distribute(comm, kCaller, src.layout.global_size(),
                                               dst.layout.global_size(), std::move(links));
  WeightsBuilder::set_points(
      weights, {}, {},
      detail::cat("ferry nearest neighbours: ", k, gaussian ? ", gaussian, variance " : "",
                  gaussian ? detail::cat(options.gaussian_variance) : std::string(),
                  per_target ? " of each row's neighbour spacing" : "",
                  gaussian ? "" : ", inverse distance",
                  dropped ? ", masked neighbours dropped" : "",
                  options.masked == MaskedNeighbours::DroppedNoFill ? ", no fill" : ""));
  return weights;
}

}  // namespace ferry
