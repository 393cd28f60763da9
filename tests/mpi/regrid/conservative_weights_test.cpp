// Online first-order conservative weights: CDO's gencon matrices on regular and Gaussian
// grids, constants kept and area integrals conserved to 1e-14, the same bits on any rank
// count and layout, bad cells refused everywhere.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ferry/error.hpp"
#include "ferry/online_weights.hpp"
#include "regrid_test_files.hpp"
#include "weights_checks.hpp"
#include "test_support.hpp"

using ferry::ConservativeNormalisation;
using ferry::ConservativeOptions;
using ferry::Errc;
using ferry::GridCells;
using ferry::Layout;
using ferry::Weights;
using ferry_test::rank_of;
using regrid_test::expect_part_of;
using regrid_test::expect_same_bits;
using regrid_test::remap_rows;
using regrid_test::sum_over_ranks;
using ferry_test::size_of;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kRadiansPerDegree = kPi / 180;
// CDO clips cells with vector arithmetic; its weights differ from the exact ones by
// up to 7.2e-14 on these grids (measured), its areas by 1e-14 relative.
constexpr double kCdoWeightTolerance = 1e-13;

struct Box {
  double west, east, south, north;
};

// A whole grid of cells, as every rank knows it in these tests.
struct Grid {
  std::vector<Box> cells;
  std::vector<std::int32_t> mask;  // empty: all valid
  std::int64_t size() const { return static_cast<std::int64_t>(cells.size()); }
  bool valid(std::int64_t i) const { return mask.empty() || mask[static_cast<std::size_t>(i)]; }
};

// This rank's share of `grid` for `layout`: 4 corners per cell, anticlockwise.
GridCells share(const Grid& grid, const Layout& layout) {
  GridCells cells;
  cells.layout = layout;
  for (std::int64_t id : layout.ids()) {
    const Box& b = grid.cells[static_cast<std::size_t>(id)];
    cells.corner_lon.insert(cells.corner_lon.end(), {b.west, b.east, b.east, b.west});
    cells.corner_lat.insert(cells.corner_lat.end(), {b.south, b.south, b.north, b.north});
    if (!grid.mask.empty()) cells.mask.push_back(grid.mask[static_cast<std::size_t>(id)]);
  }
  return cells;
}

double area(const Box& b) {
  return (b.east - b.west) * kRadiansPerDegree *
         (std::sin(b.north * kRadiansPerDegree) - std::sin(b.south * kRadiansPerDegree));
}

// nx x ny cells between the given latitudes (south to north), the first column
// starting at lon0; id = j * nx + i.
Grid lonlat_grid(int nx, const std::vector<double>& lats, double lon0) {
  Grid g;
  for (std::size_t j = 0; j + 1 < lats.size(); ++j)
    for (int i = 0; i < nx; ++i)
      g.cells.push_back({lon0 + i * 360.0 / nx, lon0 + (i + 1) * 360.0 / nx, lats[j], lats[j + 1]});
  return g;
}

std::vector<double> uniform_lats(int ny) {
  std::vector<double> lats;
  for (int j = 0; j <= ny; ++j) lats.push_back(-90 + j * 180.0 / ny);
  return lats;
}

// A 24 x 12 source grid from -7.5 degrees (its first column crosses 0), with a masked
// "continent" that cuts destination cells, and a 30 x 16 destination grid of uneven
// rows from 3 degrees.
Grid source(bool masked) {
  Grid g = lonlat_grid(24, uniform_lats(12), -7.5);
  if (masked)
    for (const Box& b : g.cells)
      g.mask.push_back(b.west >= 60 && b.east <= 150 && b.south >= -30 && b.north <= 45 ? 0 : 1);
  return g;
}
Grid destination() {
  std::vector<double> lats{-90};
  for (int j = 1; j < 16; ++j) lats.push_back(-90 + 180 * (j + 0.3 * std::sin(j)) / 16);
  lats.push_back(90);
  return lonlat_grid(30, lats, 3);
}

