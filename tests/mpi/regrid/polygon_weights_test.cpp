// Conservative weights between grids of polygon cells (curvilinear, geodesic,
// lon-lat, and mixed): a constant stays exact, the area integral is conserved, every
// fully covered cell's overlaps add up to its area; the same bits on any number of
// ranks and any layouts; bad cells refused on every rank, naming the grid and cell.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "ferry/error.hpp"
#include "ferry/online_weights.hpp"
#include "polygon_grids.hpp"
#include "weights_checks.hpp"
#include "test_support.hpp"

using ferry::ConservativeNormalisation;
using ferry::ConservativeOptions;
using ferry::Errc;
using ferry::GridCells;
using ferry::Layout;
using ferry::Weights;
using ferry_test::rank_of;
using ferry_test::size_of;
using regrid_test::expect_part_of;
using regrid_test::expect_same_bits;
using regrid_test::PolygonGrid;
using regrid_test::remap_rows;
using regrid_test::sum_over_ranks;
using regrid_test::share;

namespace {

// A smooth field at a cell's first corner.
double smooth(const PolygonGrid& g, std::size_t i) {
  const double d = regrid_test::kTestPi / 180;
  return 2 + std::cos(2 * g.lon[i][0] * d) * std::sin(g.lat[i][0] * d);
}

// Grids covering the sphere: a constant stays exact to 1e-14, the area integral of a
// smooth field is kept to 1e-13 (fracarea), and the overlaps of every cell add up to
// its area to 1e-12 (fractions covered of 1, on both grids).
TEST(PolygonWeights, ExactOnGridsCoveringTheSphere) {
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  for (const regrid_test::GridPair& pair : regrid_test::grid_pairs()) {
    SCOPED_TRACE(pair.name);
    const Weights w = ferry::conservative_weights(
        MPI_COMM_WORLD, share(pair.src, Layout::random(pair.src.size(), p, me, 61), true),
        share(pair.dst, Layout::random(pair.dst.size(), p, me, 62)));
    for (double f : *w.src_points().frac) EXPECT_NEAR(f, 1, 1e-12);
    for (double f : *w.dst_points().frac) EXPECT_NEAR(f, 1, 1e-12);
    const std::vector<double> constant(static_cast<std::size_t>(pair.src.size()), 3.7);
    for (double v : remap_rows(w, constant)) EXPECT_NEAR(v, 3.7, 3.7e-14);

    std::vector<double> field;
    for (std::size_t i = 0; i < pair.src.lon.size(); ++i) field.push_back(smooth(pair.src, i));
    double src_local = 0;
    for (std::size_t i = 0; i < w.src_points().area->size(); ++i) {
      const auto id = static_cast<std::size_t>(w.first_src_point()) + i;
      src_local += (*w.src_points().area)[i] * (*w.src_points().frac)[i] * field[id];
    }
    const std::vector<double> remapped = remap_rows(w, field);
    double dst_local = 0;
    for (std::size_t r = 0; r < remapped.size(); ++r)
      dst_local += (*w.dst_points().area)[r] * (*w.dst_points().frac)[r] * remapped[r];
    const double src_integral = sum_over_ranks(src_local);
    EXPECT_NEAR(sum_over_ranks(dst_local), src_integral, 1e-13 * src_integral);
    // Cell areas add up to the sphere's.
    double area_local = 0;
    for (double a : *w.dst_points().area) area_local += a;
    EXPECT_NEAR(sum_over_ranks(area_local), 4 * regrid_test::kTestPi, 1e-12);
  }
}

// The same bits on any number of ranks and any layouts: random, round robin, all on
// one rank, and every rank alone on MPI_COMM_SELF.
TEST(PolygonWeights, SameBitsOnAnyRanksAndLayouts) {
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  for (const regrid_test::GridPair& pair : regrid_test::masked_grid_pairs()) {
    SCOPED_TRACE(pair.name);
    const auto ns = pair.src.size();
    const auto nd = pair.dst.size();
    for (const auto normalisation :
         {ConservativeNormalisation::FracArea, ConservativeNormalisation::DestArea}) {
      const ConservativeOptions options{normalisation, ferry::Unmapped::Fill};
      const Weights alone = ferry::conservative_weights(
          MPI_COMM_SELF, share(pair.src, Layout::block(ns, 1, 0)),
          share(pair.dst, Layout::block(nd, 1, 0)), options);
      const Weights random = ferry::conservative_weights(
          MPI_COMM_WORLD, share(pair.src, Layout::random(ns, p, me, 71), true),
          share(pair.dst, Layout::random(nd, p, me, 72)), options);
      const Weights robin = ferry::conservative_weights(
          MPI_COMM_WORLD, share(pair.src, Layout::round_robin(ns, p, me)),
          share(pair.dst, Layout::round_robin(nd, p, me), true), options);
      const Weights one = ferry::conservative_weights(
          MPI_COMM_WORLD,
          share(pair.src, me == p - 1 ? Layout::block(ns, 1, 0) : Layout::none(ns)),
          share(pair.dst, me == 0 ? Layout::block(nd, 1, 0) : Layout::none(nd)), options);
      expect_same_bits(random, robin);
      expect_same_bits(random, one);
      expect_part_of(alone, random);
    }
  }
}

// Masked cells are not looked at: degenerate, clockwise or scrambled masked cells
// (as ORCA's land cells are) do no harm; valid cells given clockwise are turned round.
TEST(PolygonWeights, MaskedCellsAreNotChecked) {
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  PolygonGrid src = regrid_test::rotated_grid(24, 12, 10, 40);
  const PolygonGrid dst = regrid_test::geodesic_grid(4);
  src.mask.assign(static_cast<std::size_t>(src.size()), 1);
  src.mask[7] = src.mask[8] = src.mask[100] = 0;
  src.lon[7].assign(4, src.lon[7][0]);                         // a point
  src.lat[7].assign(4, src.lat[7][0]);
  std::swap(src.lon[8][1], src.lon[8][2]);                     // out of order
  std::swap(src.lat[8][1], src.lat[8][2]);
  std::reverse(src.lon[100].begin(), src.lon[100].end());     // clockwise
  std::reverse(src.lat[100].begin(), src.lat[100].end());
  PolygonGrid turned = src;
  std::reverse(turned.lon[200].begin(), turned.lon[200].end());  // a valid cell clockwise
  std::reverse(turned.lat[200].begin(), turned.lat[200].end());
  const Weights w = ferry::conservative_weights(
      MPI_COMM_WORLD, share(src, Layout::block(src.size(), p, me)),
      share(dst, Layout::block(dst.size(), p, me)));
  const Weights same = ferry::conservative_weights(
      MPI_COMM_WORLD, share(turned, Layout::block(src.size(), p, me)),
      share(dst, Layout::block(dst.size(), p, me)));
  expect_same_bits(w, same);
  for (std::int64_t r = 0; r < w.row_count(); ++r)
    for (auto k = w.row_start()[static_cast<std::size_t>(r)];
         k < w.row_start()[static_cast<std::size_t>(r) + 1]; ++k)
      EXPECT_TRUE(src.valid(w.cols()[static_cast<std::size_t>(k)]));
  // The masked cell shrunk to a point has no area.
  if (w.first_src_point() <= 7 && 7 < w.first_src_point() + static_cast<std::int64_t>(w.src_points().area->size()))
    EXPECT_EQ((*w.src_points().area)[static_cast<std::size_t>(7 - w.first_src_point())], 0);
}

TEST(PolygonWeights, BadCellsFailEverywhere) {
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  const PolygonGrid good_src = regrid_test::rotated_grid(24, 12, 10, 40);
  const PolygonGrid good_dst = regrid_test::geodesic_grid(4);
  auto expect = [&](const PolygonGrid& s, const PolygonGrid& d, Errc code, const std::string& regex) {
    ferry_test::expect_same_error_everywhere(
        [&] {
          ferry::conservative_weights(MPI_COMM_WORLD,
                                      share(s, Layout::block(s.size(), p, me), false, "ocean"),
                                      share(d, Layout::block(d.size(), p, me), true));
        },
        code, regex);
  };
  // Cell 200 of the source sits on the last rank for any p <= 4.
  PolygonGrid flat = good_src;
  flat.lat[250].assign(4, flat.lat[250][0]);
  flat.lon[250] = {flat.lon[250][0], flat.lon[250][1], flat.lon[250][1], flat.lon[250][0]};
  expect(flat, good_dst, Errc::Arg,
         "conservative_weights: source grid \"ocean\" cell 250 \\(rank [0-9]+\\) with corners "
         ".* is not a valid cell: it has 2 distinct corners, fewer than 3");
  PolygonGrid scrambled = good_src;
  std::swap(scrambled.lon[250][1], scrambled.lon[250][2]);
  std::swap(scrambled.lat[250][1], scrambled.lat[250][2]);
  expect(scrambled, good_dst, Errc::Arg,
         "source grid \"ocean\" cell 250 .* not given in order around it");
  PolygonGrid nan = good_dst;
  nan.lat[100][3] = std::numeric_limits<double>::quiet_NaN();
  expect(good_src, nan, Errc::Arg, "destination cell 100 \\(rank [0-9]+\\) has corners .*nan");
  PolygonGrid masked_nan = good_src;
  masked_nan.mask.assign(static_cast<std::size_t>(good_src.size()), 1);
  masked_nan.mask[5] = 0;
  masked_nan.lon[5][0] = std::numeric_limits<double>::infinity();
  expect(masked_nan, good_dst, Errc::Arg, "source grid \"ocean\" cell 5 .*inf");
  // A mask of the wrong size on the last rank only.
  ferry_test::expect_same_error_everywhere(
      [&] {
        GridCells s = share(good_src, Layout::block(good_src.size(), p, me));
        if (me == p - 1) s.mask.assign(3, 1);
        ferry::conservative_weights(MPI_COMM_WORLD, s,
                                    share(good_dst, Layout::block(good_dst.size(), p, me)));
      },
      Errc::ArgSize, "the source mask on rank [0-9]+ has 3 values, expected [0-9]+");
  // Corner counts: of the wrong length, and outside 1..corners.
  ferry_test::expect_same_error_everywhere(
      [&] {
        GridCells d = share(good_dst, Layout::block(good_dst.size(), p, me), true);
        if (me == p - 1) d.corner_counts.pop_back();
        ferry::conservative_weights(MPI_COMM_WORLD,
                                    share(good_src, Layout::block(good_src.size(), p, me)), d);
      },
      Errc::ArgSize, "destination corner counts on rank [0-9]+ are [0-9]+, expected");
  ferry_test::expect_same_error_everywhere(
      [&] {
        GridCells d = share(good_dst, Layout::block(good_dst.size(), p, me), true);
        if (me == 0 && !d.corner_counts.empty()) d.corner_counts[0] = 9;
        ferry::conservative_weights(MPI_COMM_WORLD,
                                    share(good_src, Layout::block(good_src.size(), p, me)), d);
      },
      Errc::Arg, "destination cell 0 \\(rank 0\\) has 9 corners, outside 1..6");
  // A curvilinear grid declared as lon-lat.
  PolygonGrid declared = good_src;
  declared.edges = ferry::CellEdges::LonLat;
  expect(declared, good_dst, Errc::Arg, "is not a longitude-latitude rectangle");
}

}  // namespace

