// WeightsBuilder: moves links to the ranks owning their rows, the one way to make Weights.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/weights.hpp"

namespace ferry {

/// Builds Weights for Weights::read, Weights::from_links and future generators.
class WeightsBuilder {
 public:
  /// Collective over `comm`. `links` (any share, any order, already checked to lie in
  /// the grids and be finite) travel to the ranks owning their rows and are sorted by
  /// (row, order). Raises Errc::Arg on every rank, naming `caller`, if two links of a
  /// row have the same order.
  static Weights distribute(const Comm& comm, const std::string& caller, std::int64_t src_size,
                            std::int64_t dst_size, std::vector<WeightLink> links);
  /// Not collective: attaches the point data of this rank's blocks and the method name.
  static void set_points(Weights& weights, GridPointData src, GridPointData dst,
                         std::string method);
};

}  // namespace ferry
