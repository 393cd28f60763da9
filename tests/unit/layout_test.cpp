#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <set>

#include "engines/copy_runs.hpp"
#include "ferry/layout.hpp"
#include "test_support.hpp"

using ferry::Errc;
using ferry::Layout;

namespace {

// Every id 0..n-1 appears in exactly one part.
void expect_partition(std::int64_t n, int parts, const std::function<Layout(int)>& make) {
  std::vector<int> seen(static_cast<std::size_t>(n), 0);
  for (int p = 0; p < parts; ++p) {
    const Layout layout = make(p);
    for (auto id : layout.ids()) {
      ASSERT_GE(id, 0);
      ASSERT_LT(id, n);
      ++seen[static_cast<std::size_t>(id)];
    }
  }
  for (std::int64_t id = 0; id < n; ++id) EXPECT_EQ(seen[static_cast<std::size_t>(id)], 1) << id;
}

}  // namespace

TEST(Layout, BlockSplitsRemainderOverFirstParts) {
  EXPECT_EQ(Layout::block(10, 3, 0).ids(), (std::vector<std::int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(Layout::block(10, 3, 1).ids(), (std::vector<std::int64_t>{4, 5, 6}));
  EXPECT_EQ(Layout::block(10, 3, 2).ids(), (std::vector<std::int64_t>{7, 8, 9}));
  EXPECT_EQ(Layout::block(2, 4, 3).local_size(), 0);
  expect_partition(1001, 7, [](int p) { return Layout::block(1001, 7, p); });
}

TEST(Layout, BoxListsRowsInsideTheBlock) {
  // 4 x 2 grid in 2 x 1 blocks: part 1 holds columns 2-3 of both rows.
  EXPECT_EQ(Layout::box(4, 2, 2, 1, 1).ids(), (std::vector<std::int64_t>{2, 3, 6, 7}));
  expect_partition(13 * 7, 6, [](int p) { return Layout::box(13, 7, 3, 2, p); });
}

TEST(Layout, OrangeHoldsWholeRows) {
  EXPECT_EQ(Layout::orange(3, 3, 2, 1).ids(), (std::vector<std::int64_t>{6, 7, 8}));
  expect_partition(10 * 9, 4, [](int p) { return Layout::orange(10, 9, 4, p); });
}

TEST(Layout, RoundRobinDealsCyclically) {
  EXPECT_EQ(Layout::round_robin(7, 3, 1).ids(), (std::vector<std::int64_t>{1, 4}));
  expect_partition(100, 7, [](int p) { return Layout::round_robin(100, 7, p); });
}

TEST(Layout, RandomIsASeededPartition) {
  expect_partition(500, 5, [](int p) { return Layout::random(500, 5, p, 42); });
  EXPECT_EQ(Layout::random(500, 5, 2, 42).ids(), Layout::random(500, 5, 2, 42).ids());
  EXPECT_NE(Layout::random(500, 5, 2, 42).ids(), Layout::random(500, 5, 2, 43).ids());
}

TEST(Layout, NoneIsNotAMember) {
  EXPECT_FALSE(Layout::none(10).member());
  EXPECT_TRUE(Layout::block(0, 1, 0).member());
}

TEST(Layout, BadArgumentsRaiseClearErrors) {
  ferry_test::expect_error([] { Layout::block(10, 0, 0); }, Errc::Arg, "parts must be >= 1");
  ferry_test::expect_error([] { Layout::block(10, 2, 2); }, Errc::Arg, "part must be in 0\\.\\.1");
  ferry_test::expect_error([] { Layout::block(-1, 2, 0); }, Errc::Arg, "global size must be >= 0");
  ferry_test::expect_error([] { Layout::box(std::int64_t{1} << 40, std::int64_t{1} << 40, 1, 1, 0); },
                           Errc::Overflow, "overflows 64-bit ids");
}

// A copy between two layouts' positions compiles to the same runs whether the
// destination's positions are given as a list or as their strided runs (as an rma
// destination sends them), and copies the same values; too irregular, it needs the list.
TEST(Layout, CopyRunsFromStridedPositionsMatchTheList) {
  using ferry::detail::CopyRuns;
  const std::int64_t n = 600;
  auto positions = [&](const Layout& layout) {
    std::vector<std::int64_t> where(static_cast<std::size_t>(n), -1);
    for (std::size_t i = 0; i < layout.ids().size(); ++i)
      where[static_cast<std::size_t>(layout.ids()[i])] = static_cast<std::int64_t>(i);
    return where;
  };
  const std::vector<Layout> layouts{Layout::block(n, 1, 0), Layout::box(30, 20, 1, 1, 0),
                                    Layout::round_robin(n, 1, 0), Layout::orange(30, 20, 1, 0),
                                    Layout::random(n, 1, 0, 7)};
  // Ids in the order a plan lists them: column by column of the 30 x 20 grid.
  std::vector<std::int64_t> ids;
  for (std::int64_t i = 0; i < 30; ++i)
    for (std::int64_t j = 0; j < 20; ++j) ids.push_back(j * 30 + i);
  std::vector<double> source(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < source.size(); ++i) source[i] = 0.5 + static_cast<double>(i);
  for (const Layout& from_layout : layouts)
    for (const Layout& to_layout : layouts) {
      const std::vector<std::int64_t> from_where = positions(from_layout);
      const std::vector<std::int64_t> to_where = positions(to_layout);
      std::vector<std::int64_t> from, to;
      for (std::int64_t id : ids) {
        from.push_back(from_where[static_cast<std::size_t>(id)]);
        to.push_back(to_where[static_cast<std::size_t>(id)]);
      }
      const std::vector<CopyRuns::Strided> runs = CopyRuns::strided_runs(to.data(), n);
      std::vector<std::int64_t> expanded;
      for (const CopyRuns::Strided& run : runs)
        for (std::int64_t k = 0; k < run.length; ++k) expanded.push_back(run.start + k * run.stride);
      EXPECT_EQ(expanded, to);
      const CopyRuns listed(from.data(), to.data(), n);
      const std::optional<CopyRuns> strided = CopyRuns::from_strided(from.data(), runs, n);
      ASSERT_EQ(strided.has_value(), listed.run_count() > 0);
      if (!strided) continue;
      EXPECT_EQ(strided->run_count(), listed.run_count());
      std::vector<double> a(source.size(), -1.0), b(source.size(), -1.0);
      listed.apply(reinterpret_cast<char*>(a.data()), reinterpret_cast<const char*>(source.data()),
                   sizeof(double));
      strided->apply(reinterpret_cast<char*>(b.data()), reinterpret_cast<const char*>(source.data()),
                     sizeof(double));
      EXPECT_EQ(a, b);
    }
}
