// Plan construction by distributed rendezvous of runs of ids: a rank registers each
// run of consecutive ids at consecutive positions of its layout with the home of the
// ids, a home matches source and destination runs, and answers with runs.
//
// Memory bound (checked by tests/mpi/plan_memory_test.cpp): every array below is
// sized by this rank's own ids, by the registrations it receives as a home (runs, or
// in the one case of a destination rank holding an id twice, the ids of that home's
// destination runs, as many as a point-by-point registration held), or by P (counts).
// Nothing is sized by N, by the width of a home's id range, or by P^2, so a balanced
// layout pair costs O(N/P + P) per rank and sparse ids cost what they hold.
#include "ferry/plan.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <tuple>
#include <vector>

#include "core/plan_cache.hpp"
#include "core/rendezvous.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry {

namespace {

using detail::IdHomes;
using detail::route;

// A run of consecutive ids held at consecutive local positions of one rank's layout,
// registered at the home of its ids (runs are split where homes change).
// 24 bytes, as a single point's registration was: a layout of single points (a
// round-robin over several ranks) costs what it did before runs.
struct Registration {
  std::int64_t id;     // first id of the run
  std::int64_t local;  // index of the first id in the registering rank's layout
  std::int32_t count;  // ids id .. id + count - 1 (longer runs are split)
  std::uint32_t rank : 31;  // the registering rank
  std::uint32_t kind : 1;   // kSource or kDestination
};

// A home's answer to rank `to`: "exchange your points local .. local + count - 1 with
// rank `peer`", on the source side (kind kSource) or on the destination side
// (kDestination).
struct Answer {
  std::int64_t local;
  std::int32_t count;
  std::int32_t kind;
  std::int32_t peer;
  std::int32_t to;
};

constexpr std::uint32_t kSource = 0;
constexpr std::uint32_t kDestination = 1;
constexpr std::int64_t kLongestRun = std::numeric_limits<std::int32_t>::max();

std::int64_t end_of(const Registration& r) noexcept { return r.id + r.count; }

// Appends the maximal runs of `ids` (consecutive ids at consecutive positions, never
// crossing a home boundary) to `runs`. A block layout is a few runs per row; one rank
// holding a whole grid in order is one run per home. Checks that every id is in
// 0..n-1 on the way, by the first id of each run (a run ends before an id >= n), so
// the ids are read once; the error names the first id outside, as a check of every
// id in order would.
void append_runs(std::vector<Registration>& runs, const std::vector<std::int64_t>& ids,
                 std::uint32_t kind, int rank, const IdHomes& homes, std::int64_t n) {
  for (std::size_t i = 0; i < ids.size();) {
    const std::int64_t first = ids[i];
    FERRY_CHECK(first >= 0 && first < n, Errc::ArgRange, "Plan::build: ",
                kind == kSource ? "source" : "destination", " id ", first, " at position ", i,
                " on rank ", rank, " is outside the index space 0..", n - 1,
                ". Check the ids given to the layout");
    // Ids left in first's home, counted from first (an end id could overflow near 2^63).
    const std::int64_t room = std::min(
        kLongestRun, homes.width() - (first - homes.first(homes.home(first))));
    std::size_t j = i + 1;
    while (j < ids.size() && ids[j] == ids[j - 1] + 1 && ids[j] - first < room && ids[j] < n)
      ++j;
    runs.push_back({first, static_cast<std::int64_t>(i), static_cast<std::int32_t>(j - i),
                    static_cast<std::uint32_t>(rank), kind});
    i = j;
  }
}

// Stable LSD radix sort of a home's runs by first id - first (< width). Digits are
// as wide as a count table of at most max(64 Ki, 2 x records) entries allows, so memory
// and time follow the registrations, never the width of the home's id range: a dense
// home (width about the registrations) sorts in one counting pass, a sparse one in a
// few passes (at most four for ids up to 2^63).
void sort_by_id(std::vector<Registration>& records, std::int64_t first, std::int64_t width) {
  if (records.size() < 2) return;
  int key_bits = 1;
  while (key_bits < 63 && (std::int64_t{1} << key_bits) < width) ++key_bits;
  int table_bits = 16;
  while (table_bits < key_bits && (std::size_t{2} << table_bits) <= 2 * records.size())
    ++table_bits;
  const int passes = (key_bits + table_bits - 1) / table_bits;
  const int digit_bits = (key_bits + passes - 1) / passes;
  const std::uint64_t digit_mask = (std::uint64_t{1} << digit_bits) - 1;
  std::vector<Registration> sorted(records.size());
  std::vector<std::size_t> start(static_cast<std::size_t>(digit_mask) + 2);
  for (int pass = 0; pass < passes; ++pass) {
    const int shift = pass * digit_bits;
    auto digit = [&](const Registration& r) {
      return static_cast<std::size_t>((static_cast<std::uint64_t>(r.id - first) >> shift) &
                                      digit_mask);
    };
    std::fill(start.begin(), start.end(), 0);
    for (const Registration& r : records) ++start[digit(r) + 1];
    for (std::size_t d = 1; d < start.size(); ++d) start[d] += start[d - 1];
    for (const Registration& r : records) sorted[start[digit(r)]++] = r;
    records.swap(sorted);
  }
}

// The error for the smallest id held by two source runs (sorted by first id), naming
// the two lowest registering ranks that hold it, as a point-by-point scan would.
std::optional<Error> duplicate_source(const std::vector<Registration>& sources, int me) {
  std::int64_t reach = 0;
  for (std::size_t k = 0; k < sources.size(); ++k) {
    if (k > 0 && sources[k].id < reach) {
      const std::int64_t id = sources[k].id;
      std::vector<int> holders;
      for (const Registration& s : sources)
        if (s.id <= id && id < end_of(s)) holders.push_back(static_cast<int>(s.rank));
      std::sort(holders.begin(), holders.end());
      return Error(Errc::Duplicate,
                   detail::cat("Plan::build: id ", id, " is held by source ranks ", holders[0],
                               " and ", holders[1],
                               "; every id must have exactly one source. Remove it from one "
                               "of the source layouts"),
                   me);
    }
    reach = std::max(reach, end_of(sources[k]));
  }
  return std::nullopt;
}

// True if some rank's destination runs (sorted by first id) overlap: that rank holds
// an id twice, and its runs' answers would interleave ids.
bool repeats_ids(const std::vector<Registration>& destinations, int p) {
  std::vector<std::int64_t> reach(static_cast<std::size_t>(p), 0);
  for (const Registration& d : destinations) {
    std::int64_t& r = reach[d.rank];
    if (d.id < r) return true;
    r = end_of(d);
  }
  return false;
}

// The runs as single points ordered by (id, rank, local): the order a point-by-point
// build answers a rank's repeated ids in.
std::vector<Registration> single_points(const std::vector<Registration>& runs) {
  std::vector<Registration> points;
  for (const Registration& r : runs)
    for (std::int32_t k = 0; k < r.count; ++k)
      points.push_back({r.id + k, r.local + k, 1, r.rank, r.kind});
  std::sort(points.begin(), points.end(), [](const Registration& x, const Registration& y) {
    return std::make_tuple(x.id, std::uint32_t{x.rank}, x.local) <
           std::make_tuple(y.id, std::uint32_t{y.rank}, y.local);
  });
  return points;
}

// The ids the source runs cover, as disjoint runs in id order. A chain of overlapping
// runs can cover more than kLongestRun ids: the merged run then ends at kLongestRun
// and the rest continues in a new run, so no count overflows.
std::vector<Registration> covered_ids(const std::vector<Registration>& sources) {
  std::vector<Registration> merged;
  for (const Registration& s : sources) {
    if (merged.empty() || s.id >= end_of(merged.back())) {
      merged.push_back(s);
      continue;
    }
    std::int64_t end = end_of(s);
    while (end > end_of(merged.back())) {
      Registration& last = merged.back();
      const std::int64_t grown = std::min(end - last.id, kLongestRun);
      if (grown > last.count) {
        last.count = static_cast<std::int32_t>(grown);
      } else {
        Registration next = last;
        next.id = end_of(last);
        next.count = 0;
        merged.push_back(next);
      }
    }
  }
  return merged;
}

// Matches a home's destination runs (sorted by first id, in registration order for
// equal ids) with its disjoint source runs (sorted) by one sweep: every overlap becomes
// a source-side answer to the source rank and a destination-side answer to the
// destination rank, in id order for each pair of ranks. Counts the destination ids no
// source holds and keeps the smallest few. With `answer` false only counts.
void match(const std::vector<Registration>& sources, const std::vector<Registration>& destinations,
           bool answer, std::vector<Answer>& outgoing, std::vector<std::int64_t>& missing,
           std::int64_t& missing_count) {
  std::size_t first_source = 0;
  for (const Registration& d : destinations) {
    while (first_source < sources.size() && end_of(sources[first_source]) <= d.id) ++first_source;
    std::int64_t next = d.id;  // first id of d not yet matched
    auto note_missing = [&](std::int64_t up_to) {
      missing_count += up_to - next;
      for (std::int64_t id = next; id < up_to && id < next + 8; ++id) missing.push_back(id);
    };
    for (std::size_t k = first_source; k < sources.size() && sources[k].id < end_of(d); ++k) {
      const Registration& s = sources[k];
      const std::int64_t lo = std::max(s.id, d.id);
      const std::int64_t hi = std::min(end_of(s), end_of(d));
      if (lo > next) note_missing(lo);
      if (answer) {
        const auto count = static_cast<std::int32_t>(hi - lo);
        const auto s_rank = static_cast<std::int32_t>(s.rank);
        const auto d_rank = static_cast<std::int32_t>(d.rank);
        outgoing.push_back({s.local + (lo - s.id), count, kSource, d_rank, s_rank});
        outgoing.push_back({d.local + (lo - d.id), count, kDestination, s_rank, d_rank});
      }
      next = hi;
    }
    if (next < end_of(d)) note_missing(end_of(d));
  }
  // Only the smallest 8 are reported; keep the list bounded by registrations.
  std::sort(missing.begin(), missing.end());
  if (missing.size() > 8) missing.resize(8);
}

// Fills one plan side from the answer runs of one kind, each peer's in id order:
// a stable counting sort by peer gives the (peer, id) order both sides agree on; the
// rank's own points go to `self_index` instead.
void fill_side(PlanSide& side, std::vector<std::int64_t>& self_index,
               const std::vector<Answer>& answers, std::int32_t kind, int me, int p) {
  const auto ranks = static_cast<std::size_t>(p);
  std::vector<std::int64_t> start(ranks + 1, 0);
  for (const Answer& a : answers)
    if (a.kind == kind) start[static_cast<std::size_t>(a.peer) + 1] += a.count;
  for (std::size_t q = 0; q < ranks; ++q) start[q + 1] += start[q];
  const auto self = static_cast<std::size_t>(me);
  const std::int64_t self_count = start[self + 1] - start[self];
  self_index.resize(static_cast<std::size_t>(self_count));
  side.index.resize(static_cast<std::size_t>(start[ranks] - self_count));
  // Where each peer's points go in side.index: its block, less the own points before it.
  std::vector<std::int64_t> fill(ranks, 0);
  for (std::size_t q = 0; q < ranks; ++q) {
    fill[q] = start[q] - (q > self ? self_count : 0);
    if (q == self || start[q + 1] == start[q]) continue;
    side.peers.push_back(static_cast<int>(q));
    side.offsets.push_back(fill[q]);
  }
  side.offsets.push_back(static_cast<std::int64_t>(side.index.size()));
  std::int64_t own = 0;
  for (const Answer& a : answers) {
    if (a.kind != kind) continue;
    const auto q = static_cast<std::size_t>(a.peer);
    std::int64_t* out = q == self ? self_index.data() + own : side.index.data() + fill[q];
    for (std::int64_t k = 0; k < a.count; ++k) out[k] = a.local + k;
    (q == self ? own : fill[q]) += a.count;
  }
}

}  // namespace

