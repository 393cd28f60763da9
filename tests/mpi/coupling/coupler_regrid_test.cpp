// Regridded exchanges of the coupler: an "atm" on a 10-degree longitude-latitude grid
// (r36x18, 648 points) puts, an "ocn" on a Gaussian grid (n16, 2048 points) with a
// land mask gets. The weights come from CDO files (made by tests/mpi/regrid's fixture)
// or are computed online (conservative ones from cells around the centres, as CDO
// makes them); every received value is checked against the same weights applied
// serially here.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

#include "coupling_fixture.hpp"
#include "ferry/coupler.hpp"
#include "ferry/grid_file.hpp"
#include "ferry/online_weights.hpp"
#include "regrid_test_files.hpp"
#include "test_support.hpp"

using ferry::Coupler;
using ferry::Datatype;
using ferry::Errc;
using ferry::FieldDirection;
using ferry::FieldId;
using ferry::Layout;
using namespace ferry_test;
using regrid_test::data_path;

namespace {

const auto* const kRequireData = testing::AddGlobalTestEnvironment(new regrid_test::RequireCdoData);

constexpr std::int64_t kAtmNx = 36, kAtmNy = 18, kAtmN = kAtmNx * kAtmNy;
constexpr std::int64_t kOcnNx = 64, kOcnNy = 32, kOcnN = kOcnNx * kOcnNy;
constexpr double kPeriod = 3600, kFill = -999, kConstant = 287.3;
constexpr double kDegrees = 180.0 / 3.14159265358979323846;

std::string header(const std::string& dir) {
  return "version: 1\nrun: {length: " + std::to_string(2 * kPeriod) + "}\noutput: {directory: " +
         dir + ", timers: false}\nwatchdog: {timeout: 30}\nexchanges:\n";
}

// One entry from atm field `src` to ocn field `dst`, with the regridding keys `regrid`.
std::string entry(const std::string& name, const std::string& src, const std::string& dst,
                  const std::string& regrid) {
  return "  - name: " + name + "\n    source: {component: atm, field: " + src +
         "}\n    target: {component: ocn, field: " + dst + "}\n    period: " +
         std::to_string(kPeriod) + "\n    engine: " + engine() + "\n" + regrid;
}

// The cells around the centres of a grid of nx columns, rows in order (south to north
// or north to south), as CDO makes them for regular and Gaussian grids: longitudes
// halfway between columns, latitudes halfway between rows and the poles beyond the
// outermost rows; 4 corners per cell, anticlockwise.
struct Corners {
  std::vector<double> lon, lat;
  Corners(std::int64_t nx, const std::vector<double>& centre_lon, const std::vector<double>& centre_lat) {
    const auto n = static_cast<std::int64_t>(centre_lat.size()), ny = n / nx;
    const auto row = [&](std::int64_t j) { return centre_lat[static_cast<std::size_t>(j * nx)]; };
    const double first_pole = row(0) > row(1) ? 90 : -90;
    const auto edge = [&](std::int64_t j) {  // between rows j - 1 and j
      return j == 0 ? first_pole : j == ny ? -first_pole : (row(j - 1) + row(j)) / 2;
    };
    const double half_column = 180.0 / static_cast<double>(nx);
    for (std::int64_t id = 0; id < n; ++id) {
      const double centre = centre_lon[static_cast<std::size_t>(id)];
      const double south = std::min(edge(id / nx), edge(id / nx + 1));
      const double north = std::max(edge(id / nx), edge(id / nx + 1));
      lon.insert(lon.end(), {centre - half_column, centre + half_column, centre + half_column,
                             centre - half_column});
      lat.insert(lat.end(), {south, south, north, north});
    }
  }
};

// The grids' centres (degrees) and the source mask, as CDO wrote them into its files.
struct GridData {
  std::vector<double> atm_lon, atm_lat, ocn_lon, ocn_lat, atm_field, atm_area, ocn_area;
  std::vector<std::int32_t> atm_mask, ocn_mask, atm_land;
  GridData() {
    const std::string file = data_path("w_con_masked.nc");
    for (auto [name, out] : {std::pair{"src_grid_center_lon", &atm_lon},
                             std::pair{"src_grid_center_lat", &atm_lat},
                             std::pair{"dst_grid_center_lon", &ocn_lon},
                             std::pair{"dst_grid_center_lat", &ocn_lat}}) {
      *out = regrid_test::read_all(file, name);
      for (double& v : *out) v *= kDegrees;
    }
    for (double m : regrid_test::read_all(file, "src_grid_imask"))
      atm_mask.push_back(static_cast<std::int32_t>(m));
    // Land: the ocean grid's points south of 60S and a band of longitudes.
    for (std::size_t i = 0; i < ocn_lat.size(); ++i)
      ocn_mask.push_back(ocn_lat[i] < -60 || (ocn_lon[i] > 100 && ocn_lon[i] < 140) ? 0 : 1);
    // A continent of atm cells whose edges cut ocean cells (35E..75E, 40S..50N).
    for (std::size_t i = 0; i < atm_lat.size(); ++i)
      atm_land.push_back(atm_lon[i] > 30 && atm_lon[i] < 80 && atm_lat[i] > -40 && atm_lat[i] < 50 ? 0 : 1);
    atm_field = regrid_test::read_all(data_path("src.nc"), "f");
    atm_area = regrid_test::read_all(data_path("w_con.nc"), "src_grid_area");
    ocn_area = regrid_test::read_all(data_path("w_con.nc"), "dst_grid_area");
  }
  Corners atm_corners() const { return {kAtmNx, atm_lon, atm_lat}; }
  Corners ocn_corners() const { return {kOcnNx, ocn_lon, ocn_lat}; }
  // The value atm puts at global id `gid` and time `t`.
  double source(std::int64_t gid, double t) const {
    return atm_field[static_cast<std::size_t>(gid)] + t / kPeriod;
  }
  // Gradient k atm gives with that value (any numbers do: none is computed from them).
  double gradient(int k, std::int64_t gid, double t) const {
    return 0.01 * (k + 1) * source(gid, t) - 0.5 * k;
  }
};

const GridData& grids() {
  static const GridData data;
  return data;
}

// This rank's values of `global`, `per_point` values per point of `layout`.
template <class T>
std::vector<T> at(const Layout& layout, const std::vector<T>& global, std::size_t per_point = 1) {
  std::vector<T> local;
  for (auto id : layout.ids())
    for (std::size_t k = 0; k < per_point; ++k)
      local.push_back(global[static_cast<std::size_t>(id) * per_point + k]);
  return local;
}

// What the declarations of one run say about the grids.
struct Options {
  bool atm_mask = false;
  bool atm_land = false;  // atm_land as the atm mask (instead of atm_mask)
  bool ocn_mask = true;
  bool coordinates = true;
  bool areas = false;  // the cell areas CDO computed, declared with set_areas
  bool corners = false;  // the cells of Corners, declared with set_corners
  bool skewed = false;   // with corners: atm cell 5 (at the south pole) shrinks to the pole
  bool ragged = false;   // with corners: odd atm ranks give 5 corners, the last repeated
  bool constant = false; // atm puts kConstant (times the field's number) everywhere
  bool atm_unstructured = false;  // the atm grid declared as kAtmN x 1 points
  int gradients = 0;     // atm's puts give this many gradients (gradient_value)
};
// The default declarations with one flag changed.
Options with(bool Options::*flag, bool value = true) {
  Options o;
  o.*flag = value;
  return o;
}

// Declares a component's grid and partition with the metadata asked for (global arrays).
ferry::PartitionId declare(Coupler& c, const char* component, const char* grid, std::int64_t nx,
                           std::int64_t ny, const Layout& layout, const std::vector<double>& lon,
                           const std::vector<double>& lat, bool coordinates,
                           const std::vector<std::int32_t>* mask, const std::vector<double>* area,
                           const Corners* corners = nullptr, int ncorner = 4) {
  const auto p = c.def_partition(c.def_grid(component, grid, nx, ny), "part", layout);
  if (coordinates) c.set_coordinates(p, at(layout, lon).data(), at(layout, lat).data());
  if (mask) c.set_mask(p, at(layout, *mask).data());
  if (area) c.set_areas(p, at(layout, *area).data());
  if (corners) {
    std::vector<double> lon = at(layout, corners->lon, 4), lat = at(layout, corners->lat, 4);
    for (auto* values : {&lon, &lat})  // repeat each cell's last corner up to ncorner
      for (std::size_t i = values->size() / 4; i-- > 0;)
        values->insert(values->begin() + static_cast<std::ptrdiff_t>(4 * i + 4),
                       static_cast<std::size_t>(ncorner - 4), (*values)[4 * i + 3]);
    c.set_corners(p, ncorner, lon.data(), lat.data());
  }
  return p;
}

// Gets `ids` at time `t`; at kPeriod, stores this rank's values into `global`.
void receive(Coupler& c, const std::vector<FieldId>& ids, const Layout& layout, double t,
             std::vector<std::vector<double>>& global) {
  for (std::size_t f = 0; f < ids.size(); ++f) {
    std::vector<double> v(static_cast<std::size_t>(layout.local_size()), 0.0);
    EXPECT_EQ(c.get(ids[f], t, v.data()), ferry::kStatusReceived);
    if (t == kPeriod)
      for (std::size_t i = 0; i < v.size(); ++i)
        global[f][static_cast<std::size_t>(layout.ids()[i])] = v[i];
  }
}

// The fields every rank stored its points into (each point held once), whole on every rank.
std::vector<std::vector<double>> summed_over_ranks(std::vector<std::vector<double>> global) {
  for (auto& field : global)
    MPI_Allreduce(MPI_IN_PLACE, field.data(), static_cast<int>(field.size()), MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
  return global;
}

// Runs atm -> ocn for two coupling times with the given entries, atm putting fields
// `sources` (the n-th is n times the source field) and ocn getting `targets`; returns
// the global target fields at time `kPeriod` on every rank (ocean points are held once).
std::vector<std::vector<double>> run(const std::string& config, const std::vector<std::string>& targets,
                                     const Options& options = {},
                                     const std::vector<std::string>& sources = {"sst"}) {
  const TwoComponents who;
  Coupler c(MPI_COMM_WORLD, who.names(), config);
  const GridData& g = grids();
  Layout atm_layout, ocn_layout;
  std::vector<FieldId> puts, received;
  Corners atm_corners = g.atm_corners();
  if (options.skewed)
    for (int c = 1; c < 4; ++c) atm_corners.lat[5 * 4 + c] = atm_corners.lat[5 * 4];
  const Corners ocn_corners = g.ocn_corners();
  if (who.atm) {
    atm_layout = Layout::block(kAtmN, who.atm_size, who.atm_rank);
    const std::int64_t atm_nx = options.atm_unstructured ? kAtmN : kAtmNx;
    const auto p = declare(c, "atm", "r36x18", atm_nx, kAtmN / atm_nx, atm_layout, g.atm_lon, g.atm_lat,
                           options.coordinates,
                           options.atm_mask ? &g.atm_mask : options.atm_land ? &g.atm_land : nullptr,
                           options.areas ? &g.atm_area : nullptr,
                           options.corners ? &atm_corners : nullptr,
                           options.ragged && who.atm_rank % 2 == 1 ? 5 : 4);
    for (const auto& name : sources)
      puts.push_back(c.def_field(p, name, FieldDirection::Out, Datatype::Float64));
  }
  if (who.ocn) {
    ocn_layout = Layout::round_robin(kOcnN, who.ocn_size, who.ocn_rank);
    const auto p = declare(c, "ocn", "n16", kOcnNx, kOcnNy, ocn_layout, g.ocn_lon, g.ocn_lat,
                           options.coordinates, options.ocn_mask ? &g.ocn_mask : nullptr,
                           options.areas ? &g.ocn_area : nullptr,
                           options.corners ? &ocn_corners : nullptr);
    for (const auto& name : targets)
      received.push_back(c.def_field(p, name, FieldDirection::In, Datatype::Float64));
  }
  c.enddef();
  std::vector<std::vector<double>> global(targets.size(), std::vector<double>(kOcnN, 0.0));
  for (double t : {0.0, kPeriod}) {
    if (who.atm)
      for (std::size_t f = 0; f < puts.size(); ++f) {
        std::vector<double> v;
        for (auto id : atm_layout.ids())
          v.push_back((f + 1.0) * (options.constant ? kConstant : g.source(id, t)));
        std::vector<std::vector<double>> gradients(static_cast<std::size_t>(options.gradients));
        ferry::PutExtras extras;
        for (int k = 0; k < options.gradients; ++k) {
          for (auto id : atm_layout.ids()) gradients[static_cast<std::size_t>(k)].push_back(g.gradient(k, id, t));
          extras.gradients.push_back(gradients[static_cast<std::size_t>(k)].data());
        }
        EXPECT_EQ(c.put(puts[f], t, v.data(), extras), ferry::kStatusSent);
      }
    if (who.ocn) receive(c, received, ocn_layout, t, global);
  }
  c.finalize();
  return summed_over_ranks(std::move(global));
}

// The field atm puts at kPeriod, times `factor`, at every source point.
std::vector<double> source_field(double factor) {
  std::vector<double> x;
  for (std::int64_t id = 0; id < kAtmN; ++id) x.push_back(factor * grids().source(id, kPeriod));
  return x;
}

// The serial reference: the links applied in file order, then masked points filled.
std::vector<double> expected(const regrid_test::SerialMatrix& m, double factor,
                             bool ocean_mask = true) {
  std::vector<double> y = regrid_test::serial_remap(m, source_field(factor), 1, kFill);
  if (ocean_mask)
    for (std::size_t i = 0; i < y.size(); ++i)
      if (grids().ocn_mask[i] == 0) y[i] = kFill;
  return y;
}

void expect_within_ulps(const std::vector<double>& got, const std::vector<double>& want,
                        std::int64_t ulps, const std::string& what) {
  ASSERT_EQ(got.size(), want.size());
  int bad = 0;
  for (std::size_t i = 0; i < got.size() && bad < 5; ++i)
    if (regrid_test::ulps(got[i], want[i]) > ulps) {
      ++bad;
      ADD_FAILURE() << what << ": point " << i << " got " << got[i] << ", expected " << want[i]
                    << " (" << regrid_test::ulps(got[i], want[i]) << " ulp apart)";
    }
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// Rows of online weights computed here on one rank, as a serial matrix.
regrid_test::SerialMatrix serial(const ferry::Weights& w) {
  regrid_test::SerialMatrix m;
  m.src_size = w.src_size();
  m.dst_size = w.dst_size();
  for (std::int64_t r = 0; r < w.row_count(); ++r)
    for (auto k = w.row_start()[static_cast<std::size_t>(r)]; k < w.row_start()[static_cast<std::size_t>(r) + 1]; ++k) {
      m.row.push_back(w.first_row() + r);
      m.col.push_back(w.cols()[static_cast<std::size_t>(k)]);
      m.weight.push_back(w.values()[static_cast<std::size_t>(k)]);
    }
  return m;
}

// Every point of a grid of n points, on one rank.
Layout everything(std::int64_t n) {
  std::vector<std::int64_t> ids(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) ids[static_cast<std::size_t>(i)] = i;
  return Layout::points(n, ids);
}

ferry::GridPoints whole(std::int64_t n, const std::vector<double>& lon, const std::vector<double>& lat,
                        std::vector<std::int32_t> mask) {
  return {everything(n), lon, lat, std::move(mask)};
}

ferry::GridCells whole(std::int64_t n, const Corners& corners, std::vector<std::int32_t> mask) {
  return {everything(n), 4, corners.lon, corners.lat, std::move(mask)};
}

// Conservative weights of the whole grids computed directly on one rank, as a serial matrix.
regrid_test::SerialMatrix direct_conservative(ferry::ConservativeNormalisation normalisation,
                                              int order = 1) {
  const GridData& g = grids();
  ferry::ConservativeOptions options;
  options.normalisation = normalisation;
  options.order = order;
  options.nx = kAtmNx;  // the coupler's second order: centred differences on the r36x18 grid
  return serial(ferry::conservative_weights(MPI_COMM_SELF, whole(kAtmN, g.atm_corners(), g.atm_land),
                                            whole(kOcnN, g.ocn_corners(), g.ocn_mask), options));
}

// The declarations of the conservative tests: masks on both sides (atm's cutting
// ocean cells), corners declared (5 on odd atm ranks, with 2 or more atm ranks).
Options cells_declared() {
  Options o = with(&Options::atm_land);
  o.corners = true;
  o.ragged = true;
  return o;
}

class CouplerRegridTest : public testing::Test {
 protected:
  std::string dir_ = scratch_directory();
  std::string config(const std::string& name, const std::string& entries) {
    return write_config(dir_, name + ".yaml", header(dir_) + entries);
  }
};

// A conservative CDO file with a masked source: in bfb mode both map_on give the very
// bits of the serial product (so the same bits on every rank count and engine); mode
// sum is within round-off; two fields travel through one plan.
TEST_F(CouplerRegridTest, WeightFileBothMapOnMatchTheSerialProduct) {
  const std::string file = data_path("w_con_masked.nc");
  const std::string keys = "    weights: " + file + "\n    fill: " + std::to_string(kFill) + "\n";
  const auto got = run(config("file", entry("on_src", "sst", "a_src", keys + "    map_on: src\n") +
                                          entry("on_dst", "sst", "a_dst", keys + "    map_on: dst\n") +
                                          entry("sum", "sst2", "a_sum", keys +
                                                "    map_on: src\n    mode: sum\n")),
                       {"a_src", "a_dst", "a_sum"}, with(&Options::atm_mask), {"sst", "sst2"});
  const auto m = regrid_test::read_scrip(file);
  expect_within_ulps(got[0], expected(m, 1), 0, "map_on src");
  expect_within_ulps(got[1], expected(m, 1), 0, "map_on dst");
  EXPECT_TRUE(same_bits(got[0], got[1])) << "map_on src and dst differ in bfb mode";
  expect_within_ulps(got[2], expected(m, 2), 64, "map_on src, mode sum");
  std::int64_t masked = 0;
  for (double v : got[0]) masked += v == kFill;
  EXPECT_GT(masked, 0) << "no ocean point kept the fill value";
}

// Inverse-distance weights from CDO (gendis): the bits of the serial product.
TEST_F(CouplerRegridTest, DistanceWeightFileMatchesTheSerialProduct) {
  const std::string file = data_path("w_dis.nc");
  const auto got = run(config("dis", entry("dis", "sst", "a", "    weights: " + file +
                                                               "\n    fill: -999\n    map_on: src\n")),
                       {"a"});
  expect_within_ulps(got[0], expected(regrid_test::read_scrip(file), 1), 0, "gendis file");
}

// Online weights from the declared coordinates and masks give the bits of the product
// of the same weights computed directly (one rank, whole grids).
TEST_F(CouplerRegridTest, OnlineMethodsMatchWeightsComputedDirectly) {
  const GridData& g = grids();
  const auto got = run(config("online", entry("nn", "sst", "a_nn",
                                              "    method: {name: nearest, neighbours: 4}\n"
                                              "    fill: -999\n    map_on: src\n") +
                                          entry("gauss", "sst", "a_gauss",
                                                "    method: {name: gaussian, neighbours: 5, "
                                                "variance: 0.5}\n    fill: -999\n") +
                                          entry("bil", "sst", "a_bil",
                                                "    method: {name: bilinear}\n    fill: -999\n")),
                       {"a_nn", "a_gauss", "a_bil"}, with(&Options::atm_mask));
  const auto src = whole(kAtmN, g.atm_lon, g.atm_lat, g.atm_mask);
  const auto dst = whole(kOcnN, g.ocn_lon, g.ocn_lat, g.ocn_mask);
  ferry::NearestNeighbourOptions nn;
  nn.neighbours = 4;
  expect_within_ulps(got[0], expected(serial(ferry::nearest_neighbour_weights(MPI_COMM_SELF, src, dst, nn)), 1),
                     0, "nearest");
  nn.neighbours = 5;
  nn.weighting = ferry::NeighbourWeighting::Gaussian;
  nn.gaussian_variance = 0.5;
  expect_within_ulps(got[1], expected(serial(ferry::nearest_neighbour_weights(MPI_COMM_SELF, src, dst, nn)), 1),
                     0, "gaussian");
  expect_within_ulps(got[2],
                     expected(serial(ferry::bilinear_weights(MPI_COMM_SELF, src, dst, {kAtmNx, true, ferry::Unmapped::Fill})), 1),
                     0, "bilinear");
}

// Bicubic weights (gradients computed) from the declared coordinates and masks, with the
// source grid's nx, give the bits of the same weights computed directly, either map_on,
// periodic or not and with either unmapped.
TEST_F(CouplerRegridTest, BicubicMatchesWeightsComputedDirectly) {
  const GridData& g = grids();
  const std::string bicubic = "    method: {name: bicubic}\n    fill: -999\n";
  const std::string regional =
      "    method: {name: bicubic, periodic: false, unmapped: nearest}\n    fill: -999\n";
  const auto got = run(config("bic", entry("b_src", "sst", "b_src", bicubic + "    map_on: src\n") +
                                         entry("b_dst", "sst", "b_dst", bicubic + "    map_on: dst\n") +
                                         entry("b_reg", "sst", "b_reg", regional + "    map_on: src\n")),
                       {"b_src", "b_dst", "b_reg"}, with(&Options::atm_mask));
  const auto src = whole(kAtmN, g.atm_lon, g.atm_lat, g.atm_mask);
  const auto dst = whole(kOcnN, g.ocn_lon, g.ocn_lat, g.ocn_mask);
  const auto global = expected(
      serial(ferry::bicubic_weights(MPI_COMM_SELF, src, dst, {kAtmNx, true, ferry::Unmapped::Fill})), 1);
  expect_within_ulps(got[0], global, 0, "bicubic, map_on src");
  expect_within_ulps(got[1], global, 0, "bicubic, map_on dst");
  expect_within_ulps(
      got[2],
      expected(serial(ferry::bicubic_weights(MPI_COMM_SELF, src, dst, {kAtmNx, false, ferry::Unmapped::Nearest})),
               1),
      0, "bicubic, not periodic, unmapped nearest");
  EXPECT_FALSE(same_bits(global, expected(serial(ferry::bilinear_weights(
                                                     MPI_COMM_SELF, src, dst, {kAtmNx, true, ferry::Unmapped::Fill})),
                                                 1)))
      << "bicubic gives the weights of bilinear";
}

// Conservative weights from the corners (set_corners) and masks the components
// declare give the bits of the product of the same weights computed directly (one
// rank, whole grids), for either normalisation and either map_on, also when ranks
// give different numbers of corners.
TEST_F(CouplerRegridTest, ConservativeMatchesWeightsComputedDirectly) {
  const std::string frac = "    method: {name: conservative}\n    fill: -999\n";
  const std::string dest = "    method: {name: conservative, normalisation: destarea}\n    fill: -999\n";
  const auto got = run(config("con", entry("f_src", "sst", "f_src", frac + "    map_on: src\n") +
                                         entry("f_dst", "sst", "f_dst", frac + "    map_on: dst\n") +
                                         entry("d_src", "sst", "d_src", dest + "    map_on: src\n") +
                                         entry("d_dst", "sst", "d_dst", dest + "    map_on: dst\n")),
                       {"f_src", "f_dst", "d_src", "d_dst"}, cells_declared());
  const auto fracarea = expected(direct_conservative(ferry::ConservativeNormalisation::FracArea), 1);
  const auto destarea = expected(direct_conservative(ferry::ConservativeNormalisation::DestArea), 1);
  expect_within_ulps(got[0], fracarea, 0, "fracarea, map_on src");
  expect_within_ulps(got[1], fracarea, 0, "fracarea, map_on dst");
  expect_within_ulps(got[2], destarea, 0, "destarea, map_on src");
  expect_within_ulps(got[3], destarea, 0, "destarea, map_on dst");
  EXPECT_FALSE(same_bits(fracarea, destarea)) << "the normalisations give the same weights";
}

// `order: 2` reaches the weights: second-order conservative weights (gradients
// computed) from the declared cells give the bits of the same weights computed
// directly, and differ from first order.
TEST_F(CouplerRegridTest, SecondOrderConservativeMatchesWeightsComputedDirectly) {
  const std::string second = "    method: {name: conservative, order: 2}\n    fill: -999\n";
  const auto got = run(config("con2", entry("s_src", "sst", "s_src", second + "    map_on: src\n") +
                                          entry("s_dst", "sst", "s_dst", second + "    map_on: dst\n")),
                       {"s_src", "s_dst"}, cells_declared());
  const auto second_order =
      expected(direct_conservative(ferry::ConservativeNormalisation::FracArea, 2), 1);
  expect_within_ulps(got[0], second_order, 0, "second order, map_on src");
  expect_within_ulps(got[1], second_order, 0, "second order, map_on dst");
  EXPECT_FALSE(same_bits(second_order,
                         expected(direct_conservative(ferry::ConservativeNormalisation::FracArea), 1)))
      << "order 2 gives the weights of order 1";
}

// The value and gradient weights applied serially: y = value x (rows without links
// take the fill), then plus each gradient's weights times the gradient atm gives, in
// order; the ocean's masked points take the fill.
std::vector<double> expected_with_gradients(const std::vector<regrid_test::SerialMatrix>& weights) {
  std::vector<double> y = regrid_test::serial_remap(weights[0], source_field(1), 1, kFill);
  for (std::size_t k = 1; k < weights.size(); ++k) {
    std::vector<double> g;
    for (std::int64_t id = 0; id < kAtmN; ++id) g.push_back(grids().gradient(static_cast<int>(k) - 1, id, kPeriod));
    const std::vector<double> term = regrid_test::serial_remap(weights[k], g, 1, 0);
    for (std::size_t i = 0; i < y.size(); ++i) y[i] += term[i];
  }
  for (std::size_t i = 0; i < y.size(); ++i)
    if (grids().ocn_mask[i] == 0) y[i] = kFill;
  return y;
}

std::vector<double> expected_with_gradients(const std::vector<ferry::Weights>& weights) {
  std::vector<regrid_test::SerialMatrix> matrices;
  for (const ferry::Weights& w : weights) matrices.push_back(serial(w));
  return expected_with_gradients(matrices);
}

// Gradients the put gives (OASIS's fld2..): bicubic and second-order conservative
// remap the value and gradient weights times them, the bits of that product computed
// serially here; an exchange that takes none, or another count, refuses them.
TEST_F(CouplerRegridTest, GivenGradientsMatchTheDirectProduct) {
  const GridData& g = grids();
  Options bicubic_options = with(&Options::atm_mask);
  bicubic_options.gradients = 3;
  const auto bicubic = run(config("bicg", entry("bic", "sst", "bic", "    method: {name: bicubic}\n    fill: -999\n    map_on: src\n")),
                           {"bic"}, bicubic_options);
  ferry::BicubicGradientWeights b = ferry::bicubic_gradient_weights(
      MPI_COMM_SELF, whole(kAtmN, g.atm_lon, g.atm_lat, g.atm_mask), whole(kOcnN, g.ocn_lon, g.ocn_lat, g.ocn_mask),
      {kAtmNx, true, ferry::Unmapped::Fill});
  std::vector<ferry::Weights> bicubic_weights;
  for (auto* w : {&b.value, &b.i_gradient, &b.j_gradient, &b.ij_gradient}) bicubic_weights.push_back(std::move(*w));
  const auto bicubic_direct = expected_with_gradients(bicubic_weights);
  expect_within_ulps(bicubic[0], bicubic_direct, 0, "bicubic with given gradients");

  Options second_options = cells_declared();
  second_options.gradients = 2;
  const auto second = run(config("con2g", entry("s", "sst", "s",
                                                "    method: {name: conservative, order: 2}\n    fill: -999\n    map_on: src\n")),
                          {"s"}, second_options);
  ferry::ConservativeOptions options;
  options.order = 2;
  ferry::ConservativeGradientWeights s = ferry::conservative_gradient_weights(
      MPI_COMM_SELF, whole(kAtmN, g.atm_corners(), g.atm_land), whole(kOcnN, g.ocn_corners(), g.ocn_mask), options);
  std::vector<ferry::Weights> second_weights;
  for (auto* w : {&s.value, &s.lat_gradient, &s.lon_gradient}) second_weights.push_back(std::move(*w));
  expect_within_ulps(second[0], expected_with_gradients(second_weights), 0,
                     "second-order conservative with given gradients");
  // The gradients given are not the field's: the result is not the computed one's.
  EXPECT_FALSE(same_bits(second[0], expected(direct_conservative(ferry::ConservativeNormalisation::FracArea, 2), 1)));

  // The put raises on atm's ranks (Errc::Arg); a rank that learns first that another
  // failed stops with Errc::State and that rank's message.
  Options two = with(&Options::atm_mask);
  two.gradients = 2;
  const auto expect_refused = [&](const std::string& name, const std::string& method,
                                  const std::string& pattern) {
    try {
      run(config(name, entry(name, "sst", "b", "    method: {name: " + method + "}\n")), {"b"}, two);
      ADD_FAILURE() << name << ": the put with 2 gradients succeeded";
    } catch (const ferry::Error& e) {
      EXPECT_TRUE(e.code() == Errc::Arg || e.code() == Errc::State) << e.what();
      EXPECT_TRUE(std::regex_search(std::string(e.what()), std::regex(pattern))) << e.what();
    }
  };
  expect_refused("bic2", "bicubic",
                 "put\\(\"sst\"\\): 2 gradients given; exchange \"bic2\" \\(method bicubic\\) takes 3");
  expect_refused("bil", "bilinear",
                 "put\\(\"sst\"\\): 2 gradients given, but no exchange of the field is remapped by "
                 "a method that takes them");
}

// Weight files of several weights per link (CDO's genbic: 4, gencon2: 3) given with
// MAPPING, as OASIS applies them: the later columns multiply the gradients the put
// gives (fld2..), each column's product summed in file order, so the received field
// has the bits of the columns applied serially here; a put of the field alone, or
// with another number of gradients, is refused, as OASIS3-MCT 4.0 refuses fields
// that do not match the file's weights.
TEST_F(CouplerRegridTest, WeightFileColumnsMultiplyTheGivenGradients) {
  for (const auto& [file, count] : {std::pair{std::string("w_bic.nc"), 3}, std::pair{std::string("w_con2.nc"), 2}}) {
    const std::string path = data_path(file);
    const std::string keys = "    weights: " + path + "\n    fill: -999\n    map_on: src\n";
    Options options;
    options.gradients = count;
    const auto got = run(config("columns", entry("m", "sst", "m", keys)), {"m"}, options);
    std::vector<regrid_test::SerialMatrix> columns;
    for (int k = 0; k <= count; ++k) columns.push_back(regrid_test::read_scrip(path, static_cast<std::size_t>(k)));
    expect_within_ulps(got[0], expected_with_gradients(columns), 0, file + " with given gradients");
    for (const int given : {0, count - 1}) {
      Options fewer;
      fewer.gradients = given;
      try {
        run(config("fewer", entry("m", "sst", "m", keys)), {"m"}, fewer);
        ADD_FAILURE() << file << ": the put with " << given << " gradients succeeded";
      } catch (const ferry::Error& e) {
        EXPECT_TRUE(std::regex_search(std::string(e.what()),
                                      std::regex(std::to_string(given) + " gradients given; exchange \"m\" "
                                                 "\\(weight file .*" + file + "\", " + std::to_string(count + 1) +
                                                 " weights per link\\) takes " + std::to_string(count) +
                                                 ": one per weight column after the first")))
            << e.what();
      }
    }
  }
}

// With fracarea (and no conservation) a constant stays that constant to 1e-14 at every
// target point with links, also next to masked source cells; the others get the fill.
TEST_F(CouplerRegridTest, ConservativeKeepsAConstant) {
  const std::string keys = "    method: {name: conservative, normalisation: fracarea}\n"
                           "    fill: -999\n    conservation: none\n";
  Options options = cells_declared();
  options.constant = true;
  const auto got = run(config("constant", entry("c_src", "sst", "c_src", keys + "    map_on: src\n") +
                                              entry("c_dst", "sst", "c_dst", keys + "    map_on: dst\n")),
                       {"c_src", "c_dst"}, options);
  const auto linked = expected(direct_conservative(ferry::ConservativeNormalisation::FracArea), 1);
  // The part of each target cell over valid source cells: destarea's row sums.
  const auto destarea = direct_conservative(ferry::ConservativeNormalisation::DestArea);
  std::vector<double> covered(kOcnN, 0.0);
  for (std::size_t k = 0; k < destarea.row.size(); ++k)
    covered[static_cast<std::size_t>(destarea.row[k])] += destarea.weight[k];
  std::int64_t partly_covered = 0;
  for (std::size_t i = 0; i < linked.size(); ++i) {
    partly_covered += linked[i] != kFill && covered[i] < 0.99;
    for (std::size_t f = 0; f < got.size(); ++f) {
      if (linked[i] == kFill)
        EXPECT_EQ(got[f][i], kFill) << "field " << f << ", point " << i;
      else
        EXPECT_LE(std::abs(got[f][i] - kConstant), 1e-14 * kConstant)
            << "field " << f << ", point " << i << ": got " << got[f][i];
    }
  }
  EXPECT_GT(partly_covered, 0) << "no target cell lies partly over masked source cells";
}

// Global conservation of bilinear weights (which do not conserve by themselves), with
// the cell areas and masks the components declare: the area integral over the active
// ocean points equals atm's to 1e-13, and with reprosum both map_on give the same bits.
TEST_F(CouplerRegridTest, GlobalConservationKeepsTheAreaIntegral) {
  const std::string file = data_path("w_bil.nc");
  const std::string keys = "    weights: " + file + "\n    conservation: global\n";
  const auto got = run(config("conserve", entry("c_src", "sst", "c_src", keys + "    map_on: src\n") +
                                              entry("c_dst", "sst", "c_dst", keys + "    map_on: dst\n") +
                                              entry("c_gather", "sst", "c_gather",
                                                    keys + "    map_on: src\n    sum: gather\n")),
                       {"c_src", "c_dst", "c_gather"}, with(&Options::areas));
  const GridData& g = grids();
  const auto x = source_field(1);
  double source = 0;
  for (std::size_t i = 0; i < x.size(); ++i) source += g.atm_area[i] * x[i];
  const auto integral = [&](const std::vector<double>& y) {
    double sum = 0;
    for (std::size_t i = 0; i < y.size(); ++i) sum += g.ocn_mask[i] ? g.ocn_area[i] * y[i] : 0;
    return sum;
  };
  for (const auto& y : got) EXPECT_NEAR(integral(y), source, 1e-13 * std::abs(source));
  EXPECT_TRUE(same_bits(got[0], got[1])) << "map_on src and dst differ with reprosum";
  // Without the correction the integral differs by far more (the test has teeth).
  EXPECT_GT(std::abs(integral(expected(regrid_test::read_scrip(file), 1)) - source),
            1e-6 * std::abs(source));
}

// Mistakes in the regridding of an entry fail enddef (or the configuration) on every
// rank with a message naming the entry and what to change.
TEST_F(CouplerRegridTest, BadRegriddingFailsAlikeEverywhere) {
  const std::string back = data_path("w_con_back.nc");
  expect_same_error_everywhere(
      [&] { run(config("swapped", entry("swapped", "sst", "a", "    weights: " + back + "\n")), {"a"}); },
      Errc::ArgSize,
      "exchange \"swapped\": weight file \".*w_con_back.nc\" maps 2048 source points to 648 target "
      "points, but the source grid has 648 points and the target grid 2048");
  expect_same_error_everywhere(
      [&] { run(config("plain", entry("plain", "sst", "a", "")), {"a"}); }, Errc::Arg,
      "exchange \"plain\": source grid \"r36x18\" has 648 points and target grid \"n16\" has 2048; "
      "exchanges between different grids need regridding");
  expect_same_error_everywhere(
      [&] { run(config("missing", entry("missing", "sst", "a", "    weights: no_such_file.nc\n")), {"a"}); },
      Errc::Io, "exchange \"missing\": reading the weights: .*no_such_file.nc");
  expect_same_error_everywhere(
      [&] {
        run(config("nocoords", entry("nocoords", "sst", "a", "    method: {name: nearest}\n")), {"a"},
            with(&Options::coordinates, false));
      },
      Errc::Arg, "exchange \"nocoords\": method nearest needs the coordinates of the (source|target) "
                 "partition .* Call set_coordinates before enddef");
  expect_same_error_everywhere(
      [&] {
        run(config("noareas", entry("noareas", "sst", "a",
                                    "    method: {name: nearest}\n    conservation: global\n")),
            {"a"});
      },
      Errc::Arg, "exchange \"noareas\": conservation needs the cell areas of the source grid, .* "
                 "Declare them with set_areas on every rank of the source component");
  for (const char* method : {"bilinear", "bicubic"}) {
    const std::string keys = std::string("    method: {name: ") + method + "}\n";
    expect_same_error_everywhere(
        [&] {
          run(config("flat", entry("flat", "sst", "a", keys)), {"a"}, with(&Options::atm_unstructured));
        },
        Errc::Arg,
        std::string("exchange \"flat\": the ") + method +
            " method needs a logically rectangular source grid .* the source grid has 648 points "
            "and its first dimension is 648. Declare the source grid with its two dimensions");
  }
  for (const char* map_on : {"src", "dst"}) {
    const std::string keys = std::string("    method: {name: conservative}\n    map_on: ") + map_on + "\n";
    expect_same_error_everywhere(
        [&] { run(config("nocorners", entry("nocorners", "sst", "a", keys)), {"a"}); }, Errc::Arg,
        "exchange \"nocorners\": method conservative needs the cell corners of the (source|target) "
        "partition \"part\", which rank [0-9]+ did not declare. Call set_corners before enddef");
    Options skewed = cells_declared();
    skewed.skewed = true;
    expect_same_error_everywhere(
        [&] { run(config("skewed", entry("skewed", "sst", "a", keys)), {"a"}, skewed); }, Errc::Arg,
        "exchange \"skewed\": computing conservative weights: conservative_weights: source cell 5 "
        "\\(rank [0-9]+\\) with corners .* is not a valid cell: it has 1 distinct corner, fewer than 3");
  }
}

// Regridding sums weighted values: integer fields are refused at enddef.
TEST_F(CouplerRegridTest, IntegerFieldsAreNotRegridded) {
  const std::string path =
      config("int", entry("int", "n", "n_in", "    weights: " + data_path("w_con.nc") + "\n"));
  expect_same_error_everywhere(
      [&] {
        const TwoComponents who;
        const GridData& g = grids();
        Coupler c(MPI_COMM_WORLD, who.names(), path);
        if (who.atm)
          c.def_field(declare(c, "atm", "r36x18", kAtmNx, kAtmNy,
                              Layout::block(kAtmN, who.atm_size, who.atm_rank), g.atm_lon,
                              g.atm_lat, false, nullptr, nullptr),
                      "n", FieldDirection::Out, Datatype::Int32);
        if (who.ocn)
          c.def_field(declare(c, "ocn", "n16", kOcnNx, kOcnNy,
                              Layout::round_robin(kOcnN, who.ocn_size, who.ocn_rank), g.ocn_lon,
                              g.ocn_lat, false, nullptr, nullptr),
                      "n_in", FieldDirection::In, Datatype::Int32);
        c.enddef();
      },
      Errc::Arg,
      "exchange \"int\": field \"n\" is int32; regridding sums weighted values, so regridded "
      "fields are float64 or float32");
}

// Configuration mistakes: each names file, line and column and how to fix it.
TEST_F(CouplerRegridTest, BadRegriddingKeysAreConfigurationErrors) {
  const auto fails = [&](const std::string& name, const std::string& keys, const std::string& pattern) {
    const std::string path = config(name, entry(name, "sst", "a", keys));
    expect_same_error_everywhere([&] { Coupler(MPI_COMM_WORLD, TwoComponents().names(), path); },
                                 Errc::Arg, pattern);
  };
  fails("both", "    weights: w.nc\n    method: {name: nearest}\n",
        "both.yaml:[0-9]+:[0-9]+: give either \"weights\" or \"method\" in exchange .*, not both");
  fails("alone", "    map_on: src\n",
        "alone.yaml:[0-9]+:[0-9]+: \"map_on\" in exchange .* regrids, but the exchange has no "
        "\"weights\" or \"method\"");
  fails("mapon", "    weights: w.nc\n    map_on: source\n",
        "mapon.yaml:[0-9]+:[0-9]+: map_on must be one of dst, src; got \"source\"");
  fails("method", "    method: {name: bilinar}\n", "method.yaml:[0-9]+:[0-9]+: .*did you mean \"bilinear\"");
  fails("conserve", "    weights: w.nc\n    conservation: globl\n", "did you mean \"global\"");
  fails("sum", "    weights: w.nc\n    sum: repro\n",
        "sum must be one of reprosum, gather, lsum8, lsum16, ddpdd; got \"repro\"");
  fails("neighbours", "    method: {name: nearest, neighbours: 0}\n", "neighbours.*> 0");
  fails("normalisation", "    method: {name: conservative, normalisation: fracare}\n",
        "normalisation.yaml:[0-9]+:[0-9]+: .*did you mean \"fracarea\"");
}

// Grids named in the configuration (`grids:`): atm on LMDZ (96 x 72), ocn on ORCA2
// (torc, 182 x 149, with its land mask), both read from the OASIS example grids.nc,
// masks.nc and areas.nc; the components declare only the grids' sizes.
class CouplerGridFileTest : public CouplerRegridTest {
 protected:
  static constexpr std::int64_t kLmdzNx = 96, kLmdzNy = 72, kTorcNx = 182, kTorcNy = 149;
  std::string grids_ = FERRY_TEST_GRIDS_DIR;

  void SetUp() override {
    // The grid files are read the same way by every engine: one engine runs them.
    if (engine() != "p2p") GTEST_SKIP() << "grid files are tested with engine p2p";
    if (size_of(MPI_COMM_WORLD) < 2 || size_of(MPI_COMM_WORLD) > 3)
      GTEST_SKIP() << "grid files are tested on 2 and 3 ranks";
    if (!std::ifstream(grids_ + "/grids.nc").good())
      GTEST_SKIP() << "the OASIS example grids are not in " << grids_;
  }

  ferry::GridSource source(const std::string& name) const {
    return {grids_ + "/grids.nc", ferry::GridFormat::Oasis, name, grids_ + "/masks.nc", ""};
  }
  std::string grid_entries() const {
    std::string out = "grids:\n";
    for (const char* name : {"lmdz", "torc"})
      out += std::string("  - {name: ") + name + ", file: " + grids_ + "/grids.nc, mask: " + grids_ +
             "/masks.nc}\n";
    return out;
  }

  static double lmdz_value(std::int64_t gid, double t) {
    return 280 + 10 * std::cos(0.003 * static_cast<double>(gid)) + t / kPeriod;
  }

  // atm (grid `atm_grid`, atm_nx x atm_ny) puts field "a<k>" for each entry, ocn
  // (torc) gets "o<k>"; returns the global torc fields at kPeriod on every rank.
  std::vector<std::vector<double>> run_files(const std::string& path, std::size_t fields,
                                             const std::string& atm_grid = "lmdz",
                                             std::int64_t atm_nx = kLmdzNx,
                                             std::int64_t atm_ny = kLmdzNy) {
    const TwoComponents who;
    Coupler c(MPI_COMM_WORLD, who.names(), path);
    Layout atm_layout, ocn_layout;
    std::vector<FieldId> puts, gets;
    if (who.atm) {
      atm_layout = Layout::block(atm_nx * atm_ny, who.atm_size, who.atm_rank);
      const auto p = c.def_partition(c.def_grid("atm", atm_grid, atm_nx, atm_ny), "part", atm_layout);
      for (std::size_t f = 0; f < fields; ++f)
        puts.push_back(c.def_field(p, "a" + std::to_string(f), FieldDirection::Out, Datatype::Float64));
    }
    if (who.ocn) {
      ocn_layout = Layout::round_robin(kTorcNx * kTorcNy, who.ocn_size, who.ocn_rank);
      const auto p = c.def_partition(c.def_grid("ocn", "torc", kTorcNx, kTorcNy), "part", ocn_layout);
      for (std::size_t f = 0; f < fields; ++f)
        gets.push_back(c.def_field(p, "o" + std::to_string(f), FieldDirection::In, Datatype::Float64));
    }
    c.enddef();
    std::vector<std::vector<double>> global(fields, std::vector<double>(kTorcNx * kTorcNy, 0.0));
    for (double t : {0.0, kPeriod}) {
      if (who.atm)
        for (FieldId id : puts) {
          std::vector<double> v;
          for (auto gid : atm_layout.ids()) v.push_back(lmdz_value(gid, t));
          EXPECT_EQ(c.put(id, t, v.data()), ferry::kStatusSent);
        }
      if (who.ocn) receive(c, gets, ocn_layout, t, global);
    }
    c.finalize();
    return summed_over_ranks(std::move(global));
  }

  // The weights computed here on one rank from the same files, applied to the field
  // atm puts at kPeriod.
  std::vector<double> direct(const std::function<ferry::Weights(const ferry::Grid&, const ferry::Grid&)>& method) const {
    const ferry::Grid lmdz = ferry::read_grid(MPI_COMM_SELF, source("lmdz"));
    const ferry::Grid torc = ferry::read_grid(MPI_COMM_SELF, source("torc"));
    std::vector<double> x;
    for (std::int64_t gid = 0; gid < kLmdzNx * kLmdzNy; ++gid) x.push_back(lmdz_value(gid, kPeriod));
    return regrid_test::serial_remap(serial(method(lmdz, torc)), x, 1, kFill);
  }
};

// An online method run from a YAML configuration on ORCA2 and LMDZ read from the
// files it names receives, bit for bit, what the weights computed directly from the
// same files give (weights are the same bits on any number of ranks and layouts).
TEST_F(CouplerGridFileTest, GridFilesGiveTheWeightsComputedFromTheFiles) {
  const std::string keys[] = {
      "    method: {name: conservative}\n",
      "    method: {name: conservative, order: 2, normalisation: destarea}\n    map_on: src\n",
      "    method: {name: bilinear, unmapped: nearest}\n",
      "    method: {name: nearest, neighbours: 3}\n    map_on: src\n"};
  std::string entries;
  for (std::size_t k = 0; k < std::size(keys); ++k)
    entries += "  - name: e" + std::to_string(k) + "\n    source: {component: atm, field: a" +
               std::to_string(k) + "}\n    target: {component: ocn, field: o" + std::to_string(k) +
               "}\n    period: " + std::to_string(kPeriod) + "\n    engine: p2p\n    fill: " +
               std::to_string(kFill) + "\n" + keys[k];
  const auto got = run_files(write_config(dir_, "files.yaml", header(dir_) + entries + grid_entries()),
                             std::size(keys));
  // Every rank holds the whole result: rank 0 alone computes the reference and compares.
  if (rank_of(MPI_COMM_WORLD) != 0) return;
  ferry::ConservativeOptions second;
  second.order = 2;
  second.normalisation = ferry::ConservativeNormalisation::DestArea;
  second.nx = kLmdzNx;  // the source grid has two dimensions: centred differences
  ferry::NearestNeighbourOptions nearest;
  nearest.neighbours = 3;
  const std::vector<double> want[] = {
      direct([](const ferry::Grid& s, const ferry::Grid& d) {
        return ferry::conservative_weights(MPI_COMM_SELF, s.cells, d.cells, {});
      }),
      direct([&](const ferry::Grid& s, const ferry::Grid& d) {
        return ferry::conservative_weights(MPI_COMM_SELF, s.cells, d.cells, second);
      }),
      direct([](const ferry::Grid& s, const ferry::Grid& d) {
        return ferry::bilinear_weights(MPI_COMM_SELF, s.points, d.points,
                                       {kLmdzNx, true, ferry::Unmapped::Nearest});
      }),
      direct([&](const ferry::Grid& s, const ferry::Grid& d) {
        return ferry::nearest_neighbour_weights(MPI_COMM_SELF, s.points, d.points, nearest);
      })};
  for (std::size_t k = 0; k < std::size(keys); ++k) {
    EXPECT_TRUE(same_bits(got[k], want[k])) << "entry e" << k << ": " << keys[k];
    expect_within_ulps(got[k], want[k], 0, "entry e" + std::to_string(k));
  }
}

// A grid file that is missing, of another grid's size or of other rows fails enddef
// with the same error on every rank, naming the entry, the configuration key, the
// file and the sizes.
TEST_F(CouplerGridFileTest, BadGridFilesFailAlikeEverywhere) {
  const auto path = [&](const std::string& name, const std::string& method, const std::string& grids) {
    return write_config(dir_, name + ".yaml",
                        header(dir_) + "  - name: " + name +
                            "\n    source: {component: atm, field: a0}\n    target: {component: "
                            "ocn, field: o0}\n    period: " + std::to_string(kPeriod) +
                            "\n    method: {name: " + method + "}\n" + grids);
  };
  expect_same_error_everywhere(
      [&] { run_files(path("missing", "conservative", "grids:\n  - {name: torc, file: no_such_grid.nc}\n"), 1); },
      Errc::Io, "exchange \"missing\": reading the target grid: read_grid: .*no_such_grid.nc");
  const std::string lmd2 = "grids:\n  - {name: lmd2, file: " + grids_ + "/grids.nc}\n";
  expect_same_error_everywhere(
      [&] { run_files(path("size", "nearest", lmd2), 1, "lmd2"); }, Errc::ArgSize,
      "exchange \"size\": .*size.yaml:[0-9]+:[0-9]+: grid \"lmd2\" file \".*grids.nc\" has 1936 "
      "cells, but the source grid is declared with 6912 points");
  expect_same_error_everywhere(
      [&] { run_files(path("rows", "bilinear", grid_entries()), 1, "lmdz", kLmdzNy, kLmdzNx); },
      Errc::ArgSize,
      "exchange \"rows\": .*rows.yaml:[0-9]+:[0-9]+: grid \"lmdz\" file \".*grids.nc\" has rows of 96 "
      "cells, but the source grid is declared with nx = 72");
}

}  // namespace
