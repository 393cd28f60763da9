// Conservation (OASIS CONSERV) on a made-up remapped field: after every method the
// destination integral meets its target, positive fields stay positive with the
// multiplicative methods, masked points keep their values, and with gather and
// reprosum the corrected field has the same bits on any process count and layout.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "ferry/conservation.hpp"
#include "ferry/error.hpp"
#include "ferry/global_sum.hpp"
#include "ferry/layout.hpp"
#include "test_support.hpp"

using ferry::Conserve;
using ferry::ConserveGrid;
using ferry::Errc;
using ferry::GridPointData;
using ferry::Layout;
using ferry::SumMethod;

namespace {

using ferry_test::rank_of;
using ferry_test::size_of;

constexpr int kComponents = 2;
constexpr std::int64_t kSrcPoints = 5003;
constexpr std::int64_t kDstPoints = 3001;
constexpr Conserve kConserves[] = {Conserve::Global, Conserve::GlobalPositive,
                                   Conserve::BasinBalance, Conserve::BasinPositive};
constexpr SumMethod kSums[] = {SumMethod::Gather, SumMethod::Lsum8, SumMethod::Lsum16,
                               SumMethod::Ddpdd, SumMethod::Reprosum};

bool is_basin(Conserve c) { return c == Conserve::BasinBalance || c == Conserve::BasinPositive; }

// A grid of n cells of uneven areas (about 1e10 m^2), some masked, partly covered.
struct Grid {
  std::int64_t n;
  std::int64_t mask_every;
  double area(std::int64_t g) const { return 1e10 * (1.0 + 0.5 * std::sin(0.37 * g)); }
  double frac(std::int64_t g) const { return 0.25 + 0.75 * ((g * 37) % 101) / 100.0; }
  bool active(std::int64_t g) const { return g % mask_every != 0; }
  // Component 0 is positive (a temperature); component 1 changes sign (a flux).
  double value(std::int64_t g, int c, double wavelength) const {
    const double x = 6.28 * g / wavelength;
    return c == 0 ? 280.0 + 20.0 * std::sin(x) : 50.0 * std::cos(x) + 3.0;
  }
};
const Grid kSrc{kSrcPoints, 11};
const Grid kDst{kDstPoints, 13};

// This rank's part of a grid: its point data and a field (the destination one slightly
// off, as a non-conservative remapping leaves it).
struct Part {
  std::vector<std::int64_t> ids;
  GridPointData points;
  std::vector<double> values;