class PlanBuilder {
 public:
  static Plan build(const Comm& comm, const Layout& src, const Layout& dst);
};

Plan Plan::build(const Comm& comm, const Layout& src, const Layout& dst) {
  return PlanBuilder::build(comm, src, dst);
}

Plan PlanBuilder::build(const Comm& comm, const Layout& src, const Layout& dst) {
  const int p = comm.size();
  const int me = comm.rank();
  Plan plan;
  plan.cache_ = std::make_shared<detail::PlanCache>();
  plan.comm_size_ = p;
  plan.rank_ = me;
  plan.src_member_ = src.member();
  plan.dst_member_ = dst.member();
  plan.src_local_size_ = src.local_size();
  plan.dst_local_size_ = dst.local_size();

  // 1. Every rank must agree on N, and hold only ids in 0..N-1.
  std::int64_t bounds[2] = {-src.global_size(), src.global_size()};
  std::int64_t agreed[2] = {0, 0};
  FERRY_CALL_MPI(MPI_Allreduce(bounds, agreed, 2, MPI_INT64_T, MPI_MAX, comm.get()));
  const std::int64_t n = agreed[1];
  plan.global_size_ = n;
  // 2. Every run of ids registered at the home of its ids, the ids checked on the way.
  const IdHomes homes(n, p);
  std::vector<Registration> registrations;
  detail::agree_on(comm, [&] {
    FERRY_CHECK(-agreed[0] == n && dst.global_size() == n, Errc::Arg,
                "Plan::build: layouts disagree on the global size: source sizes range from ",
                -agreed[0], " to ", n, " across ranks and rank ", me, " has destination size ",
                dst.global_size(), ". Build every layout of one exchange over the same index space");
    append_runs(registrations, src.ids(), kSource, me, homes, n);
    append_runs(registrations, dst.ids(), kDestination, me, homes, n);
  });
  std::vector<Registration> at_home = route(
      comm, std::move(registrations), [&](const Registration& r) { return homes.home(r.id); });

  // 3. Match destinations with their source at the home: runs sorted by first id
  // (stably, so equal ids stay in rank order), then one sweep of the destination runs
  // over the source runs. Answers go out in id order for each pair of ranks.
  std::vector<Registration> sources;
  std::vector<Registration> destinations;
  for (const Registration& r : at_home) (r.kind == kSource ? sources : destinations).push_back(r);
  std::vector<Registration>().swap(at_home);
  sort_by_id(sources, homes.first(me), homes.width());
  sort_by_id(destinations, homes.first(me), homes.width());
  if (repeats_ids(destinations, p)) destinations = single_points(destinations);
  std::optional<Error> home_error = duplicate_source(sources, me);
  if (home_error) sources = covered_ids(sources);
  std::vector<Answer> outgoing;
  std::vector<std::int64_t> missing;
  std::int64_t missing_count = 0;
  match(sources, destinations, !home_error, outgoing, missing, missing_count);
  std::int64_t missing_total = 0;
  FERRY_CALL_MPI(
      MPI_Allreduce(&missing_count, &missing_total, 1, MPI_INT64_T, MPI_SUM, comm.get()));
  if (!home_error && missing_count > 0)
    home_error = Error(Errc::Missing,
                       detail::cat("Plan::build: ", missing_total,
                                   " destination id(s) are held by no source rank, first: ",
                                   detail::list_first(missing, 8),
                                   ". Every id a destination asks for must be in exactly one "
                                   "source layout"),
                       me);
  detail::agree(comm, home_error);
  std::vector<Registration>().swap(sources);
  std::vector<Registration>().swap(destinations);

  // 4. Homes answer. Homes cover increasing id ranges and each answers in id order,
  // so what a rank receives from each peer is already ordered by id.
  const std::vector<Answer> mine =
      route(comm, std::move(outgoing), [](const Answer& a) { return a.to; });
  fill_side(plan.send_, plan.self_src_, mine, kSource, me, p);
  fill_side(plan.recv_, plan.self_dst_, mine, kDestination, me, p);
  FERRY_ASSERT(plan.self_src_.size() == plan.self_dst_.size(), "self copies ",
               plan.self_src_.size(), " vs ", plan.self_dst_.size());
  return plan;
}

std::size_t Plan::memory_bytes() const noexcept {
  auto side = [](const PlanSide& s) {
    return s.peers.capacity() * sizeof(int) + s.offsets.capacity() * sizeof(std::int64_t) +
           s.index.capacity() * sizeof(std::int64_t);
  };
  return sizeof(Plan) + side(send_) + side(recv_) +
         (self_src_.capacity() + self_dst_.capacity()) * sizeof(std::int64_t);
}

namespace detail {

PlanCache& plan_cache(const Plan& plan) {
  FERRY_ASSERT(plan.cache_ != nullptr, "plan_cache: a plan not made by Plan::build");
  return *plan.cache_;
}

}  // namespace detail

}  // namespace ferry
