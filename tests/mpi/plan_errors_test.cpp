// Bad input to a plan or an exchange fails with the same code and message on every rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>
#include <vector>

#include "ferry/exchange.hpp"
#include "test_support.hpp"

using ferry::Datatype;
using ferry::Errc;
using ferry::Exchange;
using ferry::Layout;
using ferry_test::expect_error;
using ferry_test::expect_same_error_everywhere;
using ferry_test::rank_of;
using ferry_test::size_of;

namespace {

const std::vector<ferry::FieldSpec> kOneField{{Datatype::Float64, 1}};

TEST(PlanErrors, IdOutOfRangeOnOneRank) {
  const int p = size_of(MPI_COMM_WORLD), r = rank_of(MPI_COMM_WORLD);
  std::vector<std::int64_t> ids{r};
  if (r == p - 1) ids.push_back(100 + p);  // only the last rank is wrong
  expect_same_error_everywhere(
      [&] {
        Exchange(MPI_COMM_WORLD, Layout::points(100 + p, ids), Layout::block(100 + p, p, r),
                 kOneField, ferry_test::engine());
      },
      Errc::ArgRange, "source id " + std::to_string(100 + p) + " at position 1 on rank " +
                          std::to_string(p - 1) + " is outside the index space");
}

// Ids are checked by runs of consecutive ids: an id past the end that continues a run
// (n - 2, n - 1, n) and a negative one after a run are found at their positions, the
// source's before the destination's, as a check of every id in order finds them.
TEST(PlanErrors, IdOutOfRangeInsideARun) {
  const int p = size_of(MPI_COMM_WORLD), r = rank_of(MPI_COMM_WORLD);
  const std::int64_t n = 10 * p + 1;  // the last home covers fewer ids than the others
  std::vector<std::int64_t> src = Layout::block(n, p, r).ids();
  std::vector<std::int64_t> dst = Layout::block(n, p, r).ids();
  if (r == p - 1) {
    src.push_back(n);
    src.push_back(n + 1);
    dst.push_back(-1);
  }
  const std::string last = std::to_string(p - 1);
  // The last rank's positions past its block.
  const std::string position = std::to_string(Layout::block(n, p, p - 1).local_size());
  expect_same_error_everywhere(
      [&] {
        Exchange(MPI_COMM_WORLD, Layout::points(n, src), Layout::points(n, dst), kOneField,
                 ferry_test::engine());
      },
      Errc::ArgRange, "source id " + std::to_string(n) + " at position " + position +
                          " on rank " + last + " is outside the index space 0.." +
                          std::to_string(n - 1));
  src.resize(src.size() - 2);
  expect_same_error_everywhere(
      [&] {
        Exchange(MPI_COMM_WORLD, Layout::points(n, src), Layout::points(n, dst), kOneField,
                 ferry_test::engine());
      },
      Errc::ArgRange,
      "destination id -1 at position " + position + " on rank " + last + " is outside the index space");
}

TEST(PlanErrors, IdOwnedTwice) {
  const int p = size_of(MPI_COMM_WORLD), r = rank_of(MPI_COMM_WORLD);
  // Every rank holds its block, and rank 0 also claims id 7 (held by another rank when p > 1).
  std::vector<std::int64_t> ids = Layout::block(50, p, r).ids();
  if (r == 0 && p > 1) ids.push_back(49);
  if (p == 1) ids.push_back(7);
  expect_same_error_everywhere(
      [&] {
        Exchange(MPI_COMM_WORLD, Layout::points(50, ids), Layout::block(50, p, r), kOneField,
                 ferry_test::engine());
      },
      Errc::Duplicate, "id (49|7) is held by source ranks");
}

TEST(PlanErrors, DestinationIdWithoutSource) {
  const int p = size_of(MPI_COMM_WORLD), r = rank_of(MPI_COMM_WORLD);
  // Sources hold only even ids; destinations ask for everything.
  std::vector<std::int64_t> even;
  for (std::int64_t id = 2 * r; id < 40; id += 2 * p) even.push_back(id);
  expect_same_error_everywhere(
      [&] {
        Exchange(MPI_COMM_WORLD, Layout::points(40, even), Layout::block(40, p, r), kOneField,
                 ferry_test::engine());
      },
      Errc::Missing, "20 destination id\\(s\\) are held by no source rank, first: 1, 3, 5");
}

TEST(PlanErrors, GlobalSizesDisagree) {
  const int p = size_of(MPI_COMM_WORLD), r = rank_of(MPI_COMM_WORLD);
  const std::int64_t n = r == 0 ? 30 : 31;
  expect_same_error_everywhere(
      [&] {
        Exchange(MPI_COMM_WORLD, Layout::block(n, p, r), Layout::block(31, p, r), kOneField,
                 ferry_test::engine());
      },
      p > 1 ? Errc::Arg : Errc::Arg, "layouts disagree on the global size");
}

TEST(PlanErrors, UnknownEngineListsTheAvailableOnes) {
  const int p = size_of(MPI_COMM_WORLD), r = rank_of(MPI_COMM_WORLD);
  expect_same_error_everywhere(
      [&] {
        Exchange(MPI_COMM_WORLD, Layout::block(10, p, r), Layout::block(10, p, r), kOneField,
                 "neighbour");
      },
      Errc::Arg, "unknown engine \"neighbour\"; available in this build: p2p, alltoallv");
}

TEST(PlanErrors, FieldWithoutComponents) {
  const int p = size_of(MPI_COMM_WORLD), r = rank_of(MPI_COMM_WORLD);
  expect_same_error_everywhere(
      [&] {
        Exchange(MPI_COMM_WORLD, Layout::block(10, p, r), Layout::block(10, p, r),
                 {{Datatype::Int32, 0}}, ferry_test::engine());
      },
      Errc::Arg, "components must be >= 1; got 0");
}

TEST(PlanErrors, NoFields) {
  const int p = size_of(MPI_COMM_WORLD), r = rank_of(MPI_COMM_WORLD);
  expect_same_error_everywhere(
      [&] {
        Exchange(MPI_COMM_WORLD, Layout::block(10, p, r), Layout::block(10, p, r), {},
                 ferry_test::engine());
      },
      Errc::Arg, "no fields given");
}

TEST(PlanErrors, UnknownEngineOption) {
  const int p = size_of(MPI_COMM_WORLD), r = rank_of(MPI_COMM_WORLD);
  ferry::EngineOptions options;
  options.values["reorderr"] = "true";
  expect_same_error_everywhere(
      [&] {
        Exchange(MPI_COMM_WORLD, Layout::block(10, p, r), Layout::block(10, p, r), kOneField,
                 ferry_test::engine(), options);
      },
      Errc::Arg, ": unknown option \"reorderr\" \\(value \"true\"\\)");
}

TEST(ExchangeErrors, CloseIsIdempotentAndEndsTheExchange) {
  const int p = size_of(MPI_COMM_WORLD), r = rank_of(MPI_COMM_WORLD);
  Exchange exchange(MPI_COMM_WORLD, Layout::block(10, p, r), Layout::round_robin(10, p, r),
                    kOneField, ferry_test::engine());
  std::vector<double> src(static_cast<std::size_t>(exchange.plan().src_local_size()), 1.0);
  std::vector<double> dst(static_cast<std::size_t>(exchange.plan().dst_local_size()), 0.0);
  const void* from[] = {src.data()};
  void* to[] = {dst.data()};
  exchange.begin(from, to);
  expect_error([&] { exchange.close(); }, Errc::State, "begin\\(\\) has not been completed");
  exchange.end();
  exchange.close();
  exchange.close();
  expect_error([&] { exchange.execute(src.data(), dst.data()); }, Errc::State,
               "Exchange::execute: the exchange was closed");
  EXPECT_EQ(exchange.engine_name().empty(), false);
  EXPECT_GE(exchange.traffic().messages, 0);
}

TEST(ExchangeErrors, EndWithoutBegin) {
  const int p = size_of(MPI_COMM_WORLD), r = rank_of(MPI_COMM_WORLD);
  Exchange exchange(MPI_COMM_WORLD, Layout::block(10, p, r), Layout::block(10, p, r), kOneField,
                    ferry_test::engine());
  expect_error([&] { exchange.end(); }, Errc::State, "no exchange in flight");
}

}  // namespace
