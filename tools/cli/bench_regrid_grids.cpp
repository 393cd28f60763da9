#include "bench_regrid_grids.hpp"

#include <algorithm>
#include <cmath>

namespace ferry::cli {

namespace {

constexpr double kRadiansPerDegree = 3.14159265358979323846 / 180;
constexpr double kOceanSouth = -78;

// 1 for an ocean point, 0 for land, at longitude `lon` and latitude `lat` (degrees).
std::int32_t ocean_mask(double lon, double lat) {
  if (lat < -66) return 0;  // Antarctica
  const double lambda = lon * kRadiansPerDegree;
  const double phi = lat * kRadiansPerDegree;
  const double land = std::sin(2 * lambda + 0.6) * std::cos(phi) * std::cos(3 * phi - 0.4) +
                      0.35 * std::sin(5 * lambda) * std::cos(2 * phi);
  return land > 0.45 ? 0 : 1;
}

}  // namespace

BenchGrid BenchGrid::octahedral(int n) {
  BenchGrid g;
  g.name_ = "O" + std::to_string(n);
  g.row_start_.push_back(0);
  for (int j = 1; j <= 2 * n; ++j)
    g.row_start_.push_back(g.row_start_.back() + 4 * std::min(j, 2 * n + 1 - j) + 16);
  g.size_ = g.row_start_.back();
  return g;
}

BenchGrid BenchGrid::ocean(int nx, int ny) {
  BenchGrid g;
  g.name_ = std::to_string(nx) + "x" + std::to_string(ny);
  g.nx_ = nx;
  g.ny_ = ny;
  g.size_ = static_cast<std::int64_t>(nx) * ny;
  return g;
}

void BenchGrid::coordinates(std::int64_t id, double& lon, double& lat) const {
  if (row_start_.empty()) {
    lon = (static_cast<double>(id % nx_) + 0.5) * 360.0 / nx_;
    lat = kOceanSouth + (static_cast<double>(id / nx_) + 0.5) * (90 - kOceanSouth) / ny_;
    return;
  }
  const auto row = std::upper_bound(row_start_.begin(), row_start_.end(), id) - row_start_.begin();
  const std::int64_t in_row = row_start_[static_cast<std::size_t>(row)] -
                              row_start_[static_cast<std::size_t>(row) - 1];
  const std::int64_t rows = static_cast<std::int64_t>(row_start_.size()) - 1;
  lon = static_cast<double>(id - row_start_[static_cast<std::size_t>(row) - 1]) * 360.0 /
        static_cast<double>(in_row);
  lat = 90 - (static_cast<double>(row) - 0.5) * 180.0 / static_cast<double>(rows);
}

GridPoints BenchGrid::points(const Layout& layout) const {
  GridPoints points{layout, {}, {}, {}};
  const auto n = static_cast<std::size_t>(layout.local_size());
  points.lon.resize(n);
  points.lat.resize(n);
  for (std::size_t i = 0; i < n; ++i) coordinates(layout.ids()[i], points.lon[i], points.lat[i]);
  if (row_start_.empty())
    for (std::size_t i = 0; i < n; ++i)
      points.mask.push_back(ocean_mask(points.lon[i], points.lat[i]));
  return points;
}

}  // namespace ferry::cli
