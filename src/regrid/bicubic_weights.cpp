// bicubic_weights: SCRIP's bicubic weights on a logically rectangular source grid.
#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "ferry/online_weights.hpp"
#include "regrid/bilinear_cells.hpp"
#include "regrid/gradient_stencils.hpp"
#include "regrid/grid_input.hpp"
#include "regrid/weights_builder.hpp"

namespace ferry {

namespace {

using regrid::detail::GradientLink;
using regrid::detail::GradientTerm;

// The cubic Hermite basis on 0..1: the value at 0 (h00) and at 1 (h01), the slope at
// 0 (h10) and at 1 (h11).
double h00(double t) { return (1 + 2 * t) * (1 - t) * (1 - t); }
double h01(double t) { return t * t * (3 - 2 * t); }
double h10(double t) { return t * (t - 1) * (t - 1); }
double h11(double t) { return t * t * (t - 1); }

// Collective: every link of bicubic weights with its four weights, checked as
// bilinear_weights checks its arguments, naming `caller`.
std::vector<GradientLink> bicubic_links(const Comm& comm, const char* caller,
                                        const GridPoints& src, const GridPoints& dst,
                                        const BilinearOptions& options) {
  const regrid::detail::CellSearch search =
      regrid::detail::locate_in_cells(comm, caller, src, dst, options);
  std::vector<GradientLink> links;
  for (const regrid::detail::CellHit& hit : search.hits) {
    const double a = hit.a;
    const double b = hit.b;
    // Corners (i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1): the value and slope
    // bases in i at a, in j at b.
    const double value_i[4] = {h00(a), h01(a), h01(a), h00(a)};
    const double slope_i[4] = {h10(a), h11(a), h11(a), h10(a)};
    const double value_j[4] = {h00(b), h00(b), h01(b), h01(b)};
    const double slope_j[4] = {h10(b), h10(b), h11(b), h11(b)};
    for (int n = 0; n < 4; ++n) {
      links.push_back({hit.dst, hit.corner[n], value_i[n] * value_j[n],
                       {slope_i[n] * value_j[n], value_i[n] * slope_j[n],
                        slope_i[n] * slope_j[n]}});
    }
  }
  // Filled rows take value weights only (OASIS's and CDO's fills alike).
  for (const WeightLink& l : regrid::detail::unmapped_links(comm, src, options, search))
    links.push_back({l.row, l.col, l.weight, {0, 0, 0}});
  return links;
}

// Collective: the gradient stencils of the valid source points this rank holds, CDO's
// rules (remap_gradients): d/di = (f(i + 1) - f(i - 1)) / 2, d/dj likewise, a masked or
// missing neighbour replaced by the point itself with the half dropped; d2/didj from
// the four diagonal neighbours, each masked one replaced as CDO replaces it.
std::vector<GradientTerm> index_stencils(const Comm& comm, const GridPoints& src,
                                         const BilinearOptions& options) {
  const std::int64_t nx = options.nx;
  const std::int64_t ny = src.layout.global_size() / nx;
  std::vector<std::int64_t> needed;
  for (std::int64_t id : src.layout.ids())
    for (int dj = -1; dj <= 1; ++dj)
      for (int di = -1; di <= 1; ++di) {
        const std::int64_t n =
            regrid::detail::grid_neighbour(id, di, dj, nx, ny, options.periodic);
        if (n >= 0) needed.push_back(n);
      }
  std::sort(needed.begin(), needed.end());
  needed.erase(std::unique(needed.begin(), needed.end()), needed.end());
  const std::vector<regrid::detail::SourcePoint> points =
      regrid::detail::fetch_source_points(comm, src, needed);
  auto valid = [&](std::int64_t id) {
    if (id < 0) return false;
    return std::lower_bound(points.begin(), points.end(), id,
                            [](const regrid::detail::SourcePoint& p, std::int64_t x) {
                              return p.id < x;
                            })->mask != 0;
  };
  std::vector<GradientTerm> terms;
  for (std::size_t k = 0; k < src.layout.ids().size(); ++k) {
    const std::int64_t n = src.layout.ids()[k];
    if (!src.mask.empty() && src.mask[k] == 0) continue;
    auto at = [&](int di, int dj) {
      return regrid::detail::grid_neighbour(n, di, dj, nx, ny, options.periodic);
    };
    // Beyond the outermost rows (and the ends of a regional grid) the point itself.
    const bool has_north = at(0, 1) >= 0;
    const bool has_south = at(0, -1) >= 0;
    std::int64_t ie = at(1, 0) >= 0 ? at(1, 0) : n, iw = at(-1, 0) >= 0 ? at(-1, 0) : n;
    std::int64_t in = has_north ? at(0, 1) : n, is = has_south ? at(0, -1) : n;
    std::int64_t ine = has_north ? (at(1, 1) >= 0 ? at(1, 1) : in) : ie;
    std::int64_t inw = has_north ? (at(-1, 1) >= 0 ? at(-1, 1) : in) : iw;
    std::int64_t ise = has_south ? (at(1, -1) >= 0 ? at(1, -1) : is) : ie;
    std::int64_t isw = has_south ? (at(-1, -1) >= 0 ? at(-1, -1) : is) : iw;
    double del_i = ie != n && iw != n ? 0.5 : 1;
    double del_j = in != n && is != n ? 0.5 : 1;
    if (!valid(ie)) { ie = n; del_i = 1; }
    if (!valid(iw)) { iw = n; del_i = 1; }
    if (!valid(in)) { in = n; del_j = 1; }
    if (!valid(is)) { is = n; del_j = 1; }
    // The cross gradient: CDO keeps one east-west factor through both rows.
    double del_ew = 0.5;
    double del_ns = has_north && has_south ? 0.5 : 1;
    auto replace = [&](std::int64_t& corner, std::int64_t& other, std::int64_t row, std::int64_t
                       same_side, std::int64_t other_side) {
      if (valid(corner)) return;
      if (row != n) {
        corner = row;
        del_ew = 1;
      } else if (same_side != n) {
        corner = same_side;
        other = other_side;
        if (other == n) del_ew = 1;
        del_ns = 1;
      } else {
        corner = n;
        other = other_side;
        del_ew = 1;
        del_ns = 1;
      }
    };
    replace(ine, inw, in, ie, iw);
    replace(inw, ine, in, iw, ie);
    const std::array<std::int64_t, 2> north{ine, inw};
    const double north_ew = del_ew;
    replace(ise, isw, is, ie, iw);
    replace(isw, ise, is, iw, ie);
    const std::array<std::int64_t, 2> south{ise, isw};
    const double south_ew = del_ew;
    // The terms, one per (kind, point), gathered by point.
    std::vector<GradientTerm> row;
    auto add = [&](std::int64_t from, int kind, double weight) {
      for (GradientTerm& t : row)
        if (t.from == from) {
          t.gradient[kind] += weight;
          return;
        }
      GradientTerm t{n, from, {0, 0, 0}};
      t.gradient[kind] = weight;
      row.push_back(t);
    };
    add(ie, 0, del_i);
    add(iw, 0, -del_i);
    add(in, 1, del_j);
    add(is, 1, -del_j);
    add(north[0], 2, del_ns * north_ew);
    add(north[1], 2, -del_ns * north_ew);
    add(south[0], 2, -del_ns * south_ew);
    add(south[1], 2, del_ns * south_ew);
    std::sort(row.begin(), row.end(),
              [](const GradientTerm& x, const GradientTerm& y) { return x.from < y.from; });
    terms.insert(terms.end(), row.begin(), row.end());
  }
  return terms;
}

Weights build(const Comm& comm, const char* caller, const GridPoints& src, const GridPoints& dst,
              std::vector<WeightLink> links, const BilinearOptions& options) {
  Weights weights = WeightsBuilder::distribute(comm, caller, src.layout.global_size(),
                                               dst.layout.global_size(), std::move(links));
  WeightsBuilder::set_points(weights, {}, {},
                             regrid::detail::unmapped_title(options.unmapped, true));
  return weights;
}

}  // namespace

BicubicGradientWeights bicubic_gradient_weights(MPI_Comm user_comm, const GridPoints& src,
                                                const GridPoints& dst,
                                                const BilinearOptions& options) {
  const Comm comm = Comm::dup(user_comm);
  const char* const caller = "bicubic_gradient_weights";
  const std::vector<GradientLink> links = bicubic_links(comm, caller, src, dst, options);
  std::vector<WeightLink> kinds[4];
  // The order of a link is its corner: the links of a row come together, corner by
  // corner (one link for a filled row).
  std::int64_t corner = 0;
  for (std::size_t k = 0; k < links.size(); ++k) {
    const GradientLink& l = links[k];
    corner = k > 0 && links[k - 1].row == l.row ? corner + 1 : 0;
    const double weight[4] = {l.value, l.gradient[0], l.gradient[1], l.gradient[2]};
    for (int kind = 0; kind < 4; ++kind)
      kinds[kind].push_back({l.row, l.col, weight[kind], corner});
  }
  return {build(comm, caller, src, dst, std::move(kinds[0]), options),
          build(comm, caller, src, dst, std::move(kinds[1]), options),
          build(comm, caller, src, dst, std::move(kinds[2]), options),
          build(comm, caller, src, dst, std::move(kinds[3]), options)};
}

Weights bicubic_weights(MPI_Comm user_comm, const GridPoints& src, const GridPoints& dst,
                        const BilinearOptions& options) {
  const Comm comm = Comm::dup(user_comm);
  const char* const caller = "bicubic_weights";
  const std::vector<GradientLink> links = bicubic_links(comm, caller, src, dst, options);
  return build(comm, caller, src, dst,
               regrid::detail::fold_gradients(comm, src.layout.global_size(),
                                              dst.layout.global_size(), links,
                                              index_stencils(comm, src, options)),
               options);
}

}  // namespace ferry
