// The layouts of the benchmark scenarios that reproduce the data-transfer paper's
// coupled models (benchmarks/scenario.cpp), checked against a direct construction.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "ferry/layout.hpp"
#include "scenario.hpp"
#include "test_support.hpp"

using ferry::Layout;
using namespace ferry::bench;

namespace {

// The roles of part `part` of a component rearranging its own data on `parts` ranks.
Roles shared_roles(int parts, int part) { return {Groups::Shared, parts, parts, part, part}; }

// The source points bilinear interpolation reads for every target cell of `part`'s
// 2-D block, from the cell centres in floating point: the two source columns
// around the target centre (longitude periodic) and the two rows (clamped at the poles).
std::set<std::int64_t> stencil_points(const Scenario& s, int parts, int part) {
  const auto [px, py] = square_process_grid(parts);
  const Layout block = Layout::box(s.target_nx, s.target_ny, px, py, part);
  std::set<std::int64_t> points;
  for (std::int64_t id : block.ids()) {
    const double x = (static_cast<double>(id % s.target_nx) + 0.5) * static_cast<double>(s.nx) /
                         static_cast<double>(s.target_nx) - 0.5;
    const double y = (static_cast<double>(id / s.target_nx) + 0.5) * static_cast<double>(s.ny) /
                         static_cast<double>(s.target_ny) - 0.5;
    const auto i = static_cast<std::int64_t>(std::floor(x));
    const auto j = static_cast<std::int64_t>(std::floor(y));
    for (std::int64_t row : {j, j + 1}) {
      if (row < 0 || row >= s.ny) continue;
      for (std::int64_t column : {i, i + 1}) points.insert(row * s.nx + (column + s.nx) % s.nx);
    }
  }
  return points;
}

}  // namespace

TEST(Scenario, CesmDealsCellsRoundRobinToTwoDimensionalBlocks) {
  const Roles roles{Groups::Split, 6, 6, 4, -1};
  const Scenario s = make_scenario({"cesm"}, roles);
  EXPECT_EQ(s.nx, 144);
  EXPECT_EQ(s.ny, 96);
  EXPECT_EQ(s.fields, 32);
  const Layout src = make_layouts(s, roles).src;
  ASSERT_EQ(src.local_size(), 144 * 96 / 6);
  for (std::size_t k = 0; k < src.ids().size(); ++k)
    EXPECT_EQ(src.ids()[k], 4 + 6 * static_cast<std::int64_t>(k));

  const Roles receiver{Groups::Split, 6, 6, -1, 5};
  EXPECT_EQ(make_layouts(s, receiver).dst.ids(), Layout::box(144, 96, 3, 2, 5).ids());
  EXPECT_EQ(describe(s, roles), "round-robin -> 3 x 2 blocks");
}

TEST(Scenario, InterpReadsExactlyTheBilinearStencilsOfEachTargetBlock) {
  // 1 rank: a band all around the globe; 6: blocks inside; 12, 96: blocks that
  // touch the date line and the poles.
  for (int parts : {1, 6, 12, 96}) {
    for (int part = 0; part < parts; ++part) {
      const Roles roles = shared_roles(parts, part);
      const Scenario s = make_scenario({"interp"}, roles);
      const Layout dst = make_layouts(s, roles).dst;
      const std::set<std::int64_t> ids(dst.ids().begin(), dst.ids().end());
      EXPECT_EQ(ids.size(), dst.ids().size()) << "an id twice; part " << part << " of " << parts;
      EXPECT_EQ(ids, stencil_points(s, parts, part)) << "part " << part << " of " << parts;
    }
  }
}

TEST(Scenario, PointsPerProcScalesBothGrids) {
  const Roles roles = shared_roles(96, 0);
  ScenarioRequest request{"interp"};
  request.points_per_proc = 36;  // 96 x 36 = 3456 points = (144 x 96) / 4
  const Scenario s = make_scenario(request, roles);
  EXPECT_EQ(s.nx, 72);
  EXPECT_EQ(s.ny, 48);
  EXPECT_EQ(s.target_nx, 160);
  EXPECT_EQ(s.target_ny, 192);
}

TEST(Scenario, PointsAndPointsPerProcAreExclusive) {
  ScenarioRequest request{"cesm"};
  request.points = 1000;
  request.points_per_proc = 10;
  ferry_test::expect_error([&] { make_scenario(request, shared_roles(2, 0)); }, ferry::Errc::Arg,
                           "--points and --points-per-proc both size the grid. Give one of them");
}
