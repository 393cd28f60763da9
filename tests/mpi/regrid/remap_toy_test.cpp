// Remap on toy matrices: the worked example of docs/user/regrid.md to the last value,
// weights without links, and bad layouts, fields and options refused with the same
// error on every rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ferry/error.hpp"
#include "ferry/remap.hpp"
#include "ferry/weights.hpp"
#include "regrid_test_files.hpp"
#include "test_support.hpp"

using ferry::Datatype;
using ferry::Errc;
using ferry::FieldSpec;
using ferry::Layout;
using ferry::MapOn;
using ferry::Remap;
using ferry::RemapMode;
using ferry::RemapOptions;
using ferry::WeightLink;
using ferry::Weights;
using ferry_test::rank_of;
using ferry_test::size_of;

namespace {

RemapOptions options_for(MapOn map_on, RemapMode mode) {
  RemapOptions o;
  o.map_on = map_on;
  o.mode = mode;
  o.engine = ferry_test::engine();
  o.engine_options = ferry_test::engine_options();
  return o;
}

// The worked example of docs/user/regrid.md: results, rows and values sent.
TEST(RemapToy, WorkedExampleOfTheGuide) {
  const int rank = rank_of(MPI_COMM_WORLD);
  if (size_of(MPI_COMM_WORLD) != 2) GTEST_SKIP() << "the example runs on two ranks";
  std::vector<WeightLink> links;
  if (rank == 0)
    links = {{0, 0, 0.5, 0}, {0, 1, 0.5, 1}, {1, 1, 0.25, 2}, {1, 2, 0.75, 3}, {2, 3, 1.0, 4}};
  const Weights w = Weights::from_links(MPI_COMM_WORLD, 4, 3, links);
  const Layout src = Layout::block(4, 2, rank);
  const Layout dst = rank == 0 ? Layout::points(3, {0}) : Layout::points(3, {1, 2});
  struct Expected {
    MapOn map_on;
    RemapMode mode;
    std::vector<std::int64_t> rows[2];
    std::int64_t values_sent[2];
  };
  const Expected cases[] = {
      {MapOn::Dst, RemapMode::Bfb, {{0}, {1, 2}}, {1, 0}},
      {MapOn::Dst, RemapMode::Sum, {{0}, {1, 2}}, {1, 0}},
      {MapOn::Src, RemapMode::Bfb, {{0, 1}, {2}}, {1, 1}},
      {MapOn::Src, RemapMode::Sum, {{0}, {1, 2}}, {1, 0}},
  };
  for (const Expected& e : cases) {
    Remap remap(MPI_COMM_WORLD, w, src, dst, {{Datatype::Float64, 1}},
                options_for(e.map_on, e.mode));
    const std::vector<double> x =
        rank == 0 ? std::vector<double>{10, 20} : std::vector<double>{30, 40};
    std::vector<double> y(dst.ids().size());
    const double* in = x.data();
    double* out = y.data();
    remap.apply(&in, &out);
    const std::vector<double> want =
        rank == 0 ? std::vector<double>{15} : std::vector<double>{27.5, 40};
    EXPECT_EQ(y, want);
    EXPECT_EQ(remap.rows(), e.rows[rank]);
    // Engines may add protocol bytes; p2p sends exactly the values.
    if (ferry_test::engine() == "p2p")
      EXPECT_EQ(remap.traffic().bytes, 8 * e.values_sent[rank]);
  }
}

// Weights without a single link: every destination point keeps the fill value.
TEST(RemapToy, NoLinksGiveTheFillValue) {
  const Weights w = Weights::from_links(MPI_COMM_WORLD, 5, 7, {});
  const int me = rank_of(MPI_COMM_WORLD);
  const int p = size_of(MPI_COMM_WORLD);
  for (MapOn map_on : {MapOn::Dst, MapOn::Src})
    for (RemapMode mode : {RemapMode::Bfb, RemapMode::Sum}) {
      RemapOptions o = options_for(map_on, mode);
      o.fill_value = -3;
      const Layout src = Layout::round_robin(5, p, me);
      const Layout dst = Layout::round_robin(7, p, (me + 1) % p);
      Remap remap(MPI_COMM_WORLD, w, src, dst, {{Datatype::Float32, 2}}, o);
      const std::vector<float> x(static_cast<std::size_t>(src.local_size()) * 2, 1.0F);
      std::vector<float> y(static_cast<std::size_t>(dst.local_size()) * 2, 0.0F);
      const void* in = x.data();
      void* out = y.data();
      remap.apply(&in, &out);
      EXPECT_EQ(y, std::vector<float>(y.size(), -3.0F));
      EXPECT_EQ(remap.traffic().messages, 0);
    }
}

// Destination layouts that ask only for rows of their own weight block keep the rows
// where they are held (no rendezvous with map_on dst, or on one rank); layouts that ask
// across blocks go through the rendezvous. Both give the serial sums to the bit.
TEST(RemapToy, RowsAskedAtTheirHomeGiveTheSameBits) {
  const int me = rank_of(MPI_COMM_WORLD);
  const int p = size_of(MPI_COMM_WORLD);
  // 7 rows over 5 source points; rows 0 and 3 have no links.
  const auto link_count = [](std::int64_t row) { return row % 3; };
  const auto col = [](std::int64_t row, std::int64_t k) { return (row * 3 + k) % 5; };
  const auto weight = [](std::int64_t row, std::int64_t k) {
    return 0.1 * double(k + 1) + 0.37 * double(row);
  };
  std::vector<WeightLink> links;
  if (me == 0)
    for (std::int64_t row = 0; row < 7; ++row)
      for (std::int64_t k = 0; k < link_count(row); ++k)
        links.push_back({row, col(row, k), weight(row, k), row * 10 + k});
  const Weights w = Weights::from_links(MPI_COMM_WORLD, 5, 7, links);
  const auto x_of = [](std::int64_t id) { return 1.0 + 0.7 * double(id); };
  const Layout src = Layout::round_robin(5, p, me);
  std::vector<double> x;
  for (std::int64_t id : src.ids()) x.push_back(x_of(id));

  // At home: this rank's block but its first row, in descending order.
  std::vector<std::int64_t> own = Layout::block(7, p, me).ids();
  if (!own.empty()) own.erase(own.begin());
  const std::vector<std::int64_t> at_home(own.rbegin(), own.rend());
  const Layout layouts[] = {Layout::points(7, at_home), Layout::round_robin(7, p, (me + 1) % p)};
  for (const Layout& dst : layouts)
    for (MapOn map_on : {MapOn::Dst, MapOn::Src}) {
      SCOPED_TRACE(std::string(&dst == &layouts[0] ? "at home, " : "across blocks, ") +
                   (map_on == MapOn::Dst ? "dst" : "src"));
      RemapOptions o = options_for(map_on, RemapMode::Bfb);
      o.fill_value = -1;
      Remap remap(MPI_COMM_WORLD, w, src, dst, {{Datatype::Float64, 1}}, o);
      std::vector<double> y(dst.ids().size());
      const double* in = x.data();
      double* out = y.data();
      remap.apply(&in, &out);
      for (std::size_t i = 0; i < y.size(); ++i) {
        const std::int64_t row = dst.ids()[i];
        double want = link_count(row) == 0 ? -1 : 0;
        for (std::int64_t k = 0; k < link_count(row); ++k)
          want += weight(row, k) * x_of(col(row, k));
        EXPECT_EQ(y[i], want) << "destination point " << row;
      }
      if (&dst == &layouts[0] && (map_on == MapOn::Dst || p == 1))
        EXPECT_EQ(remap.rows(), own);
    }
}

// 6 source points onto 4 destination rows, two links each; only row 1 reads point 5.
class RemapErrors : public testing::Test {
 protected:
  void SetUp() override {
    std::vector<WeightLink> links;
    if (me_ == 0)
      for (std::int64_t k = 0; k < 8; ++k) links.push_back({k / 2, (k * 5 + 1) % 6, 0.5, k});
    weights_ = Weights::from_links(MPI_COMM_WORLD, 6, 4, links);
  }

