// Plans are built from runs of consecutive ids. Each case checks the plan against one
// computed point by point from every rank's ids (same peers, same (peer, id) order,
// same self copies) and exchanges values checked against their global ids.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "ferry/exchange.hpp"
#include "test_support.hpp"

using ferry::Layout;
using ferry_test::rank_of;
using ferry_test::size_of;

namespace {

using Ids = std::vector<std::int64_t>;

// Every rank's ids, gathered on every rank.
std::vector<Ids> all_ids(const Ids& mine) {
  const int p = size_of(MPI_COMM_WORLD);
  int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(p)), displs(static_cast<std::size_t>(p) + 1, 0);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  for (std::size_t q = 0; q < counts.size(); ++q) displs[q + 1] = displs[q] + counts[q];
  Ids flat(static_cast<std::size_t>(displs.back()));
  MPI_Allgatherv(mine.data(), count, MPI_INT64_T, flat.data(), counts.data(), displs.data(),
                 MPI_INT64_T, MPI_COMM_WORLD);
  std::vector<Ids> out;
  for (std::size_t q = 0; q < counts.size(); ++q)
    out.emplace_back(flat.begin() + displs[q], flat.begin() + displs[q + 1]);
  return out;
}

// One side of the plan as a point-by-point build gives it: per peer, in (id,
// destination position) order.
struct ExpectedSide {
  std::vector<int> peers;
  std::vector<std::int64_t> offsets{0};
  Ids index;
};

void expect_side(const ferry::PlanSide& side, const ExpectedSide& expected, const char* what) {
  const int r = rank_of(MPI_COMM_WORLD);
  EXPECT_EQ(side.peers, expected.peers) << what << " peers on rank " << r;
  EXPECT_EQ(side.offsets, expected.offsets) << what << " offsets on rank " << r;
  EXPECT_EQ(side.index, expected.index) << what << " index on rank " << r;
}

// Builds the plan and an exchange for src -> dst and checks both.
void check(std::int64_t n, const Ids& src_ids, const Ids& dst_ids) {
  const int p = size_of(MPI_COMM_WORLD), r = rank_of(MPI_COMM_WORLD);
  const std::vector<Ids> sources = all_ids(src_ids), destinations = all_ids(dst_ids);
  std::map<std::int64_t, std::pair<int, std::int64_t>> source_of;  // id -> (rank, local)
  for (int q = 0; q < p; ++q)
    for (std::size_t i = 0; i < sources[q].size(); ++i)
      source_of[sources[q][i]] = {q, static_cast<std::int64_t>(i)};

  // Matched points as (source rank, destination rank, id, destination local, source local).
  std::vector<std::tuple<int, int, std::int64_t, std::int64_t, std::int64_t>> matched;
  for (int q = 0; q < p; ++q)
    for (std::size_t j = 0; j < destinations[q].size(); ++j) {
      const std::int64_t id = destinations[q][j];
      const auto [s, local] = source_of.at(id);
      if (s == r || q == r) matched.emplace_back(s, q, id, static_cast<std::int64_t>(j), local);
    }
  ExpectedSide send, recv;
  Ids self_src, self_dst;
  for (int peer = 0; peer < p; ++peer) {
    std::vector<std::tuple<std::int64_t, std::int64_t, std::int64_t>> out, in;  // id, dst, src
    for (const auto& [s, q, id, j, local] : matched) {
      if (s == r && q == peer) out.emplace_back(id, j, local);
      if (q == r && s == peer) in.emplace_back(id, j, local);
    }
    std::sort(out.begin(), out.end());
    std::sort(in.begin(), in.end());
    if (peer == r) {
      for (const auto& [id, j, local] : out) self_src.push_back(local), self_dst.push_back(j);
      continue;
    }
    if (!out.empty()) {
      send.peers.push_back(peer);
      for (const auto& point : out) send.index.push_back(std::get<2>(point));
      send.offsets.push_back(static_cast<std::int64_t>(send.index.size()));
    }
    if (!in.empty()) {
      recv.peers.push_back(peer);
      for (const auto& point : in) recv.index.push_back(std::get<1>(point));
      recv.offsets.push_back(static_cast<std::int64_t>(recv.index.size()));
    }
  }
  if (send.peers.empty()) send.offsets = {0};
  if (recv.peers.empty()) recv.offsets = {0};

  const Layout src = Layout::points(n, src_ids), dst = Layout::points(n, dst_ids);
  const ferry::Comm comm = ferry::Comm::dup(MPI_COMM_WORLD);
  const ferry::Plan plan = ferry::Plan::build(comm, src, dst);
  expect_side(plan.send(), send, "send");
  expect_side(plan.recv(), recv, "recv");
  EXPECT_EQ(plan.self_src(), self_src) << "self sources on rank " << r;
  EXPECT_EQ(plan.self_dst(), self_dst) << "self destinations on rank " << r;

  ferry::Exchange exchange(MPI_COMM_WORLD, src, dst, {{ferry::Datatype::Int64, 1}},
                           ferry_test::engine());
  auto value_of = [](std::int64_t id) { return id ^ std::int64_t{0x5DEECE66D1234567}; };
  Ids out_values(src_ids.size()), in_values(dst_ids.size(), -1);
  for (std::size_t i = 0; i < src_ids.size(); ++i) out_values[i] = value_of(src_ids[i]);
  const void* in[] = {out_values.data()};
  void* out[] = {in_values.data()};
  exchange.execute(in, out);
  for (std::size_t j = 0; j < dst_ids.size(); ++j)
    EXPECT_EQ(in_values[j], value_of(dst_ids[j]))
        << "id " << dst_ids[j] << " at position " << j << " on rank " << r;
}

