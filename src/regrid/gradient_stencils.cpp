#include "regrid/gradient_stencils.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/rendezvous.hpp"
#include "regrid/blocks.hpp"
#include "regrid/sphere_vector.hpp"
#include "util/mpi.hpp"

namespace ferry::regrid::detail {

namespace {

using ferry::detail::route;

// Below this part of the product of its diagonal, the 2 x 2 least-squares matrix is
// taken as singular: the neighbours lie (nearly) on one line.
constexpr double kSingular = 1e-12;
// Below this sine of the angle between them, a cell's i and j differences are taken
// as parallel: its gradient is the one along the longer.
constexpr double kParallel = 1e-6;

// A cell's centroid (radians) if it is valid, asked for by rank `home` for its answer
// `slot`.
struct Place {
  std::int64_t id;
  std::int64_t slot;
  std::int32_t home;
  std::int32_t valid;
  double lon;
  double lat;
};

// A part of the weight of link (row, col): the value weight (via -1), or what the
// gradients at cell `via` give it.
struct Part {
  std::int64_t row;
  std::int64_t col;
  std::int64_t via;
  double weight;
};

// Collective: the centroids (radians) of the cells `ids` (any on any rank) among
// `centroids` (the valid cells, any share on any rank), in the order of `ids`; a cell
// none holds (masked) comes back with `valid` false.
std::vector<Place> places_of(const Comm& comm, std::int64_t cells,
                             const std::vector<LocatedPoint>& centroids,
                             const std::vector<std::int64_t>& ids) {
  const Blocks blocks(cells, comm.size());
  std::vector<LocatedPoint> held =
      route(comm, centroids, [&](const LocatedPoint& p) { return blocks.owner(p.point.id); });
  std::sort(held.begin(), held.end(), [](const LocatedPoint& a, const LocatedPoint& b) {
    return a.point.id < b.point.id;
  });
  std::vector<Place> asks;
  asks.reserve(ids.size());
  for (std::size_t n = 0; n < ids.size(); ++n)
    asks.push_back({ids[n], static_cast<std::int64_t>(n), comm.rank(), 0, 0, 0});
  asks = route(comm, asks, [&](const Place& p) { return blocks.owner(p.id); });
  for (Place& p : asks) {
    const auto at = std::lower_bound(
        held.begin(), held.end(), p.id,
        [](const LocatedPoint& c, std::int64_t id) { return c.point.id < id; });
    if (at == held.end() || at->point.id != p.id) continue;
    p.valid = 1;
    p.lon = at->lon * kRadiansPerDegree;
    p.lat = at->lat * kRadiansPerDegree;
  }
  asks = route(comm, asks, [](const Place& p) { return p.home; });
  std::vector<Place> places(ids.size());
  for (const Place& p : asks) places[static_cast<std::size_t>(p.slot)] = p;
  return places;
}

// The terms of one cell's gradients, each source point once, ordered by `from`.
class CellTerms {
 public:
  explicit CellTerms(std::int64_t cell) : cell_(cell) {}
  void add(std::int64_t from, double lat, double east) {
    for (GradientTerm& t : terms_)
      if (t.from == from) {
        t.gradient[0] += lat;
        t.gradient[1] += east;
        return;
      }
    terms_.push_back({cell_, from, {lat, east, 0}});
  }
  void append_to(std::vector<GradientTerm>& out) {
    // A point whose terms cancelled (the cell itself on both sides) adds nothing.
    terms_.erase(std::remove_if(terms_.begin(), terms_.end(),
                                [](const GradientTerm& t) {
                                  return t.gradient[0] == 0 && t.gradient[1] == 0;
                                }),
                 terms_.end());
    std::sort(terms_.begin(), terms_.end(),
              [](const GradientTerm& a, const GradientTerm& b) { return a.from < b.from; });
    out.insert(out.end(), terms_.begin(), terms_.end());
  }

