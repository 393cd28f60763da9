// The distributed rendezvous (src/core/rendezvous.hpp): what route() delivers and in
// which order, and the home ranks of ids.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/rendezvous.hpp"
#include "test_support.hpp"

namespace {

struct Record {
  std::int64_t from;  // sending rank
  std::int64_t seq;   // position in the sender's list
  std::int32_t to;
  std::int32_t pad = 0;
};

// Rank r sends 3r + 5 records, record k to rank (7k + r) % p: uneven counts, some
// ranks sending nothing to some others, destinations interleaved.
std::vector<Record> records_of(int r, int p) {
  std::vector<Record> records;
  for (std::int64_t k = 0; k < 3 * r + 5; ++k)
    records.push_back({r, k, static_cast<std::int32_t>((7 * k + r) % p)});
  return records;
}

// Rank r's records_of, grouped by destination rank (each destination's in their order):
// records that route() sends as they are, without sorting them.
std::vector<Record> grouped_records_of(int r, int p) {
  std::vector<Record> records = records_of(r, p);
  std::stable_sort(records.begin(), records.end(),
                   [](const Record& a, const Record& b) { return a.to < b.to; });
  return records;
}

// Checks that rank `me` received, from every sender q in q's order, the records of
// made(q, p) sent to it, and how many from each.
template <class Made>
void expect_delivered(const std::vector<Record>& received, const std::vector<int>& from, int me,
                      int p, Made made) {
  std::vector<Record> expected;
  std::vector<int> expected_from(static_cast<std::size_t>(p), 0);
  for (int q = 0; q < p; ++q)
    for (const Record& r : made(q, p))
      if (r.to == me) {
        expected.push_back(r);
        ++expected_from[static_cast<std::size_t>(q)];
      }
  ASSERT_EQ(received.size(), expected.size()) << "rank " << me;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(received[i].from, expected[i].from) << "record " << i << " on rank " << me;
    EXPECT_EQ(received[i].seq, expected[i].seq) << "record " << i << " on rank " << me;
  }
  EXPECT_EQ(from, expected_from);
}

TEST(Rendezvous, DeliversEveryRecordGroupedBySenderInOrder) {
  const ferry::Comm comm = ferry::Comm::dup(MPI_COMM_WORLD);
  std::vector<int> from;
  const std::vector<Record> received = ferry::detail::route(
      comm, records_of(comm.rank(), comm.size()), [](const Record& r) { return r.to; }, &from);
  expect_delivered(received, from, comm.rank(), comm.size(), records_of);
}

TEST(Rendezvous, RecordsGroupedByDestinationTravelAsTheyAre) {
  const ferry::Comm comm = ferry::Comm::dup(MPI_COMM_WORLD);
  auto to = [](const Record& r) { return r.to; };
  std::vector<Record> records = grouped_records_of(comm.rank(), comm.size());
  std::vector<int> from_copied;
  std::vector<int> from_moved;
  const std::vector<Record> copied = ferry::detail::route(comm, records, to, &from_copied);
  const std::vector<Record> moved =
      ferry::detail::route(comm, std::move(records), to, &from_moved);
  EXPECT_EQ(records.capacity(), 0u);
  expect_delivered(copied, from_copied, comm.rank(), comm.size(), grouped_records_of);
  expect_delivered(moved, from_moved, comm.rank(), comm.size(), grouped_records_of);
}

TEST(Rendezvous, MovedRecordsAreReleasedAndTheResultIsTheSame) {
  const ferry::Comm comm = ferry::Comm::dup(MPI_COMM_WORLD);
  auto to = [](const Record& r) { return r.to; };
  std::vector<Record> records = records_of(comm.rank(), comm.size());
  const std::vector<Record> copied = ferry::detail::route(comm, records, to);
  const std::vector<Record> moved = ferry::detail::route(comm, std::move(records), to);
  EXPECT_EQ(records.capacity(), 0u);
  ASSERT_EQ(moved.size(), copied.size());
  for (std::size_t i = 0; i < moved.size(); ++i) EXPECT_EQ(moved[i].seq, copied[i].seq);
}

TEST(Rendezvous, HomesCoverTheIdsInIncreasingRanges) {
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{10}, std::int64_t{3'000'000'000},
                               std::numeric_limits<std::int64_t>::max()})
    for (const int p : {1, 3, 4, 7}) {
      const ferry::detail::IdHomes homes(n, p);
      EXPECT_EQ(homes.home(0), 0);
      EXPECT_LT(homes.home(n - 1), p) << "n " << n << ", p " << p;
      for (int r = 0; r < p && homes.first(r) < n; ++r) {
        EXPECT_EQ(homes.home(homes.first(r)), r) << "n " << n << ", p " << p;
        if (homes.first(r) > 0) EXPECT_EQ(homes.home(homes.first(r) - 1), r - 1);
      }
    }
}

}  // namespace