// A grid of a CDO weight file (side "src" or "dst"), with CDO's cells for regular and
// Gaussian grids: longitudes halfway between centres, latitudes halfway between rows
// and the poles beyond the outermost rows.
Grid cdo_grid(const std::string& path, const std::string& side) {
  const std::vector<double> lon = regrid_test::read_all(path, side + "_grid_center_lon");
  const std::vector<double> lat = regrid_test::read_all(path, side + "_grid_center_lat");
  const auto nx = static_cast<std::size_t>(regrid_test::read_all(path, side + "_grid_dims")[0]);
  const std::size_t ny = lat.size() / nx;
  const double north_first = lat[0] > lat[nx] ? 1 : -1;  // rows north to south (Gaussian)
  auto row_lat = [&](std::size_t j) { return lat[j * nx] / kRadiansPerDegree; };
  auto edge = [&](std::size_t j) {  // between rows j - 1 and j
    if (j == 0) return 90 * north_first;
    if (j == ny) return -90 * north_first;
    return (row_lat(j - 1) + row_lat(j)) / 2;
  };
  Grid g;
  for (std::size_t j = 0; j < ny; ++j)
    for (std::size_t i = 0; i < nx; ++i) {
      const double centre = lon[j * nx + i] / kRadiansPerDegree;
      const double a = edge(j);
      const double b = edge(j + 1);
      g.cells.push_back({centre - 180.0 / nx, centre + 180.0 / nx, std::min(a, b), std::max(a, b)});
    }
  for (double m : regrid_test::read_all(path, side + "_grid_imask"))
    g.mask.push_back(static_cast<std::int32_t>(m));
  return g;
}

class ScratchFile : public regrid_test::ScratchFile {
 public:
  explicit ScratchFile(const std::string& stem)
      : regrid_test::ScratchFile("regrid_conservative", stem) {}
};

using LinkMap = std::map<std::pair<std::int64_t, std::int64_t>, double>;  // (row, col) -> w

LinkMap links_of(const regrid_test::SerialMatrix& m) {
  LinkMap links;
  for (std::size_t k = 0; k < m.row.size(); ++k) links[{m.row[k], m.col[k]}] = m.weight[k];
  return links;
}

void expect_cdo_match(const char* file, ConservativeNormalisation normalisation) {
  SCOPED_TRACE(file);
  const std::string path = regrid_test::data_path(file);
  const Grid src = cdo_grid(path, "src");
  const Grid dst = cdo_grid(path, "dst");
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  const Weights w = ferry::conservative_weights(
      MPI_COMM_WORLD, share(src, Layout::random(src.size(), p, me, 31)),
      share(dst, Layout::random(dst.size(), p, me, 32)), ConservativeOptions{normalisation, ferry::Unmapped::Fill});
  ScratchFile file_out(std::string("cdo_") + file);
  w.write_scrip(MPI_COMM_WORLD, file_out.path());

  // The same links (CDO orders them by row, then source id, as ferry does).
  const regrid_test::SerialMatrix ours_m = regrid_test::read_scrip(file_out.path());
  const regrid_test::SerialMatrix cdo_m = regrid_test::read_scrip(path);
  EXPECT_EQ(ours_m.row, cdo_m.row);
  EXPECT_EQ(ours_m.col, cdo_m.col);
  const LinkMap ours = links_of(ours_m);
  const LinkMap cdo = links_of(cdo_m);
  ASSERT_EQ(ours.size(), cdo.size());
  for (const auto& [link, weight] : cdo) {
    const auto it = ours.find(link);
    ASSERT_NE(it, ours.end()) << "no link from source " << link.second << " to " << link.first;
    EXPECT_NEAR(it->second, weight, kCdoWeightTolerance)
        << "row " << link.first << " source " << link.second;
  }
  // Areas, fractions covered and masks as CDO writes them.
  for (const std::string side : {"src", "dst"}) {
    const std::vector<double> area = regrid_test::read_all(file_out.path(), side + "_grid_area");
    const std::vector<double> cdo_area = regrid_test::read_all(path, side + "_grid_area");
    const std::vector<double> frac = regrid_test::read_all(file_out.path(), side + "_grid_frac");
    const std::vector<double> cdo_frac = regrid_test::read_all(path, side + "_grid_frac");
    ASSERT_EQ(area.size(), cdo_area.size());
    for (std::size_t i = 0; i < area.size(); ++i) {
      EXPECT_NEAR(area[i], cdo_area[i], 1e-13 * cdo_area[i]) << side << " cell " << i;
      EXPECT_NEAR(frac[i], cdo_frac[i], kCdoWeightTolerance) << side << " cell " << i;
    }
    EXPECT_EQ(regrid_test::read_all(file_out.path(), side + "_grid_imask"),
              regrid_test::read_all(path, side + "_grid_imask"));
  }
}

TEST(ConservativeWeights, MatchesCdoGencon) {
  if (!std::ifstream(regrid_test::data_path("ready")).good())
    GTEST_SKIP() << "no CDO-made weight files (is cdo installed?)";
  expect_cdo_match("w_con.nc", ConservativeNormalisation::FracArea);       // r36x18 -> n16
  expect_cdo_match("w_con_back.nc", ConservativeNormalisation::FracArea);  // n16 -> r36x18
  expect_cdo_match("w_con_masked.nc", ConservativeNormalisation::FracArea);
  expect_cdo_match("w_con_box.nc", ConservativeNormalisation::FracArea);
  expect_cdo_match("w_con_box_destarea.nc", ConservativeNormalisation::DestArea);
}