 private:
  std::int64_t cell_;
  std::vector<GradientTerm> terms_;
};

}  // namespace

std::vector<GradientTerm> gradient_stencils(const Comm& comm, std::int64_t cells,
                                            const std::vector<LocatedPoint>& centroids,
                                            int neighbours) {
  std::int64_t valid = static_cast<std::int64_t>(centroids.size());
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, &valid, 1, MPI_INT64_T, MPI_SUM, comm.get()));
  // The cell itself comes first among its nearest points (distance 0).
  const int k = static_cast<int>(std::min<std::int64_t>(neighbours + 1, valid));
  std::vector<GradientTerm> terms;
  if (k < 3) return terms;
  const NeighbourLists lists = find_nearest(comm, centroids, centroids, k);
  // The answers carry ids: ask the rank holding each neighbour's block for its place.
  std::vector<std::int64_t> ids;
  ids.reserve(lists.neighbours.size());
  for (const auto& n : lists.neighbours) ids.push_back(n.id);
  const std::vector<Place> places = places_of(comm, cells, centroids, ids);

  // Least squares: the gradient g minimises sum_n (g . (dlon_n, dlat_n) - (f_n - f_q))^2,
  // so g = M^-1 sum_n (dlon_n, dlat_n) (f_n - f_q), M = sum_n (dlon_n, dlat_n)^T (...).
  for (std::size_t q = 0; q < lists.queries.size(); ++q) {
    const LocatedPoint& query = lists.queries[q];
    const double lon0 = query.lon * kRadiansPerDegree;
    const double lat0 = query.lat * kRadiansPerDegree;
    std::vector<Place> near;
    for (int n = 0; n < k; ++n) {
      Place p = places[q * static_cast<std::size_t>(k) + n];
      if (p.id == query.point.id) continue;
      p.lon = std::remainder(p.lon - lon0, 2 * kPi);
      p.lat -= lat0;
      near.push_back(p);
    }
    double xx = 0, xy = 0, yy = 0;
    for (const Place& p : near) {
      xx += p.lon * p.lon;
      xy += p.lon * p.lat;
      yy += p.lat * p.lat;
    }
    const double det = xx * yy - xy * xy;
    if (!(det > kSingular * xx * yy)) continue;
    // d f / d lon becomes the eastward gradient per radian of arc, as SCRIP's weights
    // take it: divided by cos(lat0) (the centroid is never at a pole).
    const double east = 1 / std::cos(lat0);
    double self_lat = 0, self_lon = 0;
    std::vector<GradientTerm> row;
    for (const Place& p : near) {
      const double lon = east * (yy * p.lon - xy * p.lat) / det;
      const double lat = (xx * p.lat - xy * p.lon) / det;
      row.push_back({query.point.id, p.id, {lat, lon, 0}});
      self_lat -= lat;
      self_lon -= lon;
    }
    row.push_back({query.point.id, query.point.id, {self_lat, self_lon, 0}});
    std::sort(row.begin(), row.end(),
              [](const GradientTerm& a, const GradientTerm& b) { return a.from < b.from; });
    terms.insert(terms.end(), row.begin(), row.end());
  }
  return terms;
}

