// The C API's nearest-neighbour options, bicubic, second-order conservative (least
// squares and centred differences), gradient-weight, unmapped-fill and grid-file calls
// give the very bits of the C++ functions they wrap: the C side gets its grids in
// round-robin layouts, the C++ side in blocks, and both hold the same rows of the same
// links on every rank count. Bad options fail every rank alike.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cdo_grid_files.hpp"
#include "polygon_grids.hpp"
#include "ferry/grid_file.hpp"
#include "ferry/online_weights.hpp"
#include "ferry/regrid.h"
#include "test_support.hpp"

namespace {

using ferry::Layout;
using ferry_test::rank_of;
using ferry_test::size_of;
using regrid_test::PolygonGrid;

// A C layout handle, destroyed at the end of the scope.
struct CLayout {
  ferry_layout* handle = nullptr;
  explicit CLayout(ferry_layout* h) : handle(h) {}
  ~CLayout() { ferry_layout_destroy(&handle); }
  CLayout(const CLayout&) = delete;
  CLayout& operator=(const CLayout&) = delete;
};

CLayout round_robin(std::int64_t size) {
  ferry_layout* l = nullptr;
  EXPECT_EQ(ferry_layout_create_round_robin(size, size_of(MPI_COMM_WORLD),
                                            rank_of(MPI_COMM_WORLD), &l),
            FERRY_SUCCESS);
  return CLayout(l);
}

std::vector<std::int64_t> ids_of(const ferry_layout* layout) {
  std::int64_t n = 0;
  EXPECT_EQ(ferry_layout_local_size(layout, &n), FERRY_SUCCESS);
  std::vector<std::int64_t> ids(static_cast<std::size_t>(n));
  EXPECT_EQ(ferry_layout_get_ids(layout, ids.data()), FERRY_SUCCESS);
  return ids;
}

// The C handle holds this rank's rows of `expected` bit for bit; destroys the handle.
void expect_same_rows(ferry_weights*& c, const ferry::Weights& expected, const char* what) {
  SCOPED_TRACE(what);
  ASSERT_NE(c, nullptr);
  std::int64_t first = -1, rows = -1, links = -1;
  ASSERT_EQ(ferry_weights_get_local_rows(c, &first, &rows, &links), FERRY_SUCCESS);
  EXPECT_EQ(first, expected.first_row());
  ASSERT_EQ(rows, expected.row_count());
  std::vector<std::int64_t> row_start(static_cast<std::size_t>(rows) + 1), cols(
      static_cast<std::size_t>(links));
  std::vector<double> values(static_cast<std::size_t>(links));
  ASSERT_EQ(ferry_weights_get_links(c, row_start.data(), cols.data(), values.data()),
            FERRY_SUCCESS);
  EXPECT_EQ(row_start, expected.row_start());
  EXPECT_EQ(cols, expected.cols());
  EXPECT_EQ(values, expected.values());  // bit for bit
  EXPECT_EQ(ferry_weights_destroy(&c), FERRY_SUCCESS);
}

// Points of a grid in the order of a C layout: longitudes, latitudes, mask.
struct CPoints {
  std::vector<double> lon, lat;
  std::vector<int> mask;
};

CPoints c_points(const ferry::GridPoints& whole, const ferry_layout* layout) {
  CPoints p;
  for (std::int64_t id : ids_of(layout)) {
    const auto i = static_cast<std::size_t>(id);
    p.lon.push_back(whole.lon[i]);
    p.lat.push_back(whole.lat[i]);
    p.mask.push_back(whole.mask.empty() ? 1 : whole.mask[i]);
  }
  return p;
}

// This rank's block of a whole grid of points, for the C++ side.
ferry::GridPoints block_points(const ferry::GridPoints& whole) {
  const std::int64_t n = static_cast<std::int64_t>(whole.lon.size());
  ferry::GridPoints p;
  p.layout = Layout::block(n, size_of(MPI_COMM_WORLD), rank_of(MPI_COMM_WORLD));
  for (std::int64_t id : p.layout.ids()) {
    const auto i = static_cast<std::size_t>(id);
    p.lon.push_back(whole.lon[i]);
    p.lat.push_back(whole.lat[i]);
    if (!whole.mask.empty()) p.mask.push_back(whole.mask[i]);
  }
  return p;
}

// A regular nx x ny source of points with every seventh masked, and a destination of
// scattered points reaching beyond its outermost rows (which bilinear and bicubic do
// not cover: the unmapped fill decides).
constexpr std::int64_t kNx = 24;

ferry::GridPoints rectangular_source() {
  ferry::GridPoints g;
  for (int j = 0; j < 12; ++j)
    for (int i = 0; i < kNx; ++i) {
      g.lon.push_back(i * 15.0);
      g.lat.push_back(-82.5 + j * 15.0);
      g.mask.push_back((j * kNx + i) % 7 == 3 ? 0 : 1);
    }
  return g;
}

ferry::GridPoints scattered_destination() {
  ferry::GridPoints g;
  for (int k = 0; k < 150; ++k) {
    g.lon.push_back(k * 37.3 - 180);
    g.lat.push_back(-89.0 + k * 178.0 / 149);
  }
  return g;
}

TEST(RegridMethodsCapi, BilinearAndBicubicAreTheCppBits) {
  const ferry::GridPoints src = rectangular_source(), dst = scattered_destination();
  const CLayout cs = round_robin(static_cast<std::int64_t>(src.lon.size()));
  const CLayout cd = round_robin(static_cast<std::int64_t>(dst.lon.size()));
  const CPoints s = c_points(src, cs.handle), d = c_points(dst, cd.handle);
  const ferry::GridPoints bs = block_points(src), bd = block_points(dst);
  for (const int unmapped :
       {FERRY_UNMAPPED_FILL, FERRY_UNMAPPED_NEAREST, FERRY_UNMAPPED_FOUR_NEAREST}) {
    const ferry::BilinearOptions options{kNx, true, static_cast<ferry::Unmapped>(unmapped)};
    ferry_weights* w = nullptr;
    ASSERT_EQ(ferry_weights_bilinear_with_options(
                  MPI_COMM_WORLD, cs.handle, s.lon.data(), s.lat.data(), s.mask.data(), cd.handle,
                  d.lon.data(), d.lat.data(), nullptr, kNx, 1, unmapped, &w),
              FERRY_SUCCESS)
        << ferry_last_error_message();
    expect_same_rows(w, ferry::bilinear_weights(MPI_COMM_WORLD, bs, bd, options), "bilinear");
    ASSERT_EQ(ferry_weights_bicubic(MPI_COMM_WORLD, cs.handle, s.lon.data(), s.lat.data(),
                                    s.mask.data(), cd.handle, d.lon.data(), d.lat.data(), nullptr,
                                    kNx, 1, unmapped, &w),
              FERRY_SUCCESS)
        << ferry_last_error_message();
    expect_same_rows(w, ferry::bicubic_weights(MPI_COMM_WORLD, bs, bd, options), "bicubic");
    std::array<ferry_weights*, 4> g{};
    ASSERT_EQ(ferry_weights_bicubic_gradients(MPI_COMM_WORLD, cs.handle, s.lon.data(),
                                              s.lat.data(), s.mask.data(), cd.handle, d.lon.data(),
                                              d.lat.data(), nullptr, kNx, 1, unmapped, &g[0],
                                              &g[1], &g[2], &g[3]),
              FERRY_SUCCESS)
        << ferry_last_error_message();
    const ferry::BicubicGradientWeights e =
        ferry::bicubic_gradient_weights(MPI_COMM_WORLD, bs, bd, options);
    expect_same_rows(g[0], e.value, "bicubic value");
    expect_same_rows(g[1], e.i_gradient, "bicubic i_gradient");
    expect_same_rows(g[2], e.j_gradient, "bicubic j_gradient");
    expect_same_rows(g[3], e.ij_gradient, "bicubic ij_gradient");
  }
}

// Every masked-neighbour rule and Gaussian spacing through the C call with options,
// and the plain call as its SKIP and SOURCE.
TEST(RegridMethodsCapi, NearestNeighbourOptionsAreTheCppBits) {
  const ferry::GridPoints src = rectangular_source(), dst = scattered_destination();
  const CLayout cs = round_robin(static_cast<std::int64_t>(src.lon.size()));
  const CLayout cd = round_robin(static_cast<std::int64_t>(dst.lon.size()));
  const CPoints s = c_points(src, cs.handle), d = c_points(dst, cd.handle);
  const ferry::GridPoints bs = block_points(src), bd = block_points(dst);
  for (const int masked : {FERRY_MASKED_NEIGHBOURS_SKIP, FERRY_MASKED_NEIGHBOURS_DROP,
                           FERRY_MASKED_NEIGHBOURS_DROP_NO_FILL})
    for (const int weighting : {FERRY_WEIGHTING_INVERSE_DISTANCE, FERRY_WEIGHTING_GAUSSIAN}) {
      ferry::NearestNeighbourOptions options;
      options.neighbours = 5;
      options.weighting = static_cast<ferry::NeighbourWeighting>(weighting);
      options.gaussian_variance = 0.4;
      options.gaussian_scale = ferry::GaussianScale::NeighbourSpacing;
      options.masked = static_cast<ferry::MaskedNeighbours>(masked);
      ferry_weights* w = nullptr;
      ASSERT_EQ(ferry_weights_nearest_neighbour_with_options(
                    MPI_COMM_WORLD, cs.handle, s.lon.data(), s.lat.data(), s.mask.data(),
                    cd.handle, d.lon.data(), d.lat.data(), nullptr, 5, weighting, 0.4,
                    FERRY_GAUSSIAN_SCALE_NEIGHBOURS, masked, &w),
                FERRY_SUCCESS)
          << ferry_last_error_message();
      const std::string what = "masked " + std::to_string(masked) + ", weighting " +
                               std::to_string(weighting);
      expect_same_rows(w, ferry::nearest_neighbour_weights(MPI_COMM_WORLD, bs, bd, options),
                       what.c_str());
    }
  ferry::NearestNeighbourOptions plain;
  plain.weighting = ferry::NeighbourWeighting::Gaussian;
  ferry_weights* w = nullptr;
  ASSERT_EQ(ferry_weights_nearest_neighbour(MPI_COMM_WORLD, cs.handle, s.lon.data(), s.lat.data(),
                                            s.mask.data(), cd.handle, d.lon.data(), d.lat.data(),
                                            nullptr, 4, FERRY_WEIGHTING_GAUSSIAN, 0.1, &w),
            FERRY_SUCCESS)
      << ferry_last_error_message();
  expect_same_rows(w, ferry::nearest_neighbour_weights(MPI_COMM_WORLD, bs, bd, plain), "plain");
}

// Corners of a whole polygon grid in the order of a C layout, with per-cell counts.
struct CCells {
  int corners = 3;
  std::vector<double> lon, lat;
  std::vector<int> counts, mask;
};

CCells c_cells(const PolygonGrid& grid, const ferry_layout* layout) {
  CCells c;
  for (const auto& cell : grid.lon) c.corners = std::max(c.corners, static_cast<int>(cell.size()));
  for (std::int64_t id : ids_of(layout)) {
    const auto i = static_cast<std::size_t>(id);
    const std::size_t n = grid.lon[i].size();
    for (std::size_t k = 0; k < static_cast<std::size_t>(c.corners); ++k) {
      c.lon.push_back(k < n ? grid.lon[i][k] : 0);
      c.lat.push_back(k < n ? grid.lat[i][k] : 0);
    }
    c.counts.push_back(static_cast<int>(n));
    c.mask.push_back(grid.valid(id) ? 1 : 0);
  }
  return c;
}

TEST(RegridMethodsCapi, ConservativeOptionsAndGradientsAreTheCppBits) {
  const int p = size_of(MPI_COMM_WORLD), me = rank_of(MPI_COMM_WORLD);
  for (const regrid_test::GridPair& pair : regrid_test::masked_grid_pairs()) {
    SCOPED_TRACE(pair.name);
    const CLayout cs = round_robin(pair.src.size()), cd = round_robin(pair.dst.size());
    const CCells s = c_cells(pair.src, cs.handle), d = c_cells(pair.dst, cd.handle);
    const ferry::GridCells bs = regrid_test::share(pair.src, Layout::block(pair.src.size(), p, me));
    const ferry::GridCells bd = regrid_test::share(pair.dst, Layout::block(pair.dst.size(), p, me));
    for (const int normalisation : {FERRY_NORMALISATION_FRACAREA, FERRY_NORMALISATION_DESTAREA})
      for (const int unmapped : {FERRY_UNMAPPED_FILL, FERRY_UNMAPPED_NEAREST}) {
        ferry::ConservativeOptions options;
        options.normalisation = static_cast<ferry::ConservativeNormalisation>(normalisation);
        options.unmapped = static_cast<ferry::Unmapped>(unmapped);
        for (const int order : {1, 2}) {
          options.order = order;
          ferry_weights* w = nullptr;
          ASSERT_EQ(ferry_weights_conservative_with_options(
                        MPI_COMM_WORLD, cs.handle, s.corners, s.counts.data(), s.lon.data(),
                        s.lat.data(), s.mask.data(), FERRY_CELL_EDGES_AUTO, cd.handle, d.corners,
                        d.counts.data(), d.lon.data(), d.lat.data(), d.mask.data(),
                        FERRY_CELL_EDGES_AUTO, normalisation, unmapped, order, &w),
                    FERRY_SUCCESS)
              << ferry_last_error_message();
          expect_same_rows(w, ferry::conservative_weights(MPI_COMM_WORLD, bs, bd, options),
                           order == 1 ? "first order" : "second order");
        }
        std::array<ferry_weights*, 3> g{};
        ASSERT_EQ(ferry_weights_conservative_gradients(
                      MPI_COMM_WORLD, cs.handle, s.corners, s.counts.data(), s.lon.data(),
                      s.lat.data(), s.mask.data(), FERRY_CELL_EDGES_AUTO, cd.handle, d.corners,
                      d.counts.data(), d.lon.data(), d.lat.data(), d.mask.data(),
                      FERRY_CELL_EDGES_AUTO, normalisation, unmapped, &g[0], &g[1], &g[2]),
                  FERRY_SUCCESS)
            << ferry_last_error_message();
        const ferry::ConservativeGradientWeights e =
            ferry::conservative_gradient_weights(MPI_COMM_WORLD, bs, bd, options);
        expect_same_rows(g[0], e.value, "gradient value");
        expect_same_rows(g[1], e.lat_gradient, "lat_gradient");
        expect_same_rows(g[2], e.lon_gradient, "lon_gradient");
      }
  }
}

// Second order from a logically rectangular source (the rotated grid, some cells
// masked), periodic or not, through ferry_weights_conservative_rectangular: SCRIP's
// centred differences, the bits of ConservativeOptions nx and periodic; nx 0 is the
// least squares of ferry_weights_conservative_with_options.
TEST(RegridMethodsCapi, CentredDifferenceGradientsAreTheCppBits) {
  const int p = size_of(MPI_COMM_WORLD), me = rank_of(MPI_COMM_WORLD);
  constexpr std::int64_t kRows = 30;
  PolygonGrid src = regrid_test::rotated_grid(static_cast<int>(kRows), 16, 20, 50);
  for (std::int64_t i = 0; i < src.size(); ++i) src.mask.push_back(i % 7 == 3 ? 0 : 1);
  const PolygonGrid dst = regrid_test::lonlat_grid(24, 12, 3);
  const CLayout cs = round_robin(src.size()), cd = round_robin(dst.size());
  const CCells s = c_cells(src, cs.handle), d = c_cells(dst, cd.handle);
  const ferry::GridCells bs = regrid_test::share(src, Layout::block(src.size(), p, me));
  const ferry::GridCells bd = regrid_test::share(dst, Layout::block(dst.size(), p, me));
  for (const std::int64_t nx : {std::int64_t{0}, kRows})
    for (const int periodic : {1, 0}) {
      ferry::ConservativeOptions options;
      options.order = 2;
      options.unmapped = ferry::Unmapped::Nearest;
      options.nx = nx;
      options.periodic = periodic != 0;
      ferry_weights* w = nullptr;
      ASSERT_EQ(ferry_weights_conservative_rectangular(
                    MPI_COMM_WORLD, cs.handle, s.corners, nullptr, s.lon.data(), s.lat.data(),
                    s.mask.data(), FERRY_CELL_EDGES_AUTO, cd.handle, d.corners, nullptr,
                    d.lon.data(), d.lat.data(), d.mask.data(), FERRY_CELL_EDGES_AUTO,
                    FERRY_NORMALISATION_FRACAREA, FERRY_UNMAPPED_NEAREST, 2, nx, periodic, &w),
                FERRY_SUCCESS)
          << ferry_last_error_message();
      const std::string what =
          "nx " + std::to_string(nx) + ", periodic " + std::to_string(periodic);
      expect_same_rows(w, ferry::conservative_weights(MPI_COMM_WORLD, bs, bd, options),
                       what.c_str());
    }
}

// The whole rotated grid as a SCRIP grid file (rank 0 writes it).
void write_rotated_scrip(const std::string& path, const PolygonGrid& grid, std::int64_t nx) {
  if (rank_of(MPI_COMM_WORLD) != 0) return;
  regrid_test::CdoGrid g;
  g.nx = nx;
  g.ny = grid.size() / nx;
  for (std::int64_t i = 0; i < grid.size(); ++i) {
    const auto c = static_cast<std::size_t>(i);
    double lon = 0, lat = 0;
    for (int k = 0; k < 4; ++k) {
      lon += grid.lon[c][static_cast<std::size_t>(k)] / 4;
      lat += grid.lat[c][static_cast<std::size_t>(k)] / 4;
      g.corner_lon.push_back(grid.lon[c][static_cast<std::size_t>(k)]);
      g.corner_lat.push_back(grid.lat[c][static_cast<std::size_t>(k)]);
    }
    g.lon.push_back(lon);
    g.lat.push_back(lat);
    g.mask.push_back(i % 11 == 5 ? 0 : 1);
  }
  regrid_test::write_scrip_grid(path, g);
}

TEST(RegridMethodsCapi, GridReadIsTheCppGrid) {
  const std::string path =
      "regrid_methods_capi_grid_np" + std::to_string(size_of(MPI_COMM_WORLD)) + ".nc";
  write_rotated_scrip(path, regrid_test::rotated_grid(30, 16, 20, 50), 30);
  MPI_Barrier(MPI_COMM_WORLD);
  ferry_grid* grid = nullptr;
  ASSERT_EQ(ferry_grid_read(MPI_COMM_WORLD, path.c_str(), FERRY_GRID_FORMAT_SCRIP, "rotated",
                            nullptr, nullptr, &grid),
            FERRY_SUCCESS)
      << ferry_last_error_message();
  const ferry::Grid expected =
      ferry::read_grid(MPI_COMM_WORLD, {path, ferry::GridFormat::Scrip, "rotated", "", ""});
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank_of(MPI_COMM_WORLD) == 0) std::remove(path.c_str());
  std::int64_t size = 0, first = -1, count = -1, nx = -1;
  int corners = 0, has_corners = -1, has_area = -1;
  ASSERT_EQ(ferry_grid_get_sizes(grid, &size, &first, &count, &corners, &nx, &has_corners,
                                 &has_area),
            FERRY_SUCCESS);
  EXPECT_EQ(size, 30 * 16);
  EXPECT_EQ(nx, 30);
  EXPECT_EQ(corners, 4);
  EXPECT_EQ(count, expected.points.layout.local_size());
  if (count > 0) EXPECT_EQ(first, expected.points.layout.ids().front());
  EXPECT_EQ(has_corners, count > 0 ? 1 : 0);
  EXPECT_EQ(has_area, 0);
  ferry_layout* layout = nullptr;
  ASSERT_EQ(ferry_grid_get_layout(grid, &layout), FERRY_SUCCESS);
  const CLayout owned(layout);
  EXPECT_EQ(ids_of(layout), expected.points.layout.ids());
  const auto n = static_cast<std::size_t>(count);
  std::vector<double> lon(n), lat(n), corner_lon(n * 4), corner_lat(n * 4), area(n);
  std::vector<int> mask(n);
  ASSERT_EQ(ferry_grid_get_points(grid, lon.data(), lat.data(), mask.data()), FERRY_SUCCESS);
  ASSERT_EQ(ferry_grid_get_corners(grid, corner_lon.data(), corner_lat.data()), FERRY_SUCCESS);
  EXPECT_EQ(lon, expected.points.lon);
  EXPECT_EQ(lat, expected.points.lat);
  EXPECT_EQ(std::vector<std::int32_t>(mask.begin(), mask.end()), expected.points.mask);
  EXPECT_EQ(corner_lon, expected.cells.corner_lon);
  EXPECT_EQ(corner_lat, expected.cells.corner_lat);
  // No areas in the file: an error where there are cells to give them for.
  EXPECT_EQ(ferry_grid_get_area(grid, area.data()), count > 0 ? FERRY_ERR_ARG : FERRY_SUCCESS);

