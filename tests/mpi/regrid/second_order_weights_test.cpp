// Second-order conservative weights: the gradient weights integrate latitude and
// longitude exactly (a field linear in latitude is remapped to its exact cell means,
// with given and with computed gradients); over every fully covered source cell they
// add up to nothing (the gradients never change a cell's total), also for cells around
// a pole; centred differences on logically rectangular sources give a linear field's
// exact gradients; the same bits on any number of ranks and any layouts; bad orders
// and shapes refused.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <cstdint>
#include <vector>

#include "ferry/error.hpp"
#include "ferry/online_weights.hpp"
#include "polygon_grids.hpp"
#include "regrid/gradient_stencils.hpp"
#include "test_support.hpp"
#include "weights_checks.hpp"

using ferry::ConservativeOptions;
using ferry::Layout;
using ferry::Weights;
using regrid_test::share;

namespace {

constexpr double kDegree = regrid_test::kTestPi / 180;

// The mean latitude (radians) of a lon-lat rectangle from `south` to `north` (degrees):
// the integral of lat cos(lat) over that of cos(lat).
double mean_latitude(double south, double north) {
  const double s = south * kDegree, n = north * kDegree;
  return (n * std::sin(n) + std::cos(n) - s * std::sin(s) - std::cos(s)) /
         (std::sin(n) - std::sin(s));
}

// Per source cell, over every rank's rows: the sum of weight x N(d) (the destination
// cell's area x fraction covered, fracarea's N) of its links.
std::vector<double> column_integrals(const Weights& w, const Weights& value) {
  std::vector<double> sums(static_cast<std::size_t>(w.src_size()), 0.0);
  for (std::int64_t r = 0; r < w.row_count(); ++r) {
    const auto row = static_cast<std::size_t>(r);
    const double n = (*value.dst_points().area)[row] * (*value.dst_points().frac)[row];
    for (auto k = w.row_start()[row]; k < w.row_start()[row + 1]; ++k)
      sums[static_cast<std::size_t>(w.cols()[static_cast<std::size_t>(k)])] +=
          w.values()[static_cast<std::size_t>(k)] * n;
  }
  MPI_Allreduce(MPI_IN_PLACE, sums.data(), static_cast<int>(sums.size()), MPI_DOUBLE, MPI_SUM,
                MPI_COMM_WORLD);
  return sums;
}

// On grids covering the sphere every source cell is fully covered: its gradient
// weights times N(d) add up to the integrals of (lat - lat_s) and (lon - lon_s)
// cos(lat) over the whole cell, which vanish about its centroid. To 1e-6 of the mean
// cell area times its size: measured 3e-7 where a rotated grid's edges pass within
// metres of a geographic pole (the quadrature's hardest case, 2.8e-9 absolute), below
// 1e-13 elsewhere.
TEST(SecondOrderWeights, GradientsKeepEveryCellsTotal) {
  const int p = ferry_test::size_of(MPI_COMM_WORLD);
  const int me = ferry_test::rank_of(MPI_COMM_WORLD);
  for (const regrid_test::GridPair& pair : regrid_test::grid_pairs()) {
    SCOPED_TRACE(pair.name);
    const ferry::ConservativeGradientWeights w = ferry::conservative_gradient_weights(
        MPI_COMM_WORLD, share(pair.src, Layout::random(pair.src.size(), p, me, 81), true),
        share(pair.dst, Layout::random(pair.dst.size(), p, me, 82)));
    const double area = 4 * regrid_test::kTestPi / static_cast<double>(pair.src.size());
    for (const Weights* g : {&w.lat_gradient, &w.lon_gradient}) {
      double worst = 0;
      for (double s : column_integrals(*g, w.value)) worst = std::max(worst, std::abs(s));
      EXPECT_LE(worst, 1e-6 * area * std::sqrt(area)) << worst;
    }
  }
}

// Latitude on lon-lat grids, where every mean is known in closed form: the value at
// each source centroid (its mean latitude) plus the latitude gradient (1) through the
// gradient weights gives each destination cell's mean latitude, to 1e-13; and so do
// order-2 weights, whose least-squares and centred-difference gradients are exact for
// a field linear in latitude.
TEST(SecondOrderWeights, LinearInLatitudeIsExact) {
  const int p = ferry_test::size_of(MPI_COMM_WORLD);
  const int me = ferry_test::rank_of(MPI_COMM_WORLD);
  const regrid_test::PolygonGrid src = regrid_test::lonlat_grid(36, 18, -5);
  const regrid_test::PolygonGrid dst = regrid_test::lonlat_grid(30, 15, 3);
  std::vector<double> field;
  for (std::size_t i = 0; i < src.lat.size(); ++i)
    field.push_back(mean_latitude(src.lat[i][0], src.lat[i][2]));
  const Layout src_layout = Layout::random(src.size(), p, me, 83);
  const Layout dst_layout = Layout::random(dst.size(), p, me, 84);
  const ferry::ConservativeGradientWeights w = ferry::conservative_gradient_weights(
      MPI_COMM_WORLD, share(src, src_layout), share(dst, dst_layout));
  const std::vector<double> ones(field.size(), 1.0);
  const std::vector<double> value = regrid_test::remap_rows(w.value, field);
  const std::vector<double> gradient = regrid_test::remap_rows(w.lat_gradient, ones);
  ConservativeOptions options;
  options.order = 2;
  const Weights folded = ferry::conservative_weights(MPI_COMM_WORLD, share(src, src_layout),
                                                     share(dst, dst_layout), options);
  const std::vector<double> second = regrid_test::remap_rows(folded, field);
  options.nx = 36;
  const std::vector<double> centred = regrid_test::remap_rows(
      ferry::conservative_weights(MPI_COMM_WORLD, share(src, src_layout), share(dst, dst_layout),
                                  options),
      field);
  ASSERT_EQ(second.size(), value.size());
  ASSERT_EQ(centred.size(), value.size());
  for (std::size_t r = 0; r < value.size(); ++r) {
    const auto row = static_cast<std::size_t>(w.value.first_row()) + r;
    const double exact = mean_latitude(dst.lat[row][0], dst.lat[row][2]);
    EXPECT_NEAR(value[r] + gradient[r], exact, 1e-13) << "row " << row;
    EXPECT_NEAR(second[r], exact, 1e-13) << "row " << row;
    EXPECT_NEAR(centred[r], exact, 1e-13) << "row " << row;
  }
}

// The centred differences of a logically rectangular grid (ConservativeOptions::nx) on
// a curvilinear and a lon-lat grid, every fifth column masked (one-sided differences
// beside them), cells of random layouts: at every valid cell, applied to latitude they
// give gradients (northward 1, eastward 0), applied to longitude (taken about the
// cell) (0, 1 / cos(lat)), to 1e-12 (rounding of differences over a cell or two).
TEST(SecondOrderWeights, CentredDifferencesExactForLinearFields) {
  const int p = ferry_test::size_of(MPI_COMM_WORLD);
  const int me = ferry_test::rank_of(MPI_COMM_WORLD);
  const ferry::Comm comm = ferry::Comm::view(MPI_COMM_WORLD);
  struct Case {
    const char* name;
    regrid_test::PolygonGrid grid;
    int nx;
  };
  for (const Case& c : {Case{"rotated", regrid_test::rotated_grid(30, 16, 20, 50), 30},
                        Case{"lonlat", regrid_test::lonlat_grid(36, 18, -5), 36}}) {
    SCOPED_TRACE(c.name);
    const std::int64_t n = c.grid.size();
    // Each cell at the mean direction of its corners, known to the test everywhere.
    std::vector<double> lon(static_cast<std::size_t>(n)), lat(lon.size());
    for (std::size_t i = 0; i < lon.size(); ++i) {
      double v[3] = {0, 0, 0};
      for (std::size_t k = 0; k < c.grid.lon[i].size(); ++k) {
        const double lo = c.grid.lon[i][k] * kDegree, la = c.grid.lat[i][k] * kDegree;
        v[0] += std::cos(la) * std::cos(lo);
        v[1] += std::cos(la) * std::sin(lo);
        v[2] += std::sin(la);
      }
      regrid_test::to_degrees(v, lon[i], lat[i]);
    }
    auto valid = [&](std::int64_t id) { return id % c.nx % 5 != 2; };
    std::vector<ferry::regrid::detail::LocatedPoint> mine;
    const Layout layout = Layout::random(n, p, me, 87);
    for (std::int64_t id : layout.ids())
      if (valid(id))
        mine.push_back(ferry::regrid::detail::locate(lon[static_cast<std::size_t>(id)],
                                                     lat[static_cast<std::size_t>(id)], id));
    const std::vector<ferry::regrid::detail::GradientTerm> terms =
        ferry::regrid::detail::centred_difference_stencils(comm, c.nx, n / c.nx, true, mine);
    std::size_t next = 0;
    for (const ferry::regrid::detail::LocatedPoint& q : mine) {
      const auto cell = static_cast<std::size_t>(q.point.id);
      const double lat0 = lat[cell] * kDegree;
      double g[2][2] = {{0, 0}, {0, 0}};  // [field: lat, lon][gradient: north, east]
      int count = 0;
      for (; next < terms.size() && terms[next].cell == q.point.id; ++next, ++count) {
        const auto from = static_cast<std::size_t>(terms[next].from);
        ASSERT_TRUE(valid(terms[next].from));
        const double f[2] = {lat[from] * kDegree,
                             std::remainder((lon[from] - lon[cell]) * kDegree,
                                            2 * regrid_test::kTestPi)};
        for (int k = 0; k < 2; ++k)
          for (int d = 0; d < 2; ++d) g[k][d] += terms[next].gradient[d] * f[k];
      }
      ASSERT_GT(count, 0) << "cell " << cell;
      EXPECT_NEAR(g[0][0], 1, 1e-12) << "cell " << cell;
      EXPECT_NEAR(g[0][1], 0, 1e-12) << "cell " << cell;
      EXPECT_NEAR(g[1][0], 0, 1e-12) << "cell " << cell;
      EXPECT_NEAR(g[1][1] * std::cos(lat0), 1, 1e-12) << "cell " << cell;
    }
    EXPECT_EQ(next, terms.size());
  }
}

// The same bits on any number of ranks and any layouts, with masked cells on both
// sides: the three matrices and the folded order-2 weights, with least-squares
// gradients and, on logically rectangular sources, centred differences.
TEST(SecondOrderWeights, SameBitsOnAnyRanksAndLayouts) {
  const int p = ferry_test::size_of(MPI_COMM_WORLD);
  const int me = ferry_test::rank_of(MPI_COMM_WORLD);
  for (const regrid_test::GridPair& pair : regrid_test::masked_grid_pairs()) {
    SCOPED_TRACE(pair.name);
    const auto ns = pair.src.size();
    const auto nd = pair.dst.size();
    ConservativeOptions options;
    options.order = 2;
    options.unmapped = ferry::Unmapped::Nearest;
    auto both = [&](MPI_Comm comm, const Layout& s, const Layout& d, bool counts) {
      return std::make_pair(
          ferry::conservative_gradient_weights(comm, share(pair.src, s, counts),
                                               share(pair.dst, d), options),
          ferry::conservative_weights(comm, share(pair.src, s, counts), share(pair.dst, d),
                                      options));
    };
    // Logically rectangular sources: the rotated and lon-lat grids (the geodesic not).
    const std::string name = pair.name;
    std::vector<std::int64_t> shapes{0};
    if (name.rfind("rotated", 0) == 0) shapes.push_back(30);
    if (name.rfind("lonlat", 0) == 0) shapes.push_back(36);
    for (std::int64_t shape : shapes) {
      SCOPED_TRACE(shape);
      options.nx = shape;
      const auto alone =
          both(MPI_COMM_SELF, Layout::block(ns, 1, 0), Layout::block(nd, 1, 0), false);
      const auto random = both(MPI_COMM_WORLD, Layout::random(ns, p, me, 85),
                               Layout::random(nd, p, me, 86), true);
      const auto one =
          both(MPI_COMM_WORLD, me == p - 1 ? Layout::block(ns, 1, 0) : Layout::none(ns),
               me == 0 ? Layout::block(nd, 1, 0) : Layout::none(nd), false);
      regrid_test::expect_same_bits(random.first.value, one.first.value);
      regrid_test::expect_same_bits(random.first.lat_gradient, one.first.lat_gradient);
      regrid_test::expect_same_bits(random.first.lon_gradient, one.first.lon_gradient);
      regrid_test::expect_same_bits(random.second, one.second);
      regrid_test::expect_part_of(alone.first.value, random.first.value);
      regrid_test::expect_part_of(alone.first.lat_gradient, random.first.lat_gradient);
      regrid_test::expect_part_of(alone.first.lon_gradient, random.first.lon_gradient);
      regrid_test::expect_part_of(alone.second, random.second);
    }
  }
}

TEST(SecondOrderWeights, BadOrderOrShapeFailsEverywhere) {
  const int p = ferry_test::size_of(MPI_COMM_WORLD);
  const int me = ferry_test::rank_of(MPI_COMM_WORLD);
  const regrid_test::PolygonGrid g = regrid_test::lonlat_grid(12, 6, 0);
  // Every rank is refused with Errc::Arg and a message containing `expected`.
  const auto expect_refused = [&](const ConservativeOptions& options, const std::string& expected) {
    try {
      ferry::conservative_weights(MPI_COMM_WORLD, share(g, Layout::block(g.size(), p, me)),
                                  share(g, Layout::block(g.size(), p, me)), options);
      ADD_FAILURE() << expected << ": accepted";
    } catch (const ferry::Error& e) {
      EXPECT_EQ(e.code(), ferry::Errc::Arg);
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  ConservativeOptions options;
  options.order = 3;
  expect_refused(options, "order is 3");
  // A row length that does not divide the source grid (72 cells), and rows of one cell.
  options.order = 2;
  for (const std::int64_t nx : {5, 1}) {
    options.nx = nx;
    expect_refused(options, "nx is " + std::to_string(nx) + " for a source grid of 72");
  }
}

}  // namespace
