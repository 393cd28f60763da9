// bicubic_gradient_weights: SCRIP's bicubic weights on a logically rectangular source grid.
#include <utility>
#include <vector>

#include "ferry/online_weights.hpp"
#include "regrid/bilinear_cells.hpp"
#include "regrid/grid_input.hpp"
#include "regrid/nearest_fill.hpp"
#include "regrid/weights_builder.hpp"

namespace ferry {

namespace {

const char* const kCaller = "bicubic_gradient_weights";

// The cubic Hermite basis on 0..1: the value at 0 (h00) and at 1 (h01), the slope at
// 0 (h10) and at 1 (h11).
double h00(double t) { return (1 + 2 * t) * (1 - t) * (1 - t); }
double h01(double t) { return t * t * (3 - 2 * t); }
double h10(double t) { return t * (t - 1) * (t - 1); }
double h11(double t) { return t * t * (t - 1); }

}  // namespace

BicubicGradientWeights bicubic_gradient_weights(MPI_Comm user_comm, const GridPoints& src,
                                                const GridPoints& dst,
                                                const BilinearOptions& options) {
  const Comm comm = Comm::dup(user_comm);
  // Per kind (value, d/di, d/dj, d2/didj) the links, the same rows and columns in each.
  std::vector<WeightLink> links[4];
  for (const regrid::detail::CellHit& hit :
       regrid::detail::locate_in_cells(comm, kCaller, src, dst, options)) {
    if (!hit.valid) continue;
    const double a = hit.a;
    const double b = hit.b;
    // Corners (i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1): the value and slope
    // bases in i at a, in j at b.
    const double value_i[4] = {h00(a), h01(a), h01(a), h00(a)};
    const double slope_i[4] = {h10(a), h11(a), h11(a), h10(a)};
    const double value_j[4] = {h00(b), h00(b), h01(b), h01(b)};
    const double slope_j[4] = {h10(b), h10(b), h11(b), h11(b)};
    for (int n = 0; n < 4; ++n) {
      const double weight[4] = {value_i[n] * value_j[n], slope_i[n] * value_j[n],
                                value_i[n] * slope_j[n], slope_i[n] * slope_j[n]};
      for (int kind = 0; kind < 4; ++kind)
        links[kind].push_back({hit.dst, hit.corner[n], weight[kind], n});
    }
  }
  if (options.unmapped == Unmapped::Nearest) {
    const std::vector<WeightLink> fill = regrid::detail::nearest_fill(
        comm, regrid::detail::located_points(src, true), regrid::detail::located_points(dst, true),
        dst.layout.global_size(), links[0]);
    for (int kind = 0; kind < 4; ++kind)
      for (WeightLink l : fill) {
        if (kind > 0) l.weight = 0;
        links[kind].push_back(l);
      }
  }
  const char* method =
      options.unmapped == Unmapped::Nearest ? "ferry bicubic, nearest fill" : "ferry bicubic";
  Weights made[4];
  for (int kind = 0; kind < 4; ++kind) {
    made[kind] = WeightsBuilder::distribute(comm, kCaller, src.layout.global_size(),
                                            dst.layout.global_size(), std::move(links[kind]));
    WeightsBuilder::set_points(made[kind], {}, {}, method);
  }
  return {std::move(made[0]), std::move(made[1]), std::move(made[2]), std::move(made[3])};
}

}  // namespace ferry
