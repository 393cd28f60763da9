// Online nearest-neighbour weights: the same bits as a serial brute-force search on any
// rank count and layout, CDO's gendis matrices up to its single-precision distances,
// masks honoured, written and read back bit for bit, bad input refused everywhere.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "ferry/error.hpp"
#include "ferry/global_sum.hpp"
#include "ferry/online_weights.hpp"
#include "regrid_test_files.hpp"
#include "weights_checks.hpp"
#include "test_support.hpp"

using ferry::BilinearOptions;
using ferry::Errc;
using ferry::GaussianScale;
using ferry::GridPoints;
using ferry::Layout;
using ferry::MaskedNeighbours;
using ferry::NearestNeighbourOptions;
using ferry::NeighbourWeighting;
using ferry::Weights;
using ferry_test::rank_of;
using ferry_test::size_of;

namespace {

constexpr double kRadiansPerDegree = 3.14159265358979323846 / 180;

// A point on the unit sphere, as the neighbour search places it.
struct LocatedTest {
  double x, y, z;
};
LocatedTest locate_test(double lon, double lat) {
  const double l = lon * kRadiansPerDegree;
  const double f = lat * kRadiansPerDegree;
  return {std::cos(f) * std::cos(l), std::cos(f) * std::sin(l), std::sin(f)};
}

// A whole grid, as every rank knows it in these tests.
struct Grid {
  std::vector<double> lon;
  std::vector<double> lat;
  std::vector<std::int32_t> mask;  // empty: all valid
  std::int64_t size() const { return static_cast<std::int64_t>(lon.size()); }
  bool valid(std::int64_t i) const { return mask.empty() || mask[static_cast<std::size_t>(i)]; }
};

// This rank's share of `grid` for `layout`.
GridPoints share(const Grid& grid, const Layout& layout) {
  GridPoints points{layout, {}, {}, {}};
  for (std::int64_t id : layout.ids()) {
    const auto i = static_cast<std::size_t>(id);
    points.lon.push_back(grid.lon[i]);
    points.lat.push_back(grid.lat[i]);
    if (!grid.mask.empty()) points.mask.push_back(grid.mask[i]);
  }
  return points;
}

// Cell centres of an nx x ny longitude-latitude grid, id = j * nx + i.
Grid lonlat_grid(int nx, int ny, double lon0) {
  Grid g;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      g.lon.push_back(lon0 + (i + 0.5) * 360.0 / nx);
      g.lat.push_back(-90 + (j + 0.5) * 180.0 / ny);
    }
  return g;
}

// A 24 x 12 source grid with a masked "continent", and a 30 x 16 destination grid
// (shifted, with some masked points) plus points that probe the corner cases: both
// poles, a point on a source point (distance 0), one on a masked source point, and
// longitudes outside 0..360.
Grid masked_source() {
  Grid g = lonlat_grid(24, 12, 0);
  for (std::size_t i = 0; i < g.lon.size(); ++i)
    g.mask.push_back(g.lon[i] > 60 && g.lon[i] < 150 && g.lat[i] > -30 && g.lat[i] < 45 ? 0 : 1);
  return g;
}
Grid probing_destination() {
  Grid g = lonlat_grid(30, 16, 3);
  for (double lon : {0.0, 200.0, 7.5, 97.5, -172.5, 547.5}) g.lon.push_back(lon);
  for (double lat : {90.0, -90.0, 7.5, 7.5, -37.5, 52.5}) g.lat.push_back(lat);
  for (std::size_t i = 0; i < g.lon.size(); ++i) g.mask.push_back(i % 7 == 3 ? 0 : 1);
  return g;
}

std::vector<double> unit_vector(double lon, double lat) {
  const double lambda = lon * kRadiansPerDegree;
  const double phi = lat * kRadiansPerDegree;
  return {std::cos(phi) * std::cos(lambda), std::cos(phi) * std::sin(lambda), std::sin(phi)};
}

double chord2(const std::vector<double>& a, const std::vector<double>& b) {
  const double dx = a[0] - b[0];
  const double dy = a[1] - b[1];
  const double dz = a[2] - b[2];
  return dx * dx + dy * dy + dz * dz;
}

struct Link {
  std::int64_t col;
  double weight;
};
using Rows = std::map<std::int64_t, std::vector<Link>>;

// Brute force over every source point: the definition the distributed search must meet.
std::vector<std::pair<double, std::int64_t>> nearest_by_brute_force(const Grid& src, double lon,
                                                                    double lat, std::size_t k) {
  const std::vector<double> p = unit_vector(lon, lat);
  std::vector<std::pair<double, std::int64_t>> all;  // (d2, id): pair order = the tie rule
  for (std::int64_t j = 0; j < src.size(); ++j)
    if (src.valid(j))
      all.emplace_back(chord2(p, unit_vector(src.lon[static_cast<std::size_t>(j)],
                                             src.lat[static_cast<std::size_t>(j)])),
                       j);
  std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(k), all.end());
  all.resize(k);
  return all;
}

// SCRIP's GAUSWGT (GaussianScale::NeighbourSpacing) over the chosen neighbours of
// each row, (chord^2, id) nearest first: arcs a_i, s^2 = variance * m^2 with m the mean
// arc between the pairs of them, shares exp(-(a_i^2 - a_0^2) / (2 s^2)), equal where
// s^2 is 0. Pair arcs come from the source points' own coordinates.
std::vector<Link> neighbour_gaussian_row(const Grid& src,
                                         const std::vector<std::pair<double, std::int64_t>>& near,
                                         double variance) {
  const auto arc = [](double d2) { return 2 * std::asin(std::min(1.0, std::sqrt(d2) / 2)); };
  const auto place = [&](std::int64_t id) {
    return unit_vector(src.lon[static_cast<std::size_t>(id)], src.lat[static_cast<std::size_t>(id)]);
  };
  double pair_arcs = 0;
  std::int64_t pairs = 0;
  for (std::size_t i = 0; i < near.size(); ++i)
    for (std::size_t j = i + 1; j < near.size(); ++j) {
      pair_arcs += arc(chord2(place(near[i].second), place(near[j].second)));
      ++pairs;
    }
  const double mean = pairs > 0 ? pair_arcs / static_cast<double>(pairs) : 0;
  const double scale2 = variance * mean * mean;
  std::vector<double> share;
  double total = 0;
  for (const auto& [d2, id] : near) {
    const double a = arc(d2);
    const double a0 = arc(near[0].first);
    share.push_back(scale2 > 0 ? std::exp(-(a * a - a0 * a0) / (2 * scale2)) : 1);
    total += share.back();
  }
  std::vector<Link> row;
  for (std::size_t n = 0; n < near.size(); ++n) row.push_back({near[n].second, share[n] / total});
  return row;
}