  void expect_remap_error(const Layout& src, const Layout& dst, std::vector<FieldSpec> fields,
                          const RemapOptions& options, Errc code, const std::string& pattern) {
    ferry_test::expect_error(
        [&] { Remap(MPI_COMM_WORLD, weights_, src, dst, fields, options); }, code, pattern);
  }

  const int me_ = rank_of(MPI_COMM_WORLD);
  const int p_ = size_of(MPI_COMM_WORLD);
  Weights weights_;
  Layout src_ = Layout::block(6, p_, me_);
  Layout dst_ = Layout::block(4, p_, me_);
  std::vector<FieldSpec> one_ = {{Datatype::Float64, 1}};
};

TEST_F(RemapErrors, SourceLayoutOfAnotherGrid) {
  expect_remap_error(Layout::block(7, p_, me_), dst_, one_, {}, Errc::Arg,
                     "Remap: the source layout on rank \\d+ has global size 7, the weights' "
                     "source grid has 6 points");
}

TEST_F(RemapErrors, DestinationIdOutOfRange) {
  std::vector<std::int64_t> ids = dst_.ids();
  if (me_ == p_ - 1) ids.push_back(4);
  expect_remap_error(src_, Layout::points(4, ids), one_, {}, Errc::ArgRange,
                     "Remap: destination id 4 at position \\d+ on rank \\d+ is outside the "
                     "grid 0..3");
}

TEST_F(RemapErrors, SourcePointHeldByNoRank) {
  // Nobody holds source point 5.
  const Layout src = me_ == 0 ? Layout::points(6, {0, 1, 2, 3, 4}) : Layout::none(6);
  RemapOptions on_src;
  on_src.map_on = MapOn::Src;
  expect_remap_error(src, dst_, one_, on_src, Errc::Missing,
                     "Remap: 1 link\\(s\\) of the weights read source points that no rank of "
                     "the source layout holds, first: 5 \\(row 1\\)");
  expect_remap_error(src, dst_, one_, {}, Errc::Missing,
                     "Remap: moving source values to the ranks that apply the rows .*held by no "
                     "source rank, first: 5");
}

TEST_F(RemapErrors, SourcePointHeldTwice) {
  const Layout src = me_ == 0 ? Layout::points(6, {0, 1, 2, 3, 4, 5, 3}) : Layout::none(6);
  RemapOptions on_src;
  on_src.map_on = MapOn::Src;
  expect_remap_error(src, dst_, one_, on_src, Errc::Duplicate,
                     "Remap: source point 3 is held by source ranks 0 and 0");
  expect_remap_error(src, dst_, one_, {}, Errc::Duplicate, "id 3 is held by source ranks 0 and 0");
}

TEST_F(RemapErrors, WeightsOfAnotherCommunicator) {
  if (p_ < 2) GTEST_SKIP() << "needs two ranks";
  MPI_Comm reversed = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, 0, p_ - me_, &reversed);
  ferry_test::expect_error(
      [&] { Remap(reversed, weights_, src_, dst_, one_); }, Errc::Arg,
      "Remap: the weights are distributed over \\d+ ranks \\(this is part \\d+\\), the "
      "communicator has \\d+ \\(this is rank \\d+\\)");
  MPI_Comm_free(&reversed);
}