  Part(const Grid& grid, const Layout& layout, double wavelength) : ids(layout.ids()) {
    points.area.emplace();
    points.frac.emplace();
    points.mask.emplace();
    for (const std::int64_t g : ids) {
      points.area->push_back(grid.area(g));
      points.frac->push_back(grid.frac(g));
      points.mask->push_back(grid.active(g) ? 1 : 0);
      for (int c = 0; c < kComponents; ++c) values.push_back(grid.value(g, c, wavelength));
    }
  }
  ConserveGrid grid() const { return {&points, &ids}; }
};

Part source(const Layout& layout) { return Part(kSrc, layout, 900.0); }
Part destination(const Layout& layout) { return Part(kDst, layout, 540.0 * 1.03); }

// Integrals of a part as conserve forms them: sum of w * value per component, sum of
// |w * value| (scales the tolerance), sum of w. Reprosum: exact, rounded once.
struct Integrals {
  std::vector<double> s, magnitude;
  double w = 0;
};
Integrals integrals_of(const Part& part, Conserve method) {
  std::vector<double> terms;
  for (std::size_t p = 0; p < part.ids.size(); ++p) {
    const bool on = (*part.points.mask)[p] != 0;
    const double w =
        on ? (*part.points.area)[p] * (is_basin(method) ? (*part.points.frac)[p] : 1.0) : 0.0;
    for (int c = 0; c < kComponents; ++c) {
      terms.push_back(w * part.values[p * kComponents + c]);
      terms.push_back(std::fabs(w * part.values[p * kComponents + c]));
    }
    terms.push_back(w);
  }
  const int count = 2 * kComponents + 1;
  const std::vector<double> sums = ferry::global_sums(
      MPI_COMM_WORLD, SumMethod::Reprosum, count, part.ids.size(), terms.data());
  Integrals result;
  for (int c = 0; c < kComponents; ++c) {
    result.s.push_back(sums[2 * c]);
    result.magnitude.push_back(sums[2 * c + 1]);
  }
  result.w = sums[count - 1];
  return result;
}

std::vector<Layout> layouts(std::int64_t n) {
  const int size = size_of(MPI_COMM_WORLD), rank = rank_of(MPI_COMM_WORLD);
  return {Layout::block(n, size, rank), Layout::random(n, size, rank, 5),
          Layout::random(n, size, rank, 6)};
}

TEST(Conservation, EveryMethodMeetsItsTarget) {
  const int size = size_of(MPI_COMM_WORLD), rank = rank_of(MPI_COMM_WORLD);
  const Part src = source(Layout::random(kSrcPoints, size, rank, 1));
  for (const Conserve method : kConserves)
    for (const SumMethod sum : kSums) {
      Part dst = destination(Layout::random(kDstPoints, size, rank, 2));
      const std::vector<double> before = dst.values;
      ferry::conserve(MPI_COMM_WORLD, method, sum, kComponents, src.grid(), src.values.data(),
                      dst.grid(), dst.values.data());
      const Integrals s = integrals_of(src, method);
      const Integrals d = integrals_of(dst, method);
      for (int c = 0; c < kComponents; ++c) {
        const double target = is_basin(method) ? s.s[c] * d.w / s.w : s.s[c];
        EXPECT_NEAR(d.s[c], target, 1e-14 * d.magnitude[c])
            << ferry::conserve_name(method) << " with " << ferry::sum_method_name(sum)
            << ", component " << c;
      }
      for (std::size_t p = 0; p < dst.ids.size(); ++p)
        for (int c = 0; c < kComponents; ++c) {
          const std::size_t i = p * kComponents + c;
          if ((*dst.points.mask)[p] == 0) {
            EXPECT_EQ(dst.values[i], before[i]);
          }
          // Component 0 is positive: the multiplicative methods must keep it so.
          if (c == 0 && (method == Conserve::GlobalPositive || method == Conserve::BasinPositive)) {
            EXPECT_GT(dst.values[i], 0.0) << ferry::conserve_name(method);
          }
        }
    }
}

// Gather and reprosum: the corrected field has the bits of one rank doing it all.
TEST(Conservation, GatherAndReprosumGiveTheSameBitsOnAnyLayout) {
  const Part src_alone = source(Layout::block(kSrcPoints, 1, 0));
  for (const Conserve method : kConserves)
    for (const SumMethod sum : {SumMethod::Gather, SumMethod::Reprosum}) {
      Part alone = destination(Layout::block(kDstPoints, 1, 0));
      ferry::conserve(MPI_COMM_SELF, method, sum, kComponents, src_alone.grid(),
                      src_alone.values.data(), alone.grid(), alone.values.data());
      const std::vector<Layout> src_layouts = layouts(kSrcPoints);
      const std::vector<Layout> dst_layouts = layouts(kDstPoints);
      for (std::size_t l = 0; l < src_layouts.size(); ++l) {
        const Part src = source(src_layouts[l]);
        Part dst = destination(dst_layouts[l]);
        ferry::conserve(MPI_COMM_WORLD, method, sum, kComponents, src.grid(), src.values.data(),
                        dst.grid(), dst.values.data());
        for (std::size_t p = 0; p < dst.ids.size(); ++p)
          for (int c = 0; c < kComponents; ++c) {
            const double got = dst.values[p * kComponents + c];
            const double want = alone.values[dst.ids[p] * kComponents + c];
            ASSERT_EQ(std::memcmp(&got, &want, sizeof got), 0)
                << ferry::conserve_name(method) << " with " << ferry::sum_method_name(sum)
                << ", layout " << l << ", point " << dst.ids[p] << ": " << got << " vs "
                << want;
          }
      }
    }
}

TEST(Conservation, BadInputRaisesTheSameErrorOnEveryRank) {
  const int size = size_of(MPI_COMM_WORLD), rank = rank_of(MPI_COMM_WORLD);
  const Part src = source(Layout::block(kSrcPoints, size, rank));
  Part dst = destination(Layout::block(kDstPoints, size, rank));
  GridPointData no_area = dst.points;
  no_area.area.reset();
  const ConserveGrid bad_grid{&no_area, &dst.ids};
  ferry_test::expect_error(
      [&] {
        ferry::conserve(MPI_COMM_WORLD, Conserve::Global, SumMethod::Reprosum, kComponents,
                        src.grid(), src.values.data(), bad_grid, dst.values.data());
      },
      Errc::Arg, "dst grid has no cell areas");
  // One rank's frac is one value short: every rank raises that rank's error.
  GridPointData short_frac = dst.points;
  if (rank == size - 1) short_frac.frac->pop_back();
  const ConserveGrid short_grid{&short_frac, &dst.ids};
  ferry_test::expect_error(
      [&] {
        ferry::conserve(MPI_COMM_WORLD, Conserve::BasinBalance, SumMethod::Lsum8, kComponents,
                        src.grid(), src.values.data(), short_grid, dst.values.data());
      },
      Errc::ArgSize, "dst frac has [0-9]+ values, expected [0-9]+");
}

}  // namespace