// The serial reference matrix, weights by the formulas of docs/user/regrid.md.
Rows reference(const Grid& src, const Grid& dst, const NearestNeighbourOptions& options) {
  const auto k = static_cast<std::size_t>(options.neighbours);
  double scale2 = 0;
  if (options.weighting == NeighbourWeighting::Gaussian &&
      options.gaussian_scale == GaussianScale::SourceSpacing) {
    std::vector<double> spacing;
    for (std::int64_t j = 0; j < src.size(); ++j)
      if (src.valid(j))
        spacing.push_back(std::sqrt(nearest_by_brute_force(src, src.lon[static_cast<std::size_t>(j)],
                                                           src.lat[static_cast<std::size_t>(j)], 2)
                                        .back()
                                        .first));
    // The exact sum, rounded once, as the library forms it on any layout.
    const double total = ferry::global_sums(MPI_COMM_SELF, ferry::SumMethod::Reprosum, 1,
                                            spacing.size(), spacing.data())[0];
    const double mean = total / static_cast<double>(spacing.size());
    scale2 = options.gaussian_variance * mean * mean;
  }
  Rows rows;
  for (std::int64_t i = 0; i < dst.size(); ++i) {
    if (!dst.valid(i)) continue;
    const auto near = nearest_by_brute_force(src, dst.lon[static_cast<std::size_t>(i)],
                                             dst.lat[static_cast<std::size_t>(i)], k);
    if (options.weighting == NeighbourWeighting::Gaussian &&
        options.gaussian_scale == GaussianScale::NeighbourSpacing) {
      rows[i] = neighbour_gaussian_row(src, near, options.gaussian_variance);
      continue;
    }
    std::vector<double> share;
    double total = 0;
    for (const auto& [d2, id] : near) {
      const double d = std::sqrt(d2);
      share.push_back(options.weighting == NeighbourWeighting::Gaussian
                          ? std::exp(-(d2 - near[0].first) / (2 * scale2))
                          : 1 / (d > 0 ? d : 1e-14));
      total += share.back();
    }
    for (std::size_t n = 0; n < k; ++n) rows[i].push_back({near[n].second, share[n] / total});
  }
  return rows;
}

// OASIS's DISTWGT (MaskedNeighbours::Dropped): the k nearest of all source points,
// the masked ones dropped, inverse arcs guarded by 2^-52 (or GAUSWGT's weights); rows
// whose k are all masked take the nearest valid point (none with DroppedNoFill). A
// source point on a pole sits there at longitude 0 for the search.
Rows reference_dropped(const Grid& src, const Grid& dst, const NearestNeighbourOptions& options) {
  const auto k = static_cast<std::size_t>(options.neighbours);
  Grid unmasked = src;
  unmasked.mask.clear();
  for (std::size_t j = 0; j < unmasked.lon.size(); ++j)
    if (std::abs(unmasked.lat[j]) == 90) unmasked.lon[j] = 0;
  Rows rows;
  for (std::int64_t i = 0; i < dst.size(); ++i) {
    if (!dst.valid(i)) continue;
    const double lon = dst.lon[static_cast<std::size_t>(i)];
    const double lat = dst.lat[static_cast<std::size_t>(i)];
    std::vector<double> share;
    std::vector<std::int64_t> cols;
    double total = 0;
    std::vector<std::pair<double, std::int64_t>> kept;
    for (const auto& near : nearest_by_brute_force(unmasked, lon, lat, k))
      if (src.valid(near.second)) kept.push_back(near);
    if (options.weighting == NeighbourWeighting::Gaussian && !kept.empty()) {
      rows[i] = neighbour_gaussian_row(src, kept, options.gaussian_variance);
      continue;
    }
    for (const auto& [d2, id] : kept) {
      share.push_back(1 / (2 * std::asin(std::min(1.0, std::sqrt(d2) / 2)) + 0x1p-52));
      cols.push_back(id);
      total += share.back();
    }
    for (std::size_t n = 0; n < cols.size(); ++n) rows[i].push_back({cols[n], share[n] / total});
    if (cols.empty() && options.masked == MaskedNeighbours::Dropped)
      rows[i].push_back({nearest_by_brute_force(src, lon, lat, 1)[0].second, 1.0});
  }
  return rows;
}

// The matrix of a SCRIP file, row by row, links in file order.
Rows rows_of(const regrid_test::SerialMatrix& m) {
  Rows rows;
  for (std::size_t n = 0; n < m.row.size(); ++n) rows[m.row[n]].push_back({m.col[n], m.weight[n]});
  return rows;
}

// Scratch files of this test: regrid_online_<stem>_np<ranks>.nc.
class ScratchFile : public regrid_test::ScratchFile {
 public:
  explicit ScratchFile(const std::string& stem) : regrid_test::ScratchFile("regrid_online", stem) {}
};

// Computes the weights on random layouts of both grids, writes them, and checks the
// file against the reference bit for bit, and a read-back against the weights.
void expect_reference_bits(const NearestNeighbourOptions& options, std::uint64_t seed) {
  const Grid src = masked_source();
  const Grid dst = probing_destination();
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  const Weights w = ferry::nearest_neighbour_weights(
      MPI_COMM_WORLD, share(src, Layout::random(src.size(), p, me, seed)),
      share(dst, Layout::random(dst.size(), p, me, seed + 1)), options);
  ScratchFile file("reference");
  w.write_scrip(MPI_COMM_WORLD, file.path());

  const Rows expected =
      options.masked != MaskedNeighbours::Skipped ? reference_dropped(src, dst, options)
                                                  : reference(src, dst, options);
  const Rows got = rows_of(regrid_test::read_scrip(file.path()));
  ASSERT_EQ(got.size(), expected.size()) << "rows with links (valid destination points)";
  for (const auto& [row, links] : expected) {
    const auto it = got.find(row);
    ASSERT_NE(it, got.end()) << "row " << row << " has no links";
    ASSERT_EQ(it->second.size(), links.size()) << "row " << row;
    for (std::size_t n = 0; n < links.size(); ++n) {
      EXPECT_EQ(it->second[n].col, links[n].col) << "row " << row << " link " << n;
      EXPECT_EQ(it->second[n].weight, links[n].weight) << "row " << row << " link " << n;
    }
  }

  const Weights back = Weights::read(MPI_COMM_WORLD, file.path());
  EXPECT_EQ(back.row_start(), w.row_start());
  EXPECT_EQ(back.cols(), w.cols());
  EXPECT_EQ(back.values(), w.values());  // exact: written and read as double
}

TEST(OnlineWeights, InverseDistanceEqualsSerialReferenceBitForBit) {
  NearestNeighbourOptions options;
  options.neighbours = 5;
  expect_reference_bits(options, 11);
  options.neighbours = 1;
  expect_reference_bits(options, 12);
}

// OASIS's DISTWGT rule: short rows where masked points are among the nearest, and
// rows of the nearest valid point where all are (inside the masked continent).
TEST(OnlineWeights, MaskedNeighboursDroppedEqualsSerialReferenceBitForBit) {
  NearestNeighbourOptions options;
  options.masked = MaskedNeighbours::Dropped;
  const Grid src = masked_source();
  const Grid dst = probing_destination();
  const Rows rows = reference_dropped(src, dst, options);
  const auto count = [&](auto keep) {
    return std::count_if(rows.begin(), rows.end(), [&](const auto& r) { return keep(r.second); });
  };
  ASSERT_GT(count([](const auto& links) { return links.size() > 1 && links.size() < 4; }), 0);
  ASSERT_GT(count([](const auto& links) { return links.size() == 1; }), 0);
  expect_reference_bits(options, 31);
  options.neighbours = 1;
  expect_reference_bits(options, 32);
}