// A constant stays that constant and the area integral of a smooth field is conserved,
// to 1e-14 relative, with either normalisation on a destination covering the sphere.
TEST(ConservativeWeights, ConstantExactAndIntegralConserved) {
  const Grid src = source(false);
  const Grid dst = destination();
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  std::vector<double> constant(src.cells.size(), 3.7);
  std::vector<double> smooth;
  double src_integral = 0;
  for (const Box& b : src.cells) {
    smooth.push_back(2 + std::cos(2 * b.west * kRadiansPerDegree) *
                             std::sin(b.south * kRadiansPerDegree));
    src_integral += area(b) * smooth.back();
  }
  for (const auto normalisation :
       {ConservativeNormalisation::FracArea, ConservativeNormalisation::DestArea}) {
    const Weights w = ferry::conservative_weights(
        MPI_COMM_WORLD, share(src, Layout::random(src.size(), p, me, 41)),
        share(dst, Layout::random(dst.size(), p, me, 42)), ConservativeOptions{normalisation, ferry::Unmapped::Fill});
    const std::vector<double>& dst_area = *w.dst_points().area;
    for (const double v : remap_rows(w, constant)) EXPECT_NEAR(v, 3.7, 3.7e-14);
    const std::vector<double> remapped = remap_rows(w, smooth);
    double local = 0;
    for (std::size_t r = 0; r < remapped.size(); ++r) {
      const Box& b = dst.cells[static_cast<std::size_t>(w.first_row()) + r];
      EXPECT_NEAR(dst_area[r], area(b), 1e-14 * area(b));
      EXPECT_NEAR((*w.dst_points().frac)[r], 1, 1e-14);
      local += dst_area[r] * remapped[r];
    }
    EXPECT_NEAR(sum_over_ranks(local), src_integral, 1e-14 * src_integral);
  }
}

// Next to masked source cells: fracarea keeps a constant in every row with links,
// destarea weights add up to the fraction covered; masked destination cells get none.
TEST(ConservativeWeights, MasksAndNormalisations) {
  const Grid src = source(true);
  Grid dst = destination();
  for (std::int64_t i = 0; i < dst.size(); ++i) dst.mask.push_back(i % 7 == 3 ? 0 : 1);
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  const std::vector<double> ones(src.cells.size(), 1.0);
  std::int64_t partial = 0;
  for (const auto normalisation :
       {ConservativeNormalisation::FracArea, ConservativeNormalisation::DestArea}) {
    const Weights w = ferry::conservative_weights(
        MPI_COMM_WORLD, share(src, Layout::block(src.size(), p, me)),
        share(dst, Layout::round_robin(dst.size(), p, me)), ConservativeOptions{normalisation, ferry::Unmapped::Fill});
    const std::vector<double> sums = remap_rows(w, ones);
    for (std::size_t r = 0; r < sums.size(); ++r) {
      const std::int64_t row = w.first_row() + static_cast<std::int64_t>(r);
      const double frac = (*w.dst_points().frac)[r];
      const bool linked = w.row_start()[r + 1] > w.row_start()[r];
      EXPECT_EQ(linked, dst.valid(row) && frac > 0) << "row " << row;
      if (!linked) continue;
      EXPECT_NEAR(sums[r], normalisation == ConservativeNormalisation::FracArea ? 1 : frac, 1e-14)
          << "row " << row;
      if (frac < 1 - 1e-9) ++partial;
      for (auto k = w.row_start()[r]; k < w.row_start()[r + 1]; ++k)
        EXPECT_TRUE(src.valid(w.cols()[static_cast<std::size_t>(k)])) << "row " << row;
    }
  }
  EXPECT_GT(sum_over_ranks(static_cast<double>(partial)), 0) << "no partly covered row tested";
}

// The same bits on any number of ranks (bands) and any layouts: every rank computes
// the whole matrix alone and compares it with its rows of the shared one.
TEST(ConservativeWeights, SameBitsOnAnyRanksAndLayouts) {
  const Grid src = source(true);
  const Grid dst = destination();
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  const Weights alone = ferry::conservative_weights(
      MPI_COMM_SELF, share(src, Layout::block(src.size(), 1, 0)),
      share(dst, Layout::block(dst.size(), 1, 0)));
  const Weights shared = ferry::conservative_weights(
      MPI_COMM_WORLD, share(src, Layout::random(src.size(), p, me, 51)),
      share(dst, Layout::random(dst.size(), p, me, 52)));
  const Weights one_rank = ferry::conservative_weights(
      MPI_COMM_WORLD,
      share(src, me == p - 1 ? Layout::block(src.size(), 1, 0) : Layout::none(src.size())),
      share(dst, me == 0 ? Layout::block(dst.size(), 1, 0) : Layout::none(dst.size())));
  expect_same_bits(shared, one_rank);

  expect_part_of(alone, shared);
}

