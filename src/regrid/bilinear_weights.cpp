// bilinear_weights: bilinear weights on a logically rectangular source grid (SCRIP's way).
#include <cstdint>
#include <utility>
#include <vector>

#include "ferry/online_weights.hpp"
#include "regrid/bilinear_cells.hpp"
#include "regrid/weights_builder.hpp"

namespace ferry {

namespace {

const char* const kCaller = "bilinear_weights";

}  // namespace

Weights bilinear_weights(MPI_Comm user_comm, const GridPoints& src, const GridPoints& dst,
                         const BilinearOptions& options) {
  const Comm comm = Comm::dup(user_comm);
  const std::int64_t size = src.layout.global_size();
  const regrid::detail::CellSearch search =
      regrid::detail::locate_in_cells(comm, kCaller, src, dst, options);
  std::vector<WeightLink> links;
  links.reserve(4 * (search.hits.size() + search.misses.size()));
  for (const regrid::detail::CellHit& hit : search.hits) {
    const double a = hit.a;
    const double b = hit.b;
    const double weight[4] = {(1 - a) * (1 - b), a * (1 - b), a * b, (1 - a) * b};
    for (int n = 0; n < 4; ++n) links.push_back({hit.dst, hit.corner[n], weight[n], n});
  }
  const std::vector<WeightLink> fill = regrid::detail::unmapped_links(comm, src, options, search);
  links.insert(links.end(), fill.begin(), fill.end());
  Weights weights =
      WeightsBuilder::distribute(comm, kCaller, size, dst.layout.global_size(), std::move(links));
  WeightsBuilder::set_points(weights, {}, {},
                             regrid::detail::unmapped_title(options.unmapped, false));
  return weights;
}

}  // namespace ferry