TEST(OnlineWeights, GaussianEqualsSerialReferenceBitForBit) {
  NearestNeighbourOptions options;
  options.neighbours = 5;
  options.weighting = NeighbourWeighting::Gaussian;
  options.gaussian_variance = 0.5;
  expect_reference_bits(options, 21);
}

// OASIS's DISTWGTNF: as DISTWGT, but rows whose k nearest are all masked stay empty.
TEST(OnlineWeights, MaskedNeighboursDroppedNoFillEqualsSerialReferenceBitForBit) {
  NearestNeighbourOptions options;
  options.masked = MaskedNeighbours::DroppedNoFill;
  NearestNeighbourOptions filled = options;
  filled.masked = MaskedNeighbours::Dropped;
  const Grid src = masked_source();
  const Grid dst = probing_destination();
  ASSERT_LT(reference_dropped(src, dst, options).size(), reference_dropped(src, dst, filled).size())
      << "some rows must have all their neighbours masked";
  expect_reference_bits(options, 33);
}

// SCRIP's GAUSWGT of k neighbours, the k nearest valid source points.
NearestNeighbourOptions gauswgt(int k, double variance) {
  NearestNeighbourOptions options;
  options.neighbours = k;
  options.weighting = NeighbourWeighting::Gaussian;
  options.gaussian_scale = GaussianScale::NeighbourSpacing;
  options.gaussian_variance = variance;
  return options;
}

// SCRIP's GAUSWGT: a variance per destination point from its own neighbours' spacing,
// with the k nearest valid points, and with OASIS's masked-neighbour rule, filled or not.
TEST(OnlineWeights, GaussianOfNeighbourSpacingEqualsSerialReferenceBitForBit) {
  NearestNeighbourOptions options = gauswgt(5, 0.3);
  expect_reference_bits(options, 41);
  options.masked = MaskedNeighbours::Dropped;
  expect_reference_bits(options, 42);
  options.masked = MaskedNeighbours::DroppedNoFill;
  expect_reference_bits(options, 43);
  options.neighbours = 1;  // one neighbour: weight 1
  expect_reference_bits(options, 44);
}

// SCRIP's formula as its GAUSWGT code evaluates it: arcs by acos of the dot product,
// w_i = 1 / (exp(a_i^2 / (2 s^2)) + 2^-52), normalised. ferry's shifted exponent and
// asin arcs differ from it only by rounding: within 1e-13 on every link.
TEST(OnlineWeights, GaussianOfNeighbourSpacingIsScripsFormula) {
  NearestNeighbourOptions options = gauswgt(6, 0.5);
  options.masked = MaskedNeighbours::Dropped;
  const Grid src = masked_source();
  const Grid dst = probing_destination();
  const Rows ours = reference_dropped(src, dst, options);
  const auto arc = [](const std::vector<double>& a, const std::vector<double>& b) {
    return std::acos(std::max(-1.0, std::min(1.0, a[0] * b[0] + a[1] * b[1] + a[2] * b[2])));
  };
  int rows_compared = 0;
  for (const auto& [row, links] : ours) {
    if (links.size() < 2) continue;
    const std::vector<double> p = unit_vector(dst.lon[static_cast<std::size_t>(row)],
                                              dst.lat[static_cast<std::size_t>(row)]);
    std::vector<std::vector<double>> at;
    for (const Link& l : links)
      at.push_back(unit_vector(src.lon[static_cast<std::size_t>(l.col)],
                               src.lat[static_cast<std::size_t>(l.col)]));
    double pair_arcs = 0;
    int pairs = 0;
    for (std::size_t i = 0; i < at.size(); ++i)
      for (std::size_t j = i + 1; j < at.size(); ++j, ++pairs) pair_arcs += arc(at[i], at[j]);
    const double m = pair_arcs / pairs;
    const double s2 = options.gaussian_variance * m * m;
    std::vector<double> w;
    double total = 0;
    for (const auto& q : at) {
      const double a = arc(p, q);
      w.push_back(1 / (std::exp(0.5 * a * a / s2) + 0x1p-52));
      total += w.back();
    }
    for (std::size_t n = 0; n < links.size(); ++n)
      EXPECT_NEAR(links[n].weight, w[n] / total, 1e-13) << "row " << row << " link " << n;
    ++rows_compared;
  }
  EXPECT_GT(rows_compared, 300);
}

// Every point on one rank, the others giving none: the same bits as any spread.
TEST(OnlineWeights, AllPointsOnOneRank) {
  const Grid src = masked_source();
  const Grid dst = probing_destination();
  const int me = rank_of(MPI_COMM_WORLD);
  const int last = size_of(MPI_COMM_WORLD) - 1;
  NearestNeighbourOptions options;
  options.neighbours = 3;
  const Weights one = ferry::nearest_neighbour_weights(
      MPI_COMM_WORLD, share(src, me == last ? Layout::block(src.size(), 1, 0) : Layout::none(src.size())),
      share(dst, me == 0 ? Layout::block(dst.size(), 1, 0) : Layout::none(dst.size())), options);
  const Weights spread = ferry::nearest_neighbour_weights(
      MPI_COMM_WORLD, share(src, Layout::round_robin(src.size(), last + 1, me)),
      share(dst, Layout::block(dst.size(), last + 1, me)), options);
  EXPECT_EQ(one.row_start(), spread.row_start());
  EXPECT_EQ(one.cols(), spread.cols());
  EXPECT_EQ(one.values(), spread.values());
}

// Weights of CDO 2.1's gendis (4 neighbours) on the grids of a CDO weight file.
struct CdoCase {
  const char* file;
  // Rows where CDO's 4 nearest include masked points (it drops them, ferry takes
  // the next valid ones) are left out.
  bool skip_short_rows;
};

