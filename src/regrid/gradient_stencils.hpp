// Source gradients as linear stencils, and folding them into remapping weights.
#pragma once

#include <cstdint>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/weights.hpp"
#include "regrid/neighbour_search.hpp"

namespace ferry::regrid::detail {

/// Up to three gradients of a field at each source point: second-order conservative
/// uses d f / d lat and the eastward gradient per radian of arc (d f / d lon /
/// cos(lat)), bicubic d f / di, d f / dj and d2 f / didj.
inline constexpr int kGradients = 3;

/// One term of the gradients of the field at source point `cell`: gradient k there
/// receives gradient[k] times f at point `from`.
struct GradientTerm {
  std::int64_t cell;
  std::int64_t from;
  double gradient[kGradients];
};

/// Collective over `comm`. The gradient of a field given at the centroids of the valid
/// cells of a source grid of `cells` cells (any share on any rank; lon and lat of each
/// LocatedPoint in degrees): at each cell, the least-squares plane in (longitude,
/// latitude) through the values of its `neighbours` nearest other valid cells, relative
/// to its own value (so a field linear in longitude and latitude has its exact
/// gradient, away from the date line across which longitudes are taken the short way). A cell whose neighbours do not
/// span two directions gets no terms (a zero gradient). Returns this rank's share of
/// the terms, each cell's ordered by `from`; the same terms for any ranks and layouts.
std::vector<GradientTerm> gradient_stencils(const Comm& comm, std::int64_t cells,
                                            const std::vector<LocatedPoint>& centroids,
                                            int neighbours);

/// The cell (i + di, j + dj) of a logically rectangular nx x ny grid whose cell (i, j)
/// has id j * nx + i, or -1 beyond it (in i only where the grid is not `periodic`).
inline std::int64_t grid_neighbour(std::int64_t id, std::int64_t di, std::int64_t dj,
                                   std::int64_t nx, std::int64_t ny, bool periodic) {
  std::int64_t i = id % nx + di;
  const std::int64_t j = id / nx + dj;
  if (j < 0 || j >= ny) return -1;
  if (i < 0 || i >= nx) {
    if (!periodic) return -1;
    i = (i + nx) % nx;
  }
  return j * nx + i;
}

/// Collective over `comm`. The same gradients of a field on a logically rectangular
/// grid of nx x ny cells (cell (i, j) has id j * nx + i; `centroids` as for
/// gradient_stencils) by centred differences along i and j, as SCRIP and CDO make them
/// for second-order conservative remapping: the neighbours (i + 1, j) and (i - 1, j),
/// across the ends of the rows where the grid is `periodic`, and (i, j + 1) and (i, j -
/// 1); one that is masked or beyond the grid is replaced by the cell itself (a
/// one-sided difference). The two differences of the field along i and j and those of
/// the centroids' positions (eastward and northward arcs, longitudes the short way)
/// give the gradient: exact for a field linear in longitude and latitude, on any
/// curvilinear grid. Where the two differences are (nearly) parallel or one is
/// nothing, the gradient along the longer alone. Returns this rank's share of the
/// terms, each cell's ordered by `from`; the same terms for any ranks and layouts.
std::vector<GradientTerm> centred_difference_stencils(const Comm& comm, std::int64_t nx,
                                                      std::int64_t ny, bool periodic,
                                                      const std::vector<LocatedPoint>& centroids);

/// A link of remapping with gradients: destination `row` receives `value` times the
/// field at source `col`, plus gradient[k] times its gradient k there.
struct GradientLink {
  std::int64_t row;
  std::int64_t col;
  double value;
  double gradient[kGradients];
};

/// Collective over `comm`. The matrix that applies `links` (any share on any rank) with
/// the gradients of `terms` (gradient_stencils') made from the field itself: row r,
/// column c receives the value weight of (r, c) plus, for every link (r, s), its
/// gradient weights times the terms of cell s from c. Each sum runs in one fixed order
/// (the value first, then by s), so the links are the same for any ranks and layouts.
/// Returns this rank's share, one link per (row, column), its order the column.
std::vector<WeightLink> fold_gradients(const Comm& comm, std::int64_t src_size,
                                       std::int64_t dst_size, const std::vector<GradientLink>& links,
                                       std::vector<GradientTerm> terms);

}  // namespace ferry::regrid::detail