Ids range(std::int64_t first, std::int64_t count) {
  Ids ids(static_cast<std::size_t>(count));
  for (std::int64_t k = 0; k < count; ++k) ids[static_cast<std::size_t>(k)] = first + k;
  return ids;
}

Ids concat(std::initializer_list<Ids> parts) {
  Ids ids;
  for (const Ids& part : parts) ids.insert(ids.end(), part.begin(), part.end());
  return ids;
}

TEST(PlanRuns, BoxRowsToRoundRobin) {
  const int p = size_of(MPI_COMM_WORLD), r = rank_of(MPI_COMM_WORLD);
  // A 37 x 11 grid in boxes: each box row is a run, which homes split further.
  const std::int64_t nx = 37, ny = 11, n = nx * ny;
  const int px = p % 2 == 0 ? 2 : 1;
  check(n, Layout::box(nx, ny, px, p / px, r).ids(), Layout::round_robin(n, p, r).ids());
  check(n, Layout::round_robin(n, p, r).ids(), Layout::block(n, p, (r + 1) % p).ids());
}

TEST(PlanRuns, OneRankHoldsTheWholeGridAsOneRun) {
  const int p = size_of(MPI_COMM_WORLD), r = rank_of(MPI_COMM_WORLD);
  const std::int64_t n = 101;
  // Destinations: pieces of 3 to 9 ids in reverse order, every rank, some ranks empty.
  Ids dst;
  if (r % 2 == 0 || p == 1)
    for (std::int64_t first = 100 - 7 * r; first >= 0; first -= 9 * p)
      for (const std::int64_t id : range(std::max<std::int64_t>(0, first - 3 - r), 4 + r))
        if (id <= 100) dst.push_back(id);
  check(n, r == 0 ? range(0, n) : Ids{}, dst);
}