void expect_cdo_match(const CdoCase& c) {
  const std::string path = regrid_test::data_path(c.file);
  auto degrees = [&](const char* name) {
    std::vector<double> v = regrid_test::read_all(path, name);
    for (double& x : v) x /= kRadiansPerDegree;
    return v;
  };
  Grid src{degrees("src_grid_center_lon"), degrees("src_grid_center_lat"), {}};
  for (double m : regrid_test::read_all(path, "src_grid_imask"))
    src.mask.push_back(static_cast<std::int32_t>(m));
  const Grid dst{degrees("dst_grid_center_lon"), degrees("dst_grid_center_lat"), {}};
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  const Weights w = ferry::nearest_neighbour_weights(
      MPI_COMM_WORLD, share(src, Layout::block(src.size(), p, me)),
      share(dst, Layout::random(dst.size(), p, me, 5)));
  ScratchFile file(std::string("cdo_") + c.file);
  w.write_scrip(MPI_COMM_WORLD, file.path());
  const Rows ours = rows_of(regrid_test::read_scrip(file.path()));
  const Rows cdo = rows_of(regrid_test::read_scrip(path));

  ASSERT_EQ(ours.size(), static_cast<std::size_t>(dst.size())) << "every point gets 4 links";
  std::size_t compared = 0;
  std::size_t ties = 0;
  for (const auto& [row, links] : cdo) {
    if (links.size() < 4 && c.skip_short_rows) continue;
    const std::vector<Link>& mine = ours.at(row);
    std::map<std::int64_t, double> theirs;
    for (const Link& l : links) theirs[l.col] = l.weight;
    bool same = mine.size() == theirs.size();
    for (const Link& l : mine) same = same && theirs.count(l.col);
    if (!same) {
      // A tie: CDO's single-precision distances cannot tell the last neighbours apart.
      const std::vector<double> at = unit_vector(dst.lon[static_cast<std::size_t>(row)],
                                                 dst.lat[static_cast<std::size_t>(row)]);
      auto distance = [&](std::int64_t col) {
        return std::sqrt(chord2(at, unit_vector(src.lon[static_cast<std::size_t>(col)],
                                                src.lat[static_cast<std::size_t>(col)])));
      };
      double their_far = 0;
      for (const auto& entry : theirs) their_far = std::max(their_far, distance(entry.first));
      EXPECT_NEAR(distance(mine.back().col), their_far, 1e-6 * their_far) << "row " << row;
      ++ties;
      continue;
    }
    for (const Link& l : mine)
      EXPECT_NEAR(l.weight, theirs[l.col], 2e-8) << "row " << row << " source " << l.col;
    ++compared;
  }
  EXPECT_GT(compared, ours.size() / 3);
  EXPECT_LE(ties, ours.size() / 100) << "more ties than rounding explains";
}

TEST(OnlineWeights, MatchesCdoGendis) {
  if (!std::ifstream(regrid_test::data_path("ready")).good())
    GTEST_SKIP() << "no CDO-made weight files (is cdo installed?)";
  expect_cdo_match({"w_dis_back.nc", false});
  expect_cdo_match({"w_dis_masked.nc", true});
}

TEST(OnlineWeights, BadInputFailsEverywhere) {
  const Grid src = masked_source();
  const Grid dst = probing_destination();
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  const bool last = me == p - 1;
  const GridPoints good_src = share(src, Layout::block(src.size(), p, me));
  const GridPoints good_dst = share(dst, Layout::block(dst.size(), p, me));
  auto run = [&](const GridPoints& s, const GridPoints& d, const NearestNeighbourOptions& o) {
    return [&, o] { ferry::nearest_neighbour_weights(MPI_COMM_WORLD, s, d, o); };
  };
  NearestNeighbourOptions options;

  GridPoints short_lon = good_src;
  if (last) short_lon.lon.pop_back();
  ferry_test::expect_same_error_everywhere(run(short_lon, good_dst, options), Errc::ArgSize,
                                           "source points on rank [0-9]+ have [0-9]+ longitudes");
  GridPoints bad_lat = good_dst;
  if (last) bad_lat.lat.back() = 95;
  ferry_test::expect_same_error_everywhere(run(good_src, bad_lat, options), Errc::Arg,
                                           "latitude 95.*within -90..90");
  GridPoints nan_lon = good_src;
  if (last) nan_lon.lon.front() = std::numeric_limits<double>::quiet_NaN();
  ferry_test::expect_same_error_everywhere(run(nan_lon, good_dst, options), Errc::Arg,
                                           "longitude nan");
  const GridPoints twice = share(src, Layout::block(src.size(), 1, 0));
  if (p > 1)
    ferry_test::expect_same_error_everywhere(run(twice, good_dst, options), Errc::Duplicate,
                                             "source point 0 is given twice");
  NearestNeighbourOptions too_many;
  std::int64_t valid = 0;
  for (std::int64_t i = 0; i < src.size(); ++i) valid += src.valid(i) ? 1 : 0;
  too_many.neighbours = static_cast<int>(valid) + 1;
  ferry_test::expect_same_error_everywhere(
      run(good_src, good_dst, too_many), Errc::Arg,
      "neighbours is " + std::to_string(valid + 1) + " but the source grid has " +
          std::to_string(valid) + " valid");
  NearestNeighbourOptions flat;
  flat.weighting = NeighbourWeighting::Gaussian;
  flat.gaussian_variance = 0;
  ferry_test::expect_same_error_everywhere(run(good_src, good_dst, flat), Errc::Arg,
                                           "gaussian_variance is 0");
  NearestNeighbourOptions gaussian_dropped;
  gaussian_dropped.weighting = NeighbourWeighting::Gaussian;
  gaussian_dropped.masked = MaskedNeighbours::Dropped;
  ferry_test::expect_same_error_everywhere(run(good_src, good_dst, gaussian_dropped), Errc::Arg,
                                           "takes inverse-distance weighting");
  NearestNeighbourOptions unknown_rule;
  unknown_rule.masked = static_cast<MaskedNeighbours>(7);
  ferry_test::expect_same_error_everywhere(run(good_src, good_dst, unknown_rule), Errc::Arg,
                                           "masked neighbours is 7");
  NearestNeighbourOptions too_many_of_all;
  too_many_of_all.masked = MaskedNeighbours::Dropped;
  too_many_of_all.neighbours = static_cast<int>(good_src.layout.global_size()) + 1;
  ferry_test::expect_same_error_everywhere(run(good_src, good_dst, too_many_of_all), Errc::Arg,
                                           "neighbours is " + std::to_string(too_many_of_all.neighbours));
}

// Bilinear weights of CDO 2.1's genbil on its own grids (r36x18 -> n16). CDO gives
// the points beyond the outermost source rows distance weights; ferry gives them none.
// The grids of CDO's genbil file (r36x18 -> n16): centres in degrees, the source's
// row length and outermost latitude.
struct BilinearCase {
  explicit BilinearCase(const char* file = "w_bil.nc") : path(regrid_test::data_path(file)) {}
  std::string path;
  Grid src{degrees("src_grid_center_lon"), degrees("src_grid_center_lat"), {}};
  Grid dst{degrees("dst_grid_center_lon"), degrees("dst_grid_center_lat"), {}};
  std::int64_t nx = static_cast<std::int64_t>(regrid_test::read_all(path, "src_grid_dims")[0]);
  double outermost = *std::max_element(src.lat.begin(), src.lat.end());

  std::vector<double> degrees(const char* name) const {
    std::vector<double> v = regrid_test::read_all(path, name);
    for (double& x : v) x /= kRadiansPerDegree;
    return v;
  }
};

