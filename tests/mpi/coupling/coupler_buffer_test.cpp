// Time-series buffers declared in the coupler's configuration: the source component
// loads steps, the target component reads its partition's box of every step.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "coupling_fixture.hpp"
#include "ferry/coupler.hpp"
#include "ferry/error.hpp"
#include "test_support.hpp"

namespace {

using ferry_test::TwoComponents;

constexpr std::int64_t kNx = 6;
constexpr std::int64_t kNy = 4;
constexpr std::int64_t kSteps = 10;

std::string config_text(const std::string& dir, const std::string& mode) {
  return "version: 1\n"
         "run: {length: 100}\n"
         "output: {directory: " + dir + ", timers: false}\n"
         "watchdog: {timeout: 30}\n"
         "buffers:\n"
         "  - name: history\n"
         "    source: {component: atm, field: t}\n"
         "    target: {component: ocn, field: t_in}\n"
         "    capacity: 3\n"
         "    mode: " + mode + "\n";
}

// The configuration with buffer "history" from atm.t to ocn.t_in, written as `name`.
std::string config_file(const std::string& name, const std::string& mode) {
  const std::string dir = ferry_test::scratch_directory();
  return ferry_test::write_config(dir, name, config_text(dir, mode));
}

// Exact in double: global id and step.
double value_at(std::int64_t gid, std::int64_t step) {
  return static_cast<double>(gid) * 1000.0 + static_cast<double>(step);
}

TEST(CouplerBuffer, LosslessReadsEveryStepOfItsBox) {
  if (ferry_test::world_size() < 2) GTEST_SKIP() << "needs 2 or more ranks";
  const TwoComponents run;
  ferry::Coupler coupler(MPI_COMM_WORLD, run.names(), config_file("buffer.yaml", "lossless"));
  ferry::Layout layout;
  if (run.atm) {
    // Bands of whole rows on the source ...
    layout = ferry::Layout::orange(kNx, kNy, run.atm_size, run.atm_rank);
    const ferry::GridId grid = coupler.def_grid("atm", "g", kNx, kNy);
    const ferry::PartitionId part = coupler.def_partition(grid, "rows", layout);
    coupler.def_field(part, "t", ferry::FieldDirection::Out, ferry::Datatype::Float64);
  } else {
    // ... columns of the whole grid on the target, across the source's bands.
    layout = ferry::Layout::box(kNx, kNy, run.ocn_size, 1, run.ocn_rank);
    const ferry::GridId grid = coupler.def_grid("ocn", "g", kNx, kNy);
    const ferry::PartitionId part = coupler.def_partition(grid, "columns", layout);
    coupler.def_field(part, "t_in", ferry::FieldDirection::In, ferry::Datatype::Float64);
  }
  coupler.enddef();

  const auto n = static_cast<std::size_t>(layout.local_size());
  if (run.atm) {
    std::vector<double> values(n);
    for (std::int64_t step = 0; step < kSteps; ++step) {
      for (std::size_t i = 0; i < n; ++i) values[i] = value_at(layout.ids()[i], step);
      coupler.load("history", values.data(), step);
    }
  } else {
    constexpr std::int64_t kMaxSteps = 4;
    std::vector<double> out(n * kMaxSteps);
    std::int64_t next = 0;
    while (next < kSteps) {
      const ferry::ReadResult got = coupler.read("history", out.data(), kMaxSteps);
      ASSERT_GE(got.n_steps, 1);
      ASSERT_LE(got.n_steps, kMaxSteps);
      EXPECT_EQ(got.first_step, next);
      EXPECT_EQ(got.lost_steps, 0);
      const std::vector<std::int64_t>& steps = coupler.read_steps("history");
      ASSERT_EQ(steps.size(), static_cast<std::size_t>(got.n_steps));
      for (std::int64_t s = 0; s < got.n_steps; ++s) {
        EXPECT_EQ(steps[static_cast<std::size_t>(s)], next + s);
        for (std::size_t i = 0; i < n; ++i)
          ASSERT_EQ(out[static_cast<std::size_t>(s) * n + i], value_at(layout.ids()[i], next + s))
              << "step " << next + s << ", global id " << layout.ids()[i];
      }
      next += got.n_steps;
    }
    EXPECT_EQ(next, kSteps);
  }
  coupler.finalize();
}

// Every rank runs both components: the source and target ranks overlap.
TEST(CouplerBuffer, OverlappingComponentsFailOnEveryRank) {
  const int p = ferry_test::world_size();
  const int r = ferry_test::world_rank();
  ferry::Coupler coupler(MPI_COMM_WORLD, {"atm", "ocn"}, config_file("overlap.yaml", "lossless"));
  const ferry::Layout layout = ferry::Layout::orange(kNx, kNy, p, r);
  const ferry::PartitionId atm =
      coupler.def_partition(coupler.def_grid("atm", "g", kNx, kNy), "rows", layout);
  const ferry::PartitionId ocn =
      coupler.def_partition(coupler.def_grid("ocn", "g", kNx, kNy), "rows", layout);
  coupler.def_field(atm, "t", ferry::FieldDirection::Out, ferry::Datatype::Float64);
  coupler.def_field(ocn, "t_in", ferry::FieldDirection::In, ferry::Datatype::Float64);
  ferry_test::expect_same_error_everywhere(
      [&] { coupler.enddef(); }, ferry::Errc::Arg,
      R"(overlap\.yaml:6:5: buffer "history": rank\(s\) 0.* declare both the source field "t" of )"
      R"(component "atm" and the target field "t_in" of component "ocn"; .* disjoint ranks)");
}

// The source's first rank lists its rows backwards: not a box.
TEST(CouplerBuffer, PartitionThatIsNotABoxFailsOnEveryRank) {
  if (ferry_test::world_size() < 2) GTEST_SKIP() << "needs 2 or more ranks";
  const TwoComponents run;
  ferry::Coupler coupler(MPI_COMM_WORLD, run.names(), config_file("notbox.yaml", "lossy"));
  if (run.atm) {
    std::vector<std::int64_t> ids =
        ferry::Layout::orange(kNx, kNy, run.atm_size, run.atm_rank).ids();
    if (run.atm_rank == 0) ids.assign(ids.rbegin(), ids.rend());
    const ferry::PartitionId part = coupler.def_partition(
        coupler.def_grid("atm", "g", kNx, kNy), "rows", ferry::Layout::points(kNx * kNy, ids));
    coupler.def_field(part, "t", ferry::FieldDirection::Out, ferry::Datatype::Float64);
  } else {
    const ferry::PartitionId part = coupler.def_partition(
        coupler.def_grid("ocn", "g", kNx, kNy), "columns",
        ferry::Layout::box(kNx, kNy, run.ocn_size, 1, run.ocn_rank));
    coupler.def_field(part, "t_in", ferry::FieldDirection::In, ferry::Datatype::Float64);
  }
  ferry_test::expect_same_error_everywhere(
      [&] { coupler.enddef(); }, ferry::Errc::Arg,
      R"(notbox\.yaml:6:5: buffer "history": partition "rows" of grid "g" \(component "atm", )"
      R"(6 x 4\) is not a box on rank 0: .* Declare the partition with Layout::box)");
}

}  // namespace