TEST_F(RemapErrors, IntegerField) {
  expect_remap_error(src_, dst_, {{Datatype::Float64, 1}, {Datatype::Int32, 1}}, {}, Errc::Arg,
                     "Remap: field 1 has type int32; remapping sums weighted values");
}

TEST_F(RemapErrors, MaskOfWrongLength) {
  RemapOptions options;
  options.dst_mask.assign(static_cast<std::size_t>(dst_.local_size()) + 1, 0);
  expect_remap_error(src_, dst_, one_, options, Errc::ArgSize,
                     "Remap: dst_mask on rank \\d+ has \\d+ flags, the destination layout "
                     "\\d+ points");
}

TEST_F(RemapErrors, UnknownEngine) {
  RemapOptions options;
  options.engine = "neighbour";
  expect_remap_error(src_, dst_, one_, options, Errc::Arg, "unknown engine \"neighbour\"");
}

TEST_F(RemapErrors, SettingsThatDifferBetweenRanks) {
  if (p_ < 2) GTEST_SKIP() << "needs two ranks";
  const bool last = me_ == p_ - 1;
  const auto expect_everywhere = [&](std::vector<FieldSpec> fields, const RemapOptions& options,
                                     const std::string& pattern) {
    ferry_test::expect_same_error_everywhere(
        [&] { Remap(MPI_COMM_WORLD, weights_, src_, dst_, fields, options); }, Errc::Arg,
        pattern + ". Pass the same map_on, mode and fields on every rank");
  };
  RemapOptions options;
  options.mode = last ? RemapMode::Sum : RemapMode::Bfb;
  expect_everywhere(one_, options, "Remap: the ranks pass different mode \\(from bfb to sum\\)");
  std::vector<FieldSpec> fields = one_;
  if (last) fields.push_back({Datatype::Float32, 2});
  expect_everywhere(fields, {},
                    "Remap: the ranks pass different numbers of fields \\(from 1 to 2\\)");
  fields = {{last ? Datatype::Float32 : Datatype::Float64, 1}};
  expect_everywhere(fields, {}, "Remap: the ranks pass fields of different types or components");
}

TEST_F(RemapErrors, DoubleApplyOnFloatFields) {
  Remap remap(MPI_COMM_WORLD, weights_, src_, dst_, {{Datatype::Float32, 1}});
  const double* in = nullptr;
  double* out = nullptr;
  ferry_test::expect_error([&] { remap.apply(&in, &out); }, Errc::Arg,
                           "Remap::apply: field 0 is float32, but double arrays were given");
}

}  // namespace
