// Sources and destinations that describe their fields differently fail at set-up, on
// every rank with the same message naming the field and both declarations, for every
// engine: before this check, two-sided engines failed with an MPI error on one rank
// only and rma delivered wrong values without any error.
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
using ferry_test::expect_same_error_everywhere;
using ferry_test::rank_of;
using ferry_test::size_of;

namespace {

// Sources on the first half of the ranks, destinations on the others.
struct Halves {
  bool source;
  Layout src, dst;
};
Halves halves(std::int64_t n) {
  const int p = size_of(MPI_COMM_WORLD), r = rank_of(MPI_COMM_WORLD);
  const int h = p / 2;
  const bool source = r < h;
  return {source, source ? Layout::block(n, h, r) : Layout::none(n),
          source ? Layout::none(n) : Layout::block(n, p - h, r - h)};
}

TEST(FieldErrors, SidesDeclareDifferentTypes) {
  if (size_of(MPI_COMM_WORLD) < 2) GTEST_SKIP() << "needs a source and a destination rank";
  const Halves s = halves(40);
  const Datatype type = s.source ? Datatype::Float64 : Datatype::Float32;
  expect_same_error_everywhere(
      [&] { Exchange(MPI_COMM_WORLD, s.src, s.dst, {{type, 2}}, ferry_test::engine()); },
      Errc::Arg,
      "Exchange: the ranks describe field 0 differently: float64 x 2 on rank 0 \\(a source\\) "
      "but float32 x 2 on rank " + std::to_string(size_of(MPI_COMM_WORLD) / 2) +
          " \\(a destination\\)\\. Source and destination must agree");
}

TEST(FieldErrors, SidesDeclareDifferentComponents) {
  if (size_of(MPI_COMM_WORLD) < 2) GTEST_SKIP() << "needs a source and a destination rank";
  const Halves s = halves(40);
  const int components = s.source ? 3 : 1;
  expect_same_error_everywhere(
      [&] {
        Exchange(MPI_COMM_WORLD, s.src, s.dst, {{Datatype::Int32, 1}, {Datatype::Int32, components}},
                 ferry_test::engine());
      },
      Errc::Arg, "field 1 differently: int32 x 1 on rank " +
                     std::to_string(size_of(MPI_COMM_WORLD) / 2) +
                     " \\(a destination\\) but int32 x 3 on rank 0 \\(a source\\)");
}

TEST(FieldErrors, SidesDeclareDifferentFieldCounts) {
  if (size_of(MPI_COMM_WORLD) < 2) GTEST_SKIP() << "needs a source and a destination rank";
  const Halves s = halves(40);
  std::vector<ferry::FieldSpec> fields{{Datatype::Float64, 1}};
  if (s.source) fields.push_back({Datatype::Float64, 1});
  expect_same_error_everywhere(
      [&] { Exchange(MPI_COMM_WORLD, s.src, s.dst, fields, ferry_test::engine()); },
      Errc::Arg, "field 1 differently: no field on rank " +
                     std::to_string(size_of(MPI_COMM_WORLD) / 2) +
                     " \\(a destination\\) but float64 x 1 on rank 0 \\(a source\\)");
}

// Ranks that run different engines (one read from the environment on some ranks only)
// would wait for each other's messages for ever: they fail at set-up instead, with both
// engines named.
TEST(FieldErrors, SidesPassDifferentEngines) {
  if (size_of(MPI_COMM_WORLD) < 2) GTEST_SKIP() << "needs a source and a destination rank";
  const Halves s = halves(40);
  const std::string other = ferry_test::engine() == "p2p" ? "alltoallv" : "p2p";
  expect_same_error_everywhere(
      [&] {
        Exchange(MPI_COMM_WORLD, s.src, s.dst, {{Datatype::Float64, 1}},
                 s.source ? ferry_test::engine() : other);
      },
      Errc::Arg,
      "Exchange: the ranks pass different engines: \"[a-z0-9:_]+\" on rank [0-9]+ but "
      "\"[a-z0-9:_]+\" on rank [0-9]+\\. Pass the same engine on every rank");
}

}  // namespace