// Corners at a pole may have any longitude, corners may come in any order and
// longitudes in any turn: the same cells, the same bits.
TEST(ConservativeWeights, CornerConventions) {
  const Grid src = source(false);
  const Grid dst = destination();
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  const GridCells plain = share(src, Layout::block(src.size(), p, me));
  GridCells other = plain;
  for (std::size_t c = 0; c < other.corner_lon.size(); c += 4) {
    for (std::vector<double>* v : {&other.corner_lon, &other.corner_lat})
      std::rotate(v->begin() + c, v->begin() + c + 1, v->begin() + c + 4);
    for (std::size_t k = c; k < c + 4; ++k) {
      if (std::abs(other.corner_lat[k]) == 90) other.corner_lon[k] = 123;
      else other.corner_lon[k] += 720;
    }
  }
  const GridCells to = share(dst, Layout::block(dst.size(), p, me));
  expect_same_bits(ferry::conservative_weights(MPI_COMM_WORLD, plain, to),
                   ferry::conservative_weights(MPI_COMM_WORLD, other, to));
}

TEST(ConservativeWeights, BadCellsFailEverywhere) {
  const Grid src = source(false);
  const Grid dst = destination();
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  const bool last = me == p - 1;
  // Cells declared lon-lat must be rectangles (Auto would take them as great-circle cells).
  GridCells good_src = share(src, Layout::block(src.size(), p, me));
  GridCells good_dst = share(dst, Layout::block(dst.size(), p, me));
  good_src.edges = good_dst.edges = ferry::CellEdges::LonLat;
  auto expect = [](const GridCells& s, const GridCells& d, Errc code, const std::string& regex) {
    ferry_test::expect_same_error_everywhere(
        [&] { ferry::conservative_weights(MPI_COMM_WORLD, s, d); }, code, regex);
  };

  // Corner c of a cell off the poles on the last rank (of the middle cell of its block).
  auto at = [](const GridCells& g, std::size_t c) {
    return static_cast<std::size_t>(g.layout.local_size() / 2) * 4 + c;
  };
  GridCells trapezoid = good_src;
  if (last) trapezoid.corner_lon[at(trapezoid, 2)] += 1;  // the north-east corner
  expect(trapezoid, good_dst, Errc::Arg,
         "source cell [0-9]+ \\(rank [0-9]+\\) with corners .* is not a longitude-latitude "
         "rectangle: .*3 or more longitudes");
  GridCells slanted = good_dst;
  if (last) slanted.corner_lat[at(slanted, 2)] += 1;
  expect(good_src, slanted, Errc::Arg, "destination cell .*between .* not a parallel");
  GridCells flat = good_src;
  if (last)
    flat.corner_lat[at(flat, 2)] = flat.corner_lat[at(flat, 3)] = flat.corner_lat[at(flat, 0)];
  expect(flat, good_dst, Errc::Arg, "no area");
  GridCells wide = good_src;
  if (last) {
    const double east = wide.corner_lon[at(wide, 0)] + 180;
    wide.corner_lon[at(wide, 1)] = wide.corner_lon[at(wide, 2)] = east;
  }
  expect(wide, good_dst, Errc::Arg, "180 degrees apart");
  GridCells beyond = good_src;
  if (last) beyond.corner_lat[at(beyond, 3)] = 95;
  expect(beyond, good_dst, Errc::Arg, "latitudes within -90..90");
  GridCells nan = good_dst;
  if (last) nan.corner_lon[at(nan, 0)] = std::numeric_limits<double>::quiet_NaN();
  expect(good_src, nan, Errc::Arg, "destination cell .*nan");
  GridCells short_corners = good_src;
  if (last) short_corners.corner_lat.pop_back();
  expect(short_corners, good_dst, Errc::ArgSize,
         "corner latitudes, expected [0-9]+ \\([0-9]+ cells x 4");
  GridCells two = good_src;
  two.corners = 2;
  expect(two, good_dst, Errc::Arg, "have 2 corners; give 3 or more");
  GridCells short_mask = good_src;
  short_mask.mask.assign(last ? 1 : short_mask.layout.local_size(), 1);
  if (short_mask.layout.local_size() != 1)
    expect(short_mask, good_dst, Errc::ArgSize, "source mask on rank [0-9]+ has 1 values");
  if (p > 1)
    expect(share(src, Layout::block(src.size(), 1, 0)), good_dst, Errc::Duplicate,
           "source point 0 is given twice");
}

}  // namespace
