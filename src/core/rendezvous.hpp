// The distributed rendezvous: records sent to the ranks that handle them with one
// all-to-all, and the home rank of a global id.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "ferry/comm.hpp"

namespace ferry::detail {

/// The home ranks of ids 0..n-1 on p ranks: consecutive ranges of ceil(n/p) ids, so
/// homes increase with the id. A home keeps only the records registered with it,
/// never an array over its range (which may be 2^63 / p ids wide).
class IdHomes {
 public:
  IdHomes(std::int64_t n, int p) : chunk_(n / p + (n % p != 0 ? 1 : 0)) {
    if (chunk_ < 1) chunk_ = 1;
  }
  /// The home of `id` (0 <= id < n).
  int home(std::int64_t id) const noexcept { return static_cast<int>(id / chunk_); }
  /// The first id `rank` is home for.
  std::int64_t first(int rank) const noexcept { return rank * chunk_; }
  /// How many ids one home covers (the last covers fewer).
  std::int64_t width() const noexcept { return chunk_; }

 private:
  std::int64_t chunk_;
};

/// Send and receive counts of one route, in records per rank.
struct RouteCounts {
  std::vector<int> send, send_displs, recv, recv_displs;  // displs: p + 1 entries
};

/// Collective over `comm`: receive counts and displacements for `counts.send`
/// (one MPI_Alltoall). Errc::Overflow if a rank would receive more than INT_MAX records.
void exchange_route_counts(const Comm& comm, RouteCounts& counts);
/// Collective over `comm`: the records themselves (one MPI_Alltoallv of
/// `record_bytes`-byte records).
void exchange_route_records(const Comm& comm, const RouteCounts& counts, const void* send,
                            void* recv, std::size_t record_bytes);

/// Collective over `comm`: sends records[i] to rank dest(records[i]) and returns what
/// this rank receives, grouped by sending rank in rank order, each sender's records in
/// the order it gave them. That order is what makes every rendezvous deterministic.
/// `received_from`, if given, gets the number of records from each rank.
template <class Record, class Dest>
std::vector<Record> route(const Comm& comm, const std::vector<Record>& records, Dest dest,
                          std::vector<int>* received_from = nullptr);

/// The same, releasing `records` (before the received records are allocated when it
/// sorts them), so the peak holds two copies of the data instead of three. Records
/// already grouped by destination rank, in rank order, are sent as they are in
/// either form, without a sorting copy.
template <class Record, class Dest>
std::vector<Record> route(const Comm& comm, std::vector<Record>&& records, Dest dest,
                          std::vector<int>* received_from = nullptr);

// ---------------------------------------------------------------------------

namespace rendezvous_detail {

void check_record_count(std::size_t records);

// Counts `records` per destination rank into counts.send/send_displs; returns whether
// they are grouped by destination already (ranks never decreasing), so that they can
// travel as they are.
template <class Record, class Dest>
bool count_by_destination(const Comm& comm, const std::vector<Record>& records, Dest& dest,
                          RouteCounts& counts) {
  static_assert(std::is_trivially_copyable_v<Record>, "records travel as bytes");
  check_record_count(records.size());
  const auto p = static_cast<std::size_t>(comm.size());
  counts.send.assign(p, 0);
  bool grouped = true;
  std::size_t last = 0;
  for (const Record& r : records) {
    const auto q = static_cast<std::size_t>(dest(r));
    grouped = grouped && q >= last;
    last = q;
    ++counts.send[q];
  }
  counts.send_displs.assign(p + 1, 0);
  for (std::size_t q = 0; q < p; ++q)
    counts.send_displs[q + 1] = counts.send_displs[q] + counts.send[q];
  return grouped;
}

// Stable counting sort of `records` by destination rank (count_by_destination's counts).
template <class Record, class Dest>
std::vector<Record> sort_by_destination(const std::vector<Record>& records, Dest& dest,
                                        const RouteCounts& counts) {
  std::vector<Record> sorted(records.size());
  std::vector<int> fill(counts.send_displs.begin(), counts.send_displs.end() - 1);
  for (const Record& r : records) sorted[static_cast<std::size_t>(fill[dest(r)]++)] = r;
  return sorted;
}

// The all-to-all of records already sorted by destination.
template <class Record>
std::vector<Record> send_sorted(const Comm& comm, RouteCounts& counts,
                                const std::vector<Record>& sorted,
                                std::vector<int>* received_from) {
  exchange_route_counts(comm, counts);
  std::vector<Record> received(static_cast<std::size_t>(counts.recv_displs.back()));
  exchange_route_records(comm, counts, sorted.data(), received.data(), sizeof(Record));
  if (received_from) *received_from = std::move(counts.recv);
  return received;
}

}  // namespace rendezvous_detail

template <class Record, class Dest>
std::vector<Record> route(const Comm& comm, const std::vector<Record>& records, Dest dest,
                          std::vector<int>* received_from) {
  RouteCounts counts;
  if (rendezvous_detail::count_by_destination(comm, records, dest, counts))
    return rendezvous_detail::send_sorted(comm, counts, records, received_from);
  const auto sorted = rendezvous_detail::sort_by_destination(records, dest, counts);
  return rendezvous_detail::send_sorted(comm, counts, sorted, received_from);
}

template <class Record, class Dest>
std::vector<Record> route(const Comm& comm, std::vector<Record>&& records, Dest dest,
                          std::vector<int>* received_from) {
  RouteCounts counts;
  // Records grouped by destination already (blocks of rows sent to their owners, in
  // order, mostly) travel as they are: no sorting copy.
  if (rendezvous_detail::count_by_destination(comm, records, dest, counts)) {
    const std::vector<Record> sorted = std::move(records);
    return rendezvous_detail::send_sorted(comm, counts, sorted, received_from);
  }
  const auto sorted = rendezvous_detail::sort_by_destination(records, dest, counts);
  std::vector<Record>().swap(records);
  return rendezvous_detail::send_sorted(comm, counts, sorted, received_from);
}

}  // namespace ferry::detail