namespace {

// The mean direction of a cell's corners, as nearest_fill places a cell.
std::array<double, 3> centre_of(const PolygonGrid& g, std::size_t i) {
  const double d = regrid_test::kTestPi / 180;
  double x = 0, y = 0, z = 0;
  for (std::size_t k = 0; k < g.lon[i].size(); ++k) {
    x += std::cos(g.lat[i][k] * d) * std::cos(g.lon[i][k] * d);
    y += std::cos(g.lat[i][k] * d) * std::sin(g.lon[i][k] * d);
    z += std::sin(g.lat[i][k] * d);
  }
  const double r = std::sqrt(x * x + y * y + z * z);
  return {x / r, y / r, z / r};
}

// Unmapped::Nearest (OASIS FRACNNEI): a valid target cell over no valid source cell
// gets one link, of weight 1, from the valid source cell whose centre is nearest; the
// others keep their overlaps; the same bits on any number of ranks and layouts.
TEST(PolygonWeights, NearestFillsTargetsNoSourceCovers) {
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  PolygonGrid src = regrid_test::rotated_grid(24, 12, 10, 40);
  const PolygonGrid dst = regrid_test::geodesic_grid(5);
  // Mask the source south of 20 S: targets there overlap only masked cells.
  for (std::int64_t i = 0; i < src.size(); ++i) {
    const auto c = centre_of(src, static_cast<std::size_t>(i));
    src.mask.push_back(c[2] < std::sin(-20 * regrid_test::kTestPi / 180) ? 0 : 1);
  }
  for (const auto normalisation :
       {ConservativeNormalisation::FracArea, ConservativeNormalisation::DestArea}) {
    const ConservativeOptions options{normalisation, ferry::Unmapped::Nearest};
    const Weights w = ferry::conservative_weights(
        MPI_COMM_WORLD, share(src, Layout::random(src.size(), p, me, 81)),
        share(dst, Layout::random(dst.size(), p, me, 82)), options);
    const Weights alone = ferry::conservative_weights(
        MPI_COMM_SELF, share(src, Layout::block(src.size(), 1, 0)),
        share(dst, Layout::block(dst.size(), 1, 0)), options);
    expect_part_of(alone, w);
    std::int64_t filled = 0;
    for (std::int64_t r = 0; r < w.row_count(); ++r) {
      const auto begin = w.row_start()[static_cast<std::size_t>(r)];
      const auto end = w.row_start()[static_cast<std::size_t>(r) + 1];
      ASSERT_GT(end, begin) << "row " << w.first_row() + r << " has no link";
      if ((*w.dst_points().frac)[static_cast<std::size_t>(r)] > 0) continue;
      ++filled;
      ASSERT_EQ(end - begin, 1);
      EXPECT_EQ(w.values()[static_cast<std::size_t>(begin)], 1.0);
      // The nearest valid source centre, by brute force (ties to the lower id).
      const auto t = centre_of(dst, static_cast<std::size_t>(w.first_row() + r));
      std::int64_t best = -1;
      double best_d2 = 0;
      for (std::int64_t s = 0; s < src.size(); ++s) {
        if (!src.valid(s)) continue;
        const auto c = centre_of(src, static_cast<std::size_t>(s));
        const double d2 = (c[0] - t[0]) * (c[0] - t[0]) + (c[1] - t[1]) * (c[1] - t[1]) +
                          (c[2] - t[2]) * (c[2] - t[2]);
        if (best < 0 || d2 < best_d2) {
          best = s;
          best_d2 = d2;
        }
      }
      EXPECT_EQ(w.cols()[static_cast<std::size_t>(begin)], best);
    }
    EXPECT_GT(sum_over_ranks(static_cast<double>(filled)), 10);
  }
}

}  // namespace

namespace {

// SCRIP and ESMF files written by every rank's rows read back to the same bits.
TEST(PolygonWeights, WrittenAsScripAndEsmfReadBackTheSame) {
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  const PolygonGrid src = regrid_test::rotated_grid(24, 12, 10, 40);
  const PolygonGrid dst = regrid_test::geodesic_grid(4);
  const Weights w = ferry::conservative_weights(
      MPI_COMM_WORLD, share(src, Layout::random(src.size(), p, me, 91)),
      share(dst, Layout::block(dst.size(), p, me)));
  const std::string stem = "polygon_weights_np" + std::to_string(p);
  w.write_scrip(MPI_COMM_WORLD, stem + "_scrip.nc");
  w.write_esmf(MPI_COMM_WORLD, stem + "_esmf.nc");
  const Weights scrip = Weights::read(MPI_COMM_WORLD, stem + "_scrip.nc");
  const Weights esmf = Weights::read(MPI_COMM_WORLD, stem + "_esmf.nc");
  expect_same_bits(w, scrip);
  expect_same_bits(w, esmf);
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == 0)
    for (const char* suffix : {"_scrip.nc", "_esmf.nc"}) std::remove((stem + suffix).c_str());
}

}  // namespace
