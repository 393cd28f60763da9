#include <gtest/gtest.h>

#include <algorithm>
#include <set>

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
