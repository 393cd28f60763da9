// The progress callback of conservative weight generation: every rank hears of its own
// overlaps from done 0 to done == total, never going back; the weights keep their bits;
// a callback that throws on one rank ends the call on every rank with its message.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ferry/error.hpp"
#include "ferry/online_weights.hpp"
#include "polygon_grids.hpp"
#include "test_support.hpp"
#include "weights_checks.hpp"

namespace {

using ferry::ConservativeOptions;
using ferry::Layout;
using ferry::WeightProgress;
using ferry_test::rank_of;
using ferry_test::size_of;

struct Grids {
  ferry::GridCells src, dst;
};

Grids rotated_to_geodesic() {
  const int p = size_of(MPI_COMM_WORLD), me = rank_of(MPI_COMM_WORLD);
  const regrid_test::PolygonGrid src = regrid_test::rotated_grid(40, 20, 20, 50);
  const regrid_test::PolygonGrid dst = regrid_test::geodesic_grid(8);
  return {regrid_test::share(src, Layout::round_robin(src.size(), p, me)),
          regrid_test::share(dst, Layout::block(dst.size(), p, me), true)};
}

TEST(WeightProgress, EveryRankReportsFromStartToEnd) {
  const Grids g = rotated_to_geodesic();
  for (const int order : {1, 2}) {
    SCOPED_TRACE("order " + std::to_string(order));
    std::vector<WeightProgress> reports;
    ConservativeOptions options;
    options.order = order;
    const ferry::Weights plain = ferry::conservative_weights(MPI_COMM_WORLD, g.src, g.dst, options);
    options.progress = [&](const WeightProgress& p) { reports.push_back(p); };
    options.progress_seconds = 0;  // every check of the clock reports
    const ferry::Weights reported =
        ferry::conservative_weights(MPI_COMM_WORLD, g.src, g.dst, options);
    regrid_test::expect_same_bits(plain, reported);
    ASSERT_GE(reports.size(), 2u);
    EXPECT_EQ(reports.front().done, 0);
    EXPECT_EQ(reports.back().done, reports.back().total);
    std::int64_t total = 0;
    for (std::size_t i = 0; i < reports.size(); ++i) {
      EXPECT_STREQ(reports[i].stage, "overlaps");
      EXPECT_EQ(reports[i].total, reports.front().total);
      EXPECT_GE(reports[i].seconds, 0.0);
      if (i > 0) {
        EXPECT_GE(reports[i].done, reports[i - 1].done);
        EXPECT_GE(reports[i].seconds, reports[i - 1].seconds);
      }
    }
    // The bands hold every destination cell at least once (cells reaching two bands
    // count in both).
    total = reports.back().total;
    std::int64_t all = 0;
    MPI_Allreduce(&total, &all, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_GE(all, g.dst.layout.global_size());
    // A report at least every 64 cells with progress_seconds 0 (the clock's check).
    EXPECT_GE(static_cast<std::int64_t>(reports.size()), total / 64);
  }
}

TEST(WeightProgress, ReportsAtMostAtTheInterval) {
  const Grids g = rotated_to_geodesic();
  int calls = 0;
  ConservativeOptions options;
  options.progress = [&](const WeightProgress&) { ++calls; };
  options.progress_seconds = 3600;
  (void)ferry::conservative_gradient_weights(MPI_COMM_WORLD, g.src, g.dst, options);
  EXPECT_EQ(calls, 2);  // the start and the end
}

TEST(WeightProgress, ACallbackThrowingOnOneRankEndsEveryRank) {
  const Grids g = rotated_to_geodesic();
  const int last = size_of(MPI_COMM_WORLD) - 1;
  ConservativeOptions options;
  options.progress = [&](const WeightProgress& p) {
    if (rank_of(MPI_COMM_WORLD) == last && p.done == p.total) throw std::runtime_error("stop here");
  };
  ferry_test::expect_same_error_everywhere(
      [&] { (void)ferry::conservative_weights(MPI_COMM_WORLD, g.src, g.dst, options); },
      ferry::Errc::Arg,
      "conservative_weights: the progress callback raised on rank " + std::to_string(last) +
          ": stop here");
  // A ferry::Error keeps its code.
  options.progress = [&](const WeightProgress&) {
    if (rank_of(MPI_COMM_WORLD) == 0) throw ferry::Error(ferry::Errc::State, "cancelled");
  };
  ferry_test::expect_same_error_everywhere(
      [&] { (void)ferry::conservative_weights(MPI_COMM_WORLD, g.src, g.dst, options); },
      ferry::Errc::State, "^cancelled");
}

}  // namespace