TEST(OnlineBilinearWeights, MatchesCdoGenbil) {
  if (!std::ifstream(regrid_test::data_path("ready")).good())
    GTEST_SKIP() << "no CDO-made weight files (is cdo installed?)";
  const BilinearCase grids;
  const std::string& path = grids.path;
  const Grid& src = grids.src;
  const Grid& dst = grids.dst;
  const std::int64_t nx = grids.nx;
  const double outermost = grids.outermost;
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  const Weights w = ferry::bilinear_weights(
      MPI_COMM_WORLD, share(src, Layout::random(src.size(), p, me, 8)),
      share(dst, Layout::block(dst.size(), p, me)), BilinearOptions{nx, true, ferry::Unmapped::Fill});
  ScratchFile file("bilinear");
  w.write_scrip(MPI_COMM_WORLD, file.path());
  const Rows ours = rows_of(regrid_test::read_scrip(file.path()));
  const Rows cdo = rows_of(regrid_test::read_scrip(path));

  std::size_t compared = 0;
  for (std::int64_t row = 0; row < dst.size(); ++row) {
    const bool inside = std::abs(dst.lat[static_cast<std::size_t>(row)]) <= outermost;
    EXPECT_EQ(ours.count(row), inside ? 1u : 0u) << "row " << row;
    if (!inside || !ours.count(row)) continue;
    // A point on a cell edge lies in two cells; the corners off the edge weigh 0, or
    // a rounding error more.
    std::map<std::int64_t, double> theirs;
    for (const Link& l : cdo.at(row))
      if (std::abs(l.weight) > 1e-14) theirs[l.col] = l.weight;
    std::size_t nonzero = 0;
    for (const Link& l : ours.at(row)) {
      if (std::abs(l.weight) <= 1e-14) continue;
      ++nonzero;
      ASSERT_EQ(theirs.count(l.col), 1u) << "row " << row << " source " << l.col;
      EXPECT_NEAR(l.weight, theirs[l.col], 1e-12) << "row " << row << " source " << l.col;
    }
    EXPECT_EQ(nonzero, theirs.size()) << "row " << row;
    ++compared;
  }
  EXPECT_GT(compared, static_cast<std::size_t>(dst.size()) * 9 / 10);
}

