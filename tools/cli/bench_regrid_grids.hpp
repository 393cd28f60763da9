// The two grids of `ferry bench regrid`: an atmosphere and an ocean sized for one node.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ferry/online_weights.hpp"

namespace ferry::cli {

/// A grid whose points any rank can compute without the others: id -> coordinates.
class BenchGrid {
 public:
  /// An octahedral reduced grid O-n (as ECMWF's, 4 n (n + 9) points): 2n rows from
  /// north to south, row j of 4 min(j, 2n + 1 - j) + 16 points; latitudes equally
  /// spaced (close to Gaussian latitudes). No mask.
  static BenchGrid octahedral(int n);
  /// An nx x ny longitude-latitude ocean from 78 S to 90 N, id = j nx + i, with
  /// smooth continents and Antarctica masked.
  static BenchGrid ocean(int nx, int ny);

  std::int64_t size() const noexcept { return size_; }
  const std::string& name() const noexcept { return name_; }
  /// This rank's points for `layout` (any ids of this grid).
  GridPoints points(const Layout& layout) const;

 private:
  void coordinates(std::int64_t id, double& lon, double& lat) const;

  std::string name_;
  std::int64_t size_ = 0;
  // Octahedral: first id of each row; ocean: empty.
  std::vector<std::int64_t> row_start_;
  int nx_ = 0;
  int ny_ = 0;
};

}  // namespace ferry::cli