  // The grid as read goes straight into the conservative weights, onto itself.
  ferry_weights* w = nullptr;
  ASSERT_EQ(ferry_weights_conservative_with_options(
                MPI_COMM_WORLD, layout, corners, nullptr, corner_lon.data(), corner_lat.data(),
                mask.data(), FERRY_CELL_EDGES_AUTO, layout, corners, nullptr, corner_lon.data(),
                corner_lat.data(), mask.data(), FERRY_CELL_EDGES_AUTO,
                FERRY_NORMALISATION_FRACAREA, FERRY_UNMAPPED_FILL, 2, &w),
            FERRY_SUCCESS)
      << ferry_last_error_message();
  ferry::ConservativeOptions second;
  second.order = 2;
  expect_same_rows(w, ferry::conservative_weights(MPI_COMM_WORLD, expected.cells, expected.cells,
                                                  second),
                   "read grid onto itself");
  EXPECT_EQ(ferry_grid_destroy(&grid), FERRY_SUCCESS);
  EXPECT_EQ(grid, nullptr);
}

TEST(RegridMethodsCapi, BadOptionsFailEveryRankAlike) {
  const ferry::GridPoints src = rectangular_source(), dst = scattered_destination();
  const CLayout cs = round_robin(static_cast<std::int64_t>(src.lon.size()));
  const CLayout cd = round_robin(static_cast<std::int64_t>(dst.lon.size()));
  const CPoints s = c_points(src, cs.handle), d = c_points(dst, cd.handle);
  // A bad unmapped value on the last rank only: every rank fails with its message.
  const int last = size_of(MPI_COMM_WORLD) - 1;
  const int unmapped = rank_of(MPI_COMM_WORLD) == last ? 7 : FERRY_UNMAPPED_NEAREST;
  std::array<ferry_weights*, 4> g{};
  EXPECT_EQ(ferry_weights_bicubic_gradients(MPI_COMM_WORLD, cs.handle, s.lon.data(), s.lat.data(),
                                            nullptr, cd.handle, d.lon.data(), d.lat.data(),
                                            nullptr, kNx, 1, unmapped, &g[0], &g[1], &g[2], &g[3]),
            FERRY_ERR_ARG);
  EXPECT_NE(std::string(ferry_last_error_message()).find("unknown unmapped 7"), std::string::npos)
      << ferry_last_error_message();
  for (ferry_weights* h : g) EXPECT_EQ(h, nullptr);

  ferry_weights* n = nullptr;
  EXPECT_EQ(ferry_weights_nearest_neighbour_with_options(
                MPI_COMM_WORLD, cs.handle, s.lon.data(), s.lat.data(), nullptr, cd.handle,
                d.lon.data(), d.lat.data(), nullptr, 4, FERRY_WEIGHTING_INVERSE_DISTANCE, 0.1,
                FERRY_GAUSSIAN_SCALE_SOURCE, unmapped, &n),
            FERRY_ERR_ARG);
  EXPECT_NE(std::string(ferry_last_error_message()).find("masked_neighbours 7"),
            std::string::npos)
      << ferry_last_error_message();
  EXPECT_EQ(n, nullptr);
  EXPECT_EQ(ferry_weights_nearest_neighbour_with_options(
                MPI_COMM_WORLD, cs.handle, s.lon.data(), s.lat.data(), nullptr, cd.handle,
                d.lon.data(), d.lat.data(), nullptr, 4, FERRY_WEIGHTING_GAUSSIAN, 0.1,
                FERRY_GAUSSIAN_SCALE_SOURCE, FERRY_MASKED_NEIGHBOURS_DROP, &n),
            FERRY_ERR_ARG);
  EXPECT_NE(std::string(ferry_last_error_message()).find("GaussianScale::NeighbourSpacing"),
            std::string::npos)
      << ferry_last_error_message();

  const PolygonGrid grid = regrid_test::lonlat_grid(12, 6, 0);
  const CLayout cg = round_robin(grid.size());
  const CCells c = c_cells(grid, cg.handle);
  ferry_weights* w = nullptr;
  EXPECT_EQ(ferry_weights_conservative_with_options(
                MPI_COMM_WORLD, cg.handle, c.corners, nullptr, c.lon.data(), c.lat.data(), nullptr,
                FERRY_CELL_EDGES_AUTO, cg.handle, c.corners, nullptr, c.lon.data(), c.lat.data(),
                nullptr, FERRY_CELL_EDGES_AUTO, FERRY_NORMALISATION_FRACAREA, FERRY_UNMAPPED_FILL,
                3, &w),
            FERRY_ERR_ARG);
  EXPECT_NE(std::string(ferry_last_error_message()).find("order must be 1"), std::string::npos)
      << ferry_last_error_message();
  EXPECT_EQ(w, nullptr);
  // nx that does not divide the 72 cells on the last rank only, and nx 1 everywhere.
  for (const std::int64_t nx : {rank_of(MPI_COMM_WORLD) == last ? std::int64_t{7} : 12,
                                std::int64_t{1}}) {
    EXPECT_EQ(ferry_weights_conservative_rectangular(
                  MPI_COMM_WORLD, cg.handle, c.corners, nullptr, c.lon.data(), c.lat.data(),
                  nullptr, FERRY_CELL_EDGES_AUTO, cg.handle, c.corners, nullptr, c.lon.data(),
                  c.lat.data(), nullptr, FERRY_CELL_EDGES_AUTO, FERRY_NORMALISATION_FRACAREA,
                  FERRY_UNMAPPED_FILL, 2, nx, 1, &w),
              FERRY_ERR_ARG);
    const std::string expected =
        "nx is " + std::to_string(nx == 1 ? 1 : 7) + " for a source grid of 72 cells";
    EXPECT_NE(std::string(ferry_last_error_message()).find(expected), std::string::npos)
        << ferry_last_error_message();
    EXPECT_EQ(w, nullptr);
  }

  ferry_grid* missing = nullptr;
  EXPECT_EQ(ferry_grid_read(MPI_COMM_WORLD, "no_such_grid.nc", FERRY_GRID_FORMAT_AUTO, nullptr,
                            nullptr, nullptr, &missing),
            FERRY_ERR_IO);
  EXPECT_NE(std::string(ferry_last_error_message()).find("no_such_grid.nc"), std::string::npos)
      << ferry_last_error_message();
  EXPECT_EQ(missing, nullptr);
  EXPECT_EQ(ferry_grid_read(MPI_COMM_WORLD, "x.nc", 9, nullptr, nullptr, nullptr, &missing),
            FERRY_ERR_ARG);
}

}  // namespace