TEST(PlanRuns, SourceRunOverlapsSeveralDestinationRuns) {
  const int p = size_of(MPI_COMM_WORLD), r = rank_of(MPI_COMM_WORLD);
  const std::int64_t n = 240;
  // Sources: long runs, out of order; destinations: runs of 5 from all over, shuffled.
  Ids src;
  for (std::int64_t first = 240 - 24 * (r + 1); first >= 0; first -= 24 * p)
    src = concat({src, range(first, 24)});
  Ids dst;
  for (std::int64_t k = 0; k < 48; ++k)
    if ((k * 7) % p == r) dst = concat({dst, range(((k * 29) % 48) * 5, 5)});
  check(n, src, dst);
}

TEST(PlanRuns, UnsortedAndRepeatedDestinationIds) {
  const int p = size_of(MPI_COMM_WORLD), r = rank_of(MPI_COMM_WORLD);
  const std::int64_t n = 64;
  // Every rank asks for overlapping runs, some ids twice on the same rank, and for ids
  // other ranks ask for too.
  const Ids dst = concat({range(10 + r, 12), range(3, 5), range(15, 20), {40, 12, 41, 12}});
  check(n, Layout::block(n, p, p - 1 - r).ids(), dst);
}

TEST(PlanRuns, SparseRunsAcrossHomesNearTwoToTheSixtyThree) {
  const int p = size_of(MPI_COMM_WORLD), r = rank_of(MPI_COMM_WORLD);
  const std::int64_t n = std::numeric_limits<std::int64_t>::max();
  const std::int64_t width = n / p + (n % p != 0 ? 1 : 0);
  // Rank r holds 8 ids on each side of the boundary before home r + 1 (and the last 8
  // ids); destinations ask for the next rank's, reversed in pieces.
  auto held = [&](int q) {
    return q + 1 < p ? range((q + 1) * width - 8, 16) : range(n - 8, 8);
  };
  const Ids mine = held((r + 1) % p);
  check(n, held(r), concat({Ids(mine.begin() + mine.size() / 2, mine.end()),
                            Ids(mine.begin(), mine.begin() + mine.size() / 2)}));
}

TEST(PlanRuns, ExchangesShareTheCopiesOfOnePlan) {
  const int p = size_of(MPI_COMM_WORLD), r = rank_of(MPI_COMM_WORLD);
  const std::int64_t n = 37 * 11;
  const Layout src = Layout::block(n, p, r), dst = Layout::round_robin(n, p, (r + 1) % p);
  const ferry::Comm comm = ferry::Comm::dup(MPI_COMM_WORLD);
  auto plan = std::make_shared<const ferry::Plan>(ferry::Plan::build(comm, src, dst));
  // A copy shares the plan's cache but holds index lists of its own: its exchange must
  // not read the lists of the original, destroyed first.
  auto copy = std::make_shared<const ferry::Plan>(*plan);
  auto value_of = [](std::int64_t id, int field) { return id * 1000 + field; };
  auto exchange_and_check = [&](ferry::Exchange& exchange, int field) {
    Ids out_values(src.ids().size()), in_values(dst.ids().size(), -1);
    for (std::size_t i = 0; i < out_values.size(); ++i) out_values[i] = value_of(src.ids()[i], field);
    const void* in[] = {out_values.data()};
    void* out[] = {in_values.data()};
    exchange.execute(in, out);
    for (std::size_t j = 0; j < in_values.size(); ++j)
      EXPECT_EQ(in_values[j], value_of(dst.ids()[j], field))
          << "field " << field << ", id " << dst.ids()[j] << " on rank " << r;
  };
  const std::vector<ferry::FieldSpec> one{{ferry::Datatype::Int64, 1}};
  ferry::Exchange from_copy(MPI_COMM_WORLD, copy, one, ferry_test::engine());
  {
    ferry::Exchange first(MPI_COMM_WORLD, plan, one, ferry_test::engine());
    ferry::Exchange second(MPI_COMM_WORLD, plan, one, ferry_test::engine());
    exchange_and_check(first, 1);
    exchange_and_check(second, 2);
  }
  plan.reset();
  exchange_and_check(from_copy, 3);
}

}  // namespace