std::vector<GradientTerm> centred_difference_stencils(const Comm& comm, std::int64_t nx,
                                                      std::int64_t ny, bool periodic,
                                                      const std::vector<LocatedPoint>& centroids) {
  // Per valid cell: east, west, north and south neighbour, each -1 beyond the grid.
  constexpr std::int64_t kSteps[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  std::vector<std::int64_t> ids;
  ids.reserve(4 * centroids.size());
  for (const LocatedPoint& c : centroids)
    for (const auto& step : kSteps)
      ids.push_back(grid_neighbour(c.point.id, step[0], step[1], nx, ny, periodic));
  std::vector<std::int64_t> known;
  for (std::int64_t id : ids)
    if (id >= 0) known.push_back(id);
  const std::vector<Place> found = places_of(comm, nx * ny, centroids, known);
  std::vector<GradientTerm> terms;
  for (std::size_t c = 0, next = 0; c < centroids.size(); ++c) {
    const std::int64_t cell = centroids[c].point.id;
    const double lon0 = centroids[c].lon * kRadiansPerDegree;
    const double lat0 = centroids[c].lat * kRadiansPerDegree;
    // SCRIP's and CDO's rule: a neighbour beyond the grid or masked is the cell itself.
    std::int64_t id[4];
    double x[4], y[4];
    for (int n = 0; n < 4; ++n) {
      id[n] = cell;
      x[n] = y[n] = 0;
      if (ids[4 * c + n] < 0) continue;
      const Place& p = found[next++];
      if (!p.valid) continue;
      id[n] = p.id;
      // Eastward and northward arcs (radians) from the cell's centroid, longitudes the
      // short way round.
      x[n] = std::remainder(p.lon - lon0, 2 * kPi) * std::cos(lat0);
      y[n] = p.lat - lat0;
    }
    // The differences along i (east less west) and j (north less south) give the
    // field's differences along them: (ax, ay) . g = f(e) - f(w), (bx, by) . g = f(n) -
    // f(s), g = (eastward, northward) gradient. CDO's halves cancel in the ratio.
    const double ax = x[0] - x[1], ay = y[0] - y[1];
    const double bx = x[2] - x[3], by = y[2] - y[3];
    const double a2 = ax * ax + ay * ay, b2 = bx * bx + by * by;
    const double det = ax * by - ay * bx;
    CellTerms cell_terms(cell);
    if (std::abs(det) > kParallel * std::sqrt(a2 * b2)) {
      cell_terms.add(id[0], -bx / det, by / det);
      cell_terms.add(id[1], bx / det, -by / det);
      cell_terms.add(id[2], ax / det, -ay / det);
      cell_terms.add(id[3], -ax / det, ay / det);
    } else if (a2 > 0 || b2 > 0) {
      // One direction only (both neighbours masked along the other, or coincident as
      // an ORCA grid's duplicated columns): the gradient along it.
      const bool along_i = a2 >= b2;
      const double vx = along_i ? ax : bx, vy = along_i ? ay : by, v2 = along_i ? a2 : b2;
      cell_terms.add(id[along_i ? 0 : 2], vy / v2, vx / v2);
      cell_terms.add(id[along_i ? 1 : 3], -vy / v2, -vx / v2);
    }
    cell_terms.append_to(terms);
  }
  return terms;
}

std::vector<WeightLink> fold_gradients(const Comm& comm, std::int64_t src_size,
                                       std::int64_t dst_size, const std::vector<GradientLink>& links,
                                       std::vector<GradientTerm> terms) {
  const Blocks cells(src_size, comm.size());
  const Blocks rows(dst_size, comm.size());
  terms = route(comm, std::move(terms), [&](const GradientTerm& t) { return cells.owner(t.cell); });
  std::sort(terms.begin(), terms.end(), [](const GradientTerm& a, const GradientTerm& b) {
    return a.cell != b.cell ? a.cell < b.cell : a.from < b.from;
  });
  std::vector<Part> parts;
  std::vector<GradientLink> gradient_links;
  for (const GradientLink& l : links) {
    parts.push_back({l.row, l.col, -1, l.value});
    if (l.gradient[0] != 0 || l.gradient[1] != 0 || l.gradient[2] != 0)
      gradient_links.push_back(l);
  }
  gradient_links = route(comm, std::move(gradient_links),
                         [&](const GradientLink& l) { return cells.owner(l.col); });
  for (const GradientLink& l : gradient_links) {
    auto at = std::lower_bound(terms.begin(), terms.end(), l.col,
                               [](const GradientTerm& t, std::int64_t cell) { return t.cell < cell; });
    for (; at != terms.end() && at->cell == l.col; ++at) {
      double weight = 0;
      for (int k = 0; k < kGradients; ++k) weight += l.gradient[k] * at->gradient[k];
      parts.push_back({l.row, at->from, l.col, weight});
    }
  }
  gradient_links = {};
  parts = route(comm, std::move(parts), [&](const Part& p) { return rows.owner(p.row); });
  // By row (counting), then each row by (column, via): a fixed order for every sum.
  const std::int64_t first_row = rows.first(comm.rank());
  std::vector<std::size_t> start(static_cast<std::size_t>(rows.count(comm.rank())) + 1, 0);
  for (const Part& p : parts) ++start[static_cast<std::size_t>(p.row - first_row) + 1];
  for (std::size_t r = 1; r < start.size(); ++r) start[r] += start[r - 1];
  std::vector<Part> by_row(parts.size());
  std::vector<std::size_t> next(start.begin(), start.end() - 1);
  for (const Part& p : parts) by_row[next[static_cast<std::size_t>(p.row - first_row)]++] = p;
  parts = {};
  for (std::size_t r = 0; r + 1 < start.size(); ++r)
    std::sort(by_row.begin() + static_cast<std::ptrdiff_t>(start[r]),
              by_row.begin() + static_cast<std::ptrdiff_t>(start[r + 1]),
              [](const Part& a, const Part& b) { return a.col != b.col ? a.col < b.col : a.via < b.via; });
  parts = std::move(by_row);
  std::vector<WeightLink> folded;
  for (std::size_t first = 0, last = 0; first < parts.size(); first = last) {
    double weight = 0;
    for (last = first; last < parts.size() && parts[last].row == parts[first].row &&
                       parts[last].col == parts[first].col;
         ++last)
      weight += parts[last].weight;
    folded.push_back({parts[first].row, parts[first].col, weight, parts[first].col});
  }
  return folded;
}

}  // namespace ferry::regrid::detail