// Bicubic weights against CDO 2.1's genbic on the same grids: the four weights of each
// link (value, d/di, d/dj, d2/didj) within 1e-12, where CDO's value weight is not 0
// (a point on a cell edge: the corners off the edge weigh 0 in every kind); the rows
// beyond the outermost source rows, which CDO fills by distance, are not compared.
TEST(OnlineBicubicWeights, MatchesCdoGenbic) {
  if (!std::ifstream(regrid_test::data_path("ready")).good())
    GTEST_SKIP() << "no CDO-made weight files (is cdo installed?)";
  const BilinearCase grids("w_bic.nc");
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  const ferry::BicubicGradientWeights w = ferry::bicubic_gradient_weights(
      MPI_COMM_WORLD, share(grids.src, Layout::random(grids.src.size(), p, me, 9)),
      share(grids.dst, Layout::block(grids.dst.size(), p, me)),
      BilinearOptions{grids.nx, true, ferry::Unmapped::Fill});
  const ferry::Weights* kinds[4] = {&w.value, &w.i_gradient, &w.j_gradient, &w.ij_gradient};
  std::size_t compared = 0;
  for (std::size_t kind = 0; kind < 4; ++kind) {
    SCOPED_TRACE(kind);
    ScratchFile file("bicubic_" + std::to_string(kind));
    kinds[kind]->write_scrip(MPI_COMM_WORLD, file.path());
    const Rows ours = rows_of(regrid_test::read_scrip(file.path()));
    const Rows cdo = rows_of(regrid_test::read_scrip(grids.path, kind));
    const Rows cdo_value = rows_of(regrid_test::read_scrip(grids.path, 0));
    for (std::int64_t row = 0; row < grids.dst.size(); ++row) {
      if (std::abs(grids.dst.lat[static_cast<std::size_t>(row)]) > grids.outermost) continue;
      ASSERT_EQ(ours.count(row), 1u) << "row " << row;
      std::map<std::int64_t, double> theirs;
      const std::vector<Link>& value = cdo_value.at(row);
      const std::vector<Link>& links = cdo.at(row);
      for (std::size_t k = 0; k < links.size(); ++k)
        if (std::abs(value[k].weight) > 1e-14) theirs[links[k].col] = links[k].weight;
      for (const Link& l : ours.at(row)) {
        if (!theirs.count(l.col)) {
          EXPECT_LE(std::abs(l.weight), 1e-14) << "row " << row << " source " << l.col;
          continue;
        }
        EXPECT_NEAR(l.weight, theirs[l.col], 1e-12) << "row " << row << " source " << l.col;
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, static_cast<std::size_t>(grids.dst.size()) * 4 * 3);
}

// Bicubic weights with the gradients made from the field, against CDO's remap with
// its genbic weights (which computes them the same way): the remapped field within
// 1e-12 at every point inside the outermost source rows, with and without a masked
// southern half (masked neighbours replaced by the point itself, as CDO does); the
// same bits for any layout.
TEST(OnlineBicubicWeights, GradientsFromTheFieldLikeCdoRemap) {
  if (!std::ifstream(regrid_test::data_path("ready")).good())
    GTEST_SKIP() << "no CDO-made weight files (is cdo installed?)";
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  for (const auto& [weights, field, reference] :
       {std::make_tuple("w_bic.nc", "src.nc", "ref_bic.nc"),
        std::make_tuple("w_bic_masked.nc", "src_masked.nc", "ref_bic_masked.nc")}) {
    SCOPED_TRACE(weights);
    BilinearCase grids(weights);
    for (double m : regrid_test::read_all(grids.path, "src_grid_imask"))
      grids.src.mask.push_back(static_cast<std::int32_t>(m));
    const ferry::Weights w = ferry::bicubic_weights(
        MPI_COMM_WORLD, share(grids.src, Layout::random(grids.src.size(), p, me, 10)),
        share(grids.dst, Layout::block(grids.dst.size(), p, me)),
        BilinearOptions{grids.nx, true, ferry::Unmapped::Fill});
    // The same bits with every point on one rank.
    regrid_test::expect_same_bits(
        w, ferry::bicubic_weights(
               MPI_COMM_WORLD,
               share(grids.src, me == p - 1 ? Layout::block(grids.src.size(), 1, 0)
                                            : Layout::none(grids.src.size())),
               share(grids.dst, me == 0 ? Layout::block(grids.dst.size(), 1, 0)
                                        : Layout::none(grids.dst.size())),
               BilinearOptions{grids.nx, true, ferry::Unmapped::Fill}));
    const std::vector<double> f = regrid_test::read_all(regrid_test::data_path(field), "f");
    const std::vector<double> cdo =
        regrid_test::read_all(regrid_test::data_path(reference), "f");
    const std::vector<double> ours = regrid_test::remap_rows(w, f);
    std::size_t compared = 0;
    for (std::int64_t r = 0; r < w.row_count(); ++r) {
      const auto row = static_cast<std::size_t>(w.first_row() + r);
      const auto begin = w.row_start()[static_cast<std::size_t>(r)];
      if (std::abs(grids.dst.lat[row]) > grids.outermost ||
          begin == w.row_start()[static_cast<std::size_t>(r) + 1])
        continue;
      EXPECT_NEAR(ours[static_cast<std::size_t>(r)], cdo[row], 1e-12) << "row " << row;
      ++compared;
    }
    EXPECT_GT(regrid_test::sum_over_ranks(static_cast<double>(compared)),
              static_cast<double>(grids.dst.size()) / 3);
  }
}

// Unmapped::Nearest (OASIS's BILINEAR, CDO's fill): the rows beyond the outermost
// source rows get one link of weight 1 from their nearest source point; the others are
// the same bits as without the fill.
TEST(OnlineBilinearWeights, NearestFillsBeyondTheSourceRows) {
  if (!std::ifstream(regrid_test::data_path("ready")).good())
    GTEST_SKIP() << "no CDO-made weight files (is cdo installed?)";
  const BilinearCase grids;
  const std::string& path = grids.path;
  const Grid& src = grids.src;
  const Grid& dst = grids.dst;
  const std::int64_t nx = grids.nx;
  const double outermost = grids.outermost;
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  auto weights = [&](ferry::Unmapped unmapped) {
    return ferry::bilinear_weights(MPI_COMM_WORLD, share(src, Layout::random(src.size(), p, me, 9)),
                                   share(dst, Layout::round_robin(dst.size(), p, me)),
                                   BilinearOptions{nx, true, unmapped});
  };
  const Weights plain = weights(ferry::Unmapped::Fill);
  const Weights filled = weights(ferry::Unmapped::Nearest);
  std::size_t beyond = 0;
  for (std::int64_t r = 0; r < filled.row_count(); ++r) {
    const auto i = static_cast<std::size_t>(r);
    const std::int64_t row = filled.first_row() + r;
    const auto k = static_cast<std::size_t>(filled.row_start()[i]);
    if (std::abs(dst.lat[static_cast<std::size_t>(row)]) <= outermost) {
      EXPECT_EQ(filled.row_start()[i + 1] - filled.row_start()[i],
                plain.row_start()[i + 1] - plain.row_start()[i]);
      EXPECT_EQ(filled.values()[k], plain.values()[static_cast<std::size_t>(plain.row_start()[i])]);
      continue;
    }
    ++beyond;
    ASSERT_EQ(filled.row_start()[i + 1] - filled.row_start()[i], 1) << "row " << row;
    EXPECT_EQ(filled.values()[k], 1.0);
    // The nearest source point by chord, ties to the lower id.
    const LocatedTest t = locate_test(dst.lon[static_cast<std::size_t>(row)],
                                      dst.lat[static_cast<std::size_t>(row)]);
    std::int64_t best = -1;
    double best_d2 = 0;
    for (std::int64_t s = 0; s < src.size(); ++s) {
      const LocatedTest c = locate_test(src.lon[static_cast<std::size_t>(s)],
                                        src.lat[static_cast<std::size_t>(s)]);
      const double d2 = (c.x - t.x) * (c.x - t.x) + (c.y - t.y) * (c.y - t.y) +
                        (c.z - t.z) * (c.z - t.z);
      if (best < 0 || d2 < best_d2) {
        best = s;
        best_d2 = d2;
      }
    }
    EXPECT_EQ(filled.cols()[k], best) << "row " << row;
  }
  std::size_t all = beyond;
  MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_UNSIGNED_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_GT(all, 0u);
}

// A masked corner removes the row; every other row keeps its bits. The same bits for
// every layout, including all points on one rank.
TEST(OnlineBilinearWeights, MasksAndLayouts) {
  const Grid masked = masked_source();
  Grid open = masked;
  open.mask.clear();
  const Grid dst = probing_destination();
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  const BilinearOptions options{24, true};
  const Weights all = ferry::bilinear_weights(
      MPI_COMM_WORLD, share(open, me == 0 ? Layout::block(open.size(), 1, 0) : Layout::none(open.size())),
      share(dst, me == p - 1 ? Layout::block(dst.size(), 1, 0) : Layout::none(dst.size())), options);
  const Weights spread = ferry::bilinear_weights(
      MPI_COMM_WORLD, share(open, Layout::random(open.size(), p, me, 3)),
      share(dst, Layout::random(dst.size(), p, me, 4)), options);
  EXPECT_EQ(all.row_start(), spread.row_start());
  EXPECT_EQ(all.cols(), spread.cols());
  EXPECT_EQ(all.values(), spread.values());

  const Weights holed = ferry::bilinear_weights(
      MPI_COMM_WORLD, share(masked, Layout::random(masked.size(), p, me, 5)),
      share(dst, Layout::block(dst.size(), p, me)), options);
  ScratchFile open_file("bilinear_open");
  ScratchFile holed_file("bilinear_holed");
  spread.write_scrip(MPI_COMM_WORLD, open_file.path());
  holed.write_scrip(MPI_COMM_WORLD, holed_file.path());
  const Rows full = rows_of(regrid_test::read_scrip(open_file.path()));
  const Rows kept = rows_of(regrid_test::read_scrip(holed_file.path()));
  std::size_t removed = 0;
  for (const auto& [row, links] : full) {
    bool wet = true;
    for (const Link& l : links) wet = wet && masked.valid(l.col);
    ASSERT_EQ(kept.count(row), wet ? 1u : 0u) << "row " << row;
    if (!wet) {
      ++removed;
      continue;
    }
    for (std::size_t n = 0; n < links.size(); ++n) {
      EXPECT_EQ(kept.at(row)[n].col, links[n].col);
      EXPECT_EQ(kept.at(row)[n].weight, links[n].weight);
    }
  }
  EXPECT_EQ(kept.size() + removed, full.size());
  EXPECT_GT(removed, 0u);
  // Masked destination points, and points beyond the outermost rows (latitudes
  // beyond +-82.5 here), get no links.
  for (const auto& [row, links] : full) {
    EXPECT_TRUE(dst.valid(row)) << "row " << row;
    EXPECT_LE(std::abs(dst.lat[static_cast<std::size_t>(row)]), 82.5) << "row " << row;
  }
}

// Unmapped::FourNearest (OASIS's BILINEAR and BICUBIC, SCRIP's rule): a valid point in
// a cell with a masked corner, or in no cell, takes the inverse great-circle distances
// 1 / (d + 1e-14) of its 4 nearest source points, masked or not, the masked ones
// dropped and the rest normalised; where all 4 are masked, its nearest valid point.
// The rows in cells with 4 valid corners are the same bits as without a fill; the
// same bits on every layout; bicubic's value weights fill the same rows alike.
TEST(OnlineBilinearWeights, FourNearestFillLikeOasis) {
  const Grid src = masked_source();
  const Grid dst = probing_destination();
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  const BilinearOptions four{24, true, ferry::Unmapped::FourNearest};
  const Weights filled = ferry::bilinear_weights(
      MPI_COMM_WORLD, share(src, Layout::random(src.size(), p, me, 11)),
      share(dst, Layout::block(dst.size(), p, me)), four);
  regrid_test::expect_same_bits(
      filled, ferry::bilinear_weights(
                  MPI_COMM_WORLD,
                  share(src, me == 0 ? Layout::block(src.size(), 1, 0) : Layout::none(src.size())),
                  share(dst, Layout::block(dst.size(), p, me)), four));
  const Weights plain = ferry::bilinear_weights(
      MPI_COMM_WORLD, share(src, Layout::round_robin(src.size(), p, me)),
      share(dst, Layout::block(dst.size(), p, me)), BilinearOptions{24, true});
  const ferry::BicubicGradientWeights bicubic = ferry::bicubic_gradient_weights(
      MPI_COMM_WORLD, share(src, Layout::round_robin(src.size(), p, me)),
      share(dst, Layout::block(dst.size(), p, me)), four);
  std::size_t partly = 0, all_masked = 0;
  for (std::int64_t r = 0; r < filled.row_count(); ++r) {
    const auto i = static_cast<std::size_t>(r);
    const std::int64_t row = filled.first_row() + r;
    const auto begin = static_cast<std::size_t>(filled.row_start()[i]);
    const auto end = static_cast<std::size_t>(filled.row_start()[i + 1]);
    // Bicubic's value matrix has the same rows where they are filled.
    if (plain.row_start()[i] == plain.row_start()[i + 1]) {
      ASSERT_EQ(bicubic.value.row_start()[i + 1] - bicubic.value.row_start()[i],
                static_cast<std::int64_t>(end - begin)) << "row " << row;
      for (std::size_t k = begin; k < end; ++k) {
        const auto b = static_cast<std::size_t>(bicubic.value.row_start()[i]) + (k - begin);
        EXPECT_EQ(bicubic.value.cols()[b], filled.cols()[k]);
        EXPECT_EQ(bicubic.value.values()[b], filled.values()[k]);
        EXPECT_EQ(bicubic.i_gradient.values()[b], 0.0);
      }
    }
    if (!dst.valid(row)) {
      EXPECT_EQ(begin, end) << "row " << row;
      continue;
    }
    if (plain.row_start()[i] != plain.row_start()[i + 1]) {
      const auto k = static_cast<std::size_t>(plain.row_start()[i]);
      ASSERT_EQ(end - begin, 4u) << "row " << row;
      for (std::size_t n = 0; n < 4; ++n) {
        EXPECT_EQ(filled.cols()[begin + n], plain.cols()[k + n]);
        EXPECT_EQ(filled.values()[begin + n], plain.values()[k + n]);
      }
      continue;
    }
    // The 4 nearest of all source points, ties to the lower id.
    const double lon = dst.lon[static_cast<std::size_t>(row)];
    const double lat = dst.lat[static_cast<std::size_t>(row)];
    Grid unmasked = src;
    unmasked.mask.clear();
    const auto nearest = nearest_by_brute_force(unmasked, lon, lat, 5);
    if (nearest[4].first - nearest[3].first < 1e-12) continue;  // a tie at the 4th
    std::map<std::int64_t, double> expected;
    double sum = 0;
    for (std::size_t n = 0; n < 4; ++n) {
      if (!src.valid(nearest[n].second)) continue;
      const double arc = 2 * std::asin(std::sqrt(nearest[n].first) / 2);
      expected[nearest[n].second] = 1 / (arc + 1e-14);
      sum += 1 / (arc + 1e-14);
    }
    if (expected.empty()) {
      ++all_masked;
      expected[nearest_by_brute_force(src, lon, lat, 1)[0].second] = sum = 1;
    } else {
      ++partly;
    }
    ASSERT_EQ(end - begin, expected.size()) << "row " << row;
    for (std::size_t k = begin; k < end; ++k) {
      ASSERT_TRUE(expected.count(filled.cols()[k])) << "row " << row;
      EXPECT_NEAR(filled.values()[k], expected[filled.cols()[k]] / sum, 1e-14) << "row " << row;
    }
  }
  EXPECT_GT(regrid_test::sum_over_ranks(static_cast<double>(partly)), 10);
  EXPECT_GT(regrid_test::sum_over_ranks(static_cast<double>(all_masked)), 0);
}

// A row of source points on a pole (LMDZ's last row: nx copies of the pole) counts once
// in the search for a point's cell: points between the last row of latitude and the
// pole are placed in the cell of their longitude, with the bilinear weights.
TEST(OnlineBilinearWeights, PoleRowPlacesPointsByLongitude) {
  // LMDZ's rows: 96 x 72 points, the first and last on the poles.
  constexpr int kNx = 96;
  constexpr double kDlon = 360.0 / kNx;
  constexpr double kDlat = 180.0 / 71;
  Grid src;
  for (int j = 0; j < 72; ++j)
    for (int i = 0; i < kNx; ++i) {
      src.lon.push_back(-180 + i * kDlon);
      src.lat.push_back(j == 71 ? 90.0 : -90 + j * kDlat);
    }
  Grid dst;
  for (int n = 0; n < 36; ++n)
    for (double lat : {-88.9, -87.0, 88.0, 88.75, 89.6}) {
      dst.lon.push_back(-180 + (n + 0.3) * 10);
      dst.lat.push_back(lat);
    }
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  const Weights w = ferry::bilinear_weights(
      MPI_COMM_WORLD, share(src, Layout::random(src.size(), p, me, 12)),
      share(dst, Layout::round_robin(dst.size(), p, me)), BilinearOptions{kNx, true});
  std::size_t placed = 0;
  for (std::int64_t r = 0; r < w.row_count(); ++r) {
    const auto i = static_cast<std::size_t>(r);
    const std::int64_t row = w.first_row() + r;
    const double lon = dst.lon[static_cast<std::size_t>(row)];
    const double lat = dst.lat[static_cast<std::size_t>(row)];
    const double x = (lon + 180) / kDlon;
    const double y = std::min((lat + 90) / kDlat, 71.0);
    const auto column = static_cast<std::int64_t>(x);
    const auto line = std::min(static_cast<std::int64_t>(y), std::int64_t{70});
    const double a = x - static_cast<double>(column);
    const double b = line == 70 ? (lat - src.lat[70 * kNx]) / (90 - src.lat[70 * kNx])
                                : y - static_cast<double>(line);
    const std::int64_t next = (column + 1) % kNx;
    const std::int64_t corner[4] = {line * kNx + column, line * kNx + next,
                                    (line + 1) * kNx + next, (line + 1) * kNx + column};
    const double weight[4] = {(1 - a) * (1 - b), a * (1 - b), a * b, (1 - a) * b};
    ASSERT_EQ(w.row_start()[i + 1] - w.row_start()[i], 4) << "lon " << lon << " lat " << lat;
    for (std::size_t n = 0; n < 4; ++n) {
      const auto k = static_cast<std::size_t>(w.row_start()[i]) + n;
      EXPECT_EQ(w.cols()[k], corner[n]) << "lon " << lon << " lat " << lat;
      EXPECT_NEAR(w.values()[k], weight[n], 1e-12) << "lon " << lon << " lat " << lat;
    }
    ++placed;
  }
  EXPECT_EQ(regrid_test::sum_over_ranks(static_cast<double>(placed)),
            static_cast<double>(dst.size()));
}

// A logically rectangular grid round a pole (ORCA's north fold in miniature): 7 x 6
// points on a square mesh of step tan 1 degree in the plane tangent at the pole,
// turned by 25 degrees, the pole at (3.3, 2.6) in mesh steps, so in cell (3, 2) with
// no corner on it. `north` false mirrors it to the South Pole (its cells then turn the
// other way).
Grid round_a_pole_grid(bool north) {
  constexpr double kTurn = 25 * kRadiansPerDegree;
  const double step = std::tan(kRadiansPerDegree);
  Grid g;
  for (int j = 0; j < 6; ++j)
    for (int i = 0; i < 7; ++i) {
      const double x = (i - 3.3) * step;
      const double y = (j - 2.6) * step;
      const double u = x * std::cos(kTurn) - y * std::sin(kTurn);
      const double v = x * std::sin(kTurn) + y * std::cos(kTurn);
      g.lon.push_back(std::atan2(v, u) / kRadiansPerDegree);
      const double lat = 90 - std::atan(std::hypot(u, v)) / kRadiansPerDegree;
      g.lat.push_back(north ? lat : -lat);
    }
  return g;
}

// A point at or next to a pole, in the cell round it, gets that cell's bilinear
// weights, found in the plane tangent at the cell (SCRIP's map in longitude and
// latitude has no solution there): the pole at any longitude gets the same bits, in
// cell (3, 2). Points 0.2 and 0.5 degrees from the pole, which no cell holds in
// longitude and latitude, are placed on the sphere too (in the cell round the pole or
// a neighbour); points 0.9 degrees away, which a neighbour holds in longitude and
// latitude, keep SCRIP's map and its bits. A constant is reproduced to rounding, and
// the coordinates x, y, z (a field linear in 3-D) to the bilinear interpolation's
// second-order error on the sphere (cells of 1 degree: measured 7.6e-5, 1e-4 allowed),
// to 5e-3 by SCRIP's map (measured 3.2e-3: the lon-lat picture of a cell 1 degree from
// the pole spans 60 degrees of longitude); bicubic weights place the point at the same
// (a, b). The same bits on every layout.
TEST(OnlineBilinearWeights, PointsAtAPoleInTheCellRoundIt) {
  constexpr std::int64_t kNx = 7;
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  for (bool north : {true, false}) {
    SCOPED_TRACE(north ? "North Pole" : "South Pole");
    const Grid src = round_a_pole_grid(north);
    const double pole = north ? 90 : -90;
    Grid dst;
    for (double lon : {0.0, 45.0, 123.4, -170.0, 360.0}) {
      dst.lon.push_back(lon);
      dst.lat.push_back(pole);
    }
    for (double distance : {0.2, 0.5, 0.9})
      for (int n = 0; n < 12; ++n) {
        dst.lon.push_back(-180 + n * 30 + 7);
        dst.lat.push_back(north ? 90 - distance : distance - 90);
      }
    const BilinearOptions options{kNx, false};
    const Weights w = ferry::bilinear_weights(
        MPI_COMM_WORLD, share(src, Layout::random(src.size(), p, me, 21)),
        share(dst, Layout::round_robin(dst.size(), p, me)), options);
    regrid_test::expect_same_bits(
        w, ferry::bilinear_weights(
               MPI_COMM_WORLD,
               share(src, me == 0 ? Layout::block(src.size(), 1, 0) : Layout::none(src.size())),
               share(dst, Layout::round_robin(dst.size(), p, me)), options));
    const ferry::BicubicGradientWeights bicubic = ferry::bicubic_gradient_weights(
        MPI_COMM_WORLD, share(src, Layout::block(src.size(), p, me)),
        share(dst, Layout::round_robin(dst.size(), p, me)), options);
    std::vector<double> at_pole;
    double worst_linear = 0;
    for (std::int64_t r = 0; r < w.row_count(); ++r) {
      const auto i = static_cast<std::size_t>(r);
      const std::int64_t row = w.first_row() + r;
      const auto begin = static_cast<std::size_t>(w.row_start()[i]);
      SCOPED_TRACE("destination " + std::to_string(row));
      ASSERT_EQ(w.row_start()[i + 1] - w.row_start()[i], 4);
      const double* weight = &w.values()[begin];
      const LocatedTest target = locate_test(dst.lon[static_cast<std::size_t>(row)],
                                             dst.lat[static_cast<std::size_t>(row)]);
      double sum = 0;
      double field[3] = {0, 0, 0};
      for (std::size_t n = 0; n < 4; ++n) {
        const auto col = static_cast<std::size_t>(w.cols()[begin + n]);
        const LocatedTest corner = locate_test(src.lon[col], src.lat[col]);
        sum += weight[n];
        field[0] += weight[n] * corner.x;
        field[1] += weight[n] * corner.y;
        field[2] += weight[n] * corner.z;
      }
      EXPECT_NEAR(sum, 1, 1e-15);
      const double off = std::max({std::abs(field[0] - target.x), std::abs(field[1] - target.y),
                                   std::abs(field[2] - target.z)});
      if (std::abs(dst.lat[static_cast<std::size_t>(row)]) >= 89.5)
        worst_linear = std::max(worst_linear, off);
      else
        EXPECT_LE(off, 5e-3);
      // Bicubic's value weights: the cubic Hermite bases at the same (a, b).
      const double a = weight[1] + weight[2];
      const double b = weight[2] + weight[3];
      auto h00 = [](double t) { return (1 + 2 * t) * (1 - t) * (1 - t); };
      auto h01 = [](double t) { return t * t * (3 - 2 * t); };
      const double value[4] = {h00(a) * h00(b), h01(a) * h00(b), h01(a) * h01(b),
                               h00(a) * h01(b)};
      const auto k = static_cast<std::size_t>(bicubic.value.row_start()[i]);
      ASSERT_EQ(bicubic.value.row_start()[i + 1] - bicubic.value.row_start()[i], 4);
      for (std::size_t n = 0; n < 4; ++n) {
        EXPECT_EQ(bicubic.value.cols()[k + n], w.cols()[begin + n]);
        EXPECT_NEAR(bicubic.value.values()[k + n], value[n], 1e-13);
      }
      if (dst.lat[static_cast<std::size_t>(row)] != pole) continue;
      const std::int64_t cell[4] = {2 * kNx + 3, 2 * kNx + 4, 3 * kNx + 4, 3 * kNx + 3};
      for (std::size_t n = 0; n < 4; ++n) {
        EXPECT_EQ(w.cols()[begin + n], cell[n]);
        EXPECT_GT(weight[n], 0.05);
      }
      if (at_pole.empty()) at_pole.assign(weight, weight + 4);
      EXPECT_EQ(std::vector<double>(weight, weight + 4), at_pole);
    }
    EXPECT_LE(worst_linear, 1e-4);
    MPI_Allreduce(MPI_IN_PLACE, &worst_linear, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (me == 0) std::printf("linear field off by %g at most\n", worst_linear);
    // Every point placed: 4 links each.
    EXPECT_EQ(regrid_test::sum_over_ranks(static_cast<double>(
                  w.row_start().empty() ? 0 : w.row_start().back())),
              4.0 * static_cast<double>(dst.size()));
  }
}

TEST(OnlineBilinearWeights, BadShapeFailsEverywhere) {
  const Grid src = masked_source();
  const Grid dst = probing_destination();
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  ferry_test::expect_same_error_everywhere(
      [&] {
        ferry::bilinear_weights(MPI_COMM_WORLD, share(src, Layout::block(src.size(), p, me)),
                                share(dst, Layout::block(dst.size(), p, me)),
                                BilinearOptions{25, true, ferry::Unmapped::Fill});
      },
      Errc::Arg, "source grid has 288 points and nx is 25");
}

}  // namespace
