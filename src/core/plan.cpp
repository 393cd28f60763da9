// Plan construction by distributed rendezvous.
//
// Memory bound (checked by tests/mpi/plan_memory_test.cpp): every array below is
// sized by this rank's own ids, by the registrations it receives as a home, or by P
// (counts). Nothing is sized by N, by the width of a home's id range, or by P^2, so
// a balanced layout pair costs O(N/P + P) per rank and sparse ids cost what they hold.
#include "ferry/plan.hpp"

#include <algorithm>
#include <optional>
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

// A source or destination id registered at its home rank.
struct Registration {
  std::int64_t id;
  std::int64_t local;  // index in the registering rank's layout
  std::int32_t kind;   // kSource or kDestination
  std::int32_t rank;   // the registering rank
};

// A home's answer to rank `to`: "exchange your point `local` with rank `peer`", on the
// source side (kind kSource) or on the destination side (kDestination).
struct Answer {
  std::int64_t local;
  std::int64_t kind;
  std::int32_t peer;
  std::int32_t to;
};

constexpr std::int32_t kSource = 0;
constexpr std::int32_t kDestination = 1;

// Stable LSD radix sort of a home's registrations by id - first (< width). Digits are
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

// Fills one plan side from the answers of one kind, which arrive in id order: a stable
// counting sort by peer gives the (peer, id) order both sides agree on; the rank's own
// points go to `self_index` instead.
void fill_side(PlanSide& side, std::vector<std::int64_t>& self_index,
               const std::vector<Answer>& answers, std::int64_t kind, int me, int p) {
  const auto ranks = static_cast<std::size_t>(p);
  std::vector<std::int64_t> start(ranks + 1, 0);
  for (const Answer& a : answers)
    if (a.kind == kind) ++start[static_cast<std::size_t>(a.peer) + 1];
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
  std::size_t own = 0;
  for (const Answer& a : answers) {
    if (a.kind != kind) continue;
    const auto q = static_cast<std::size_t>(a.peer);
    if (q == self)
      self_index[own++] = a.local;
    else
      side.index[static_cast<std::size_t>(fill[q]++)] = a.local;
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
  detail::agree_on(comm, [&] {
    FERRY_CHECK(-agreed[0] == n && dst.global_size() == n, Errc::Arg,
                "Plan::build: layouts disagree on the global size: source sizes range from ",
                -agreed[0], " to ", n, " across ranks and rank ", me, " has destination size ",
                dst.global_size(), ". Build every layout of one exchange over the same index space");
    for (const Layout* layout : {&src, &dst}) {
      const auto& ids = layout->ids();
      for (std::size_t i = 0; i < ids.size(); ++i)
        FERRY_CHECK(ids[i] >= 0 && ids[i] < n, Errc::ArgRange, "Plan::build: ",
                    layout == &src ? "source" : "destination", " id ", ids[i], " at position ",
                    i, " on rank ", me, " is outside the index space 0..", n - 1,
                    ". Check the ids given to the layout");
    }
  });

  // 2. Register every id at its home rank.
  const IdHomes homes(n, p);
  std::vector<Registration> registrations;
  registrations.reserve(src.ids().size() + dst.ids().size());
  for (std::size_t i = 0; i < src.ids().size(); ++i)
    registrations.push_back({src.ids()[i], static_cast<std::int64_t>(i), kSource, me});
  for (std::size_t i = 0; i < dst.ids().size(); ++i)
    registrations.push_back({dst.ids()[i], static_cast<std::int64_t>(i), kDestination, me});
  std::vector<Registration> at_home = route(
      comm, std::move(registrations), [&](const Registration& r) { return homes.home(r.id); });

  // 3. Match destinations with their source at the home: sorted by id (stably, so
  // each id's registrations stay in rank order), each run of one id holds its source
  // and the destinations asking for it. Answers go out in id order; the source-side
  // answer to the source rank, the destination-side one to the destination rank.
  sort_by_id(at_home, homes.first(me), homes.width());
  std::vector<Answer> outgoing;
  outgoing.reserve(2 * static_cast<std::size_t>(std::count_if(
                           at_home.begin(), at_home.end(),
                           [](const Registration& r) { return r.kind == kDestination; })));
  std::vector<std::int64_t> missing;
  std::int64_t missing_count = 0;
  std::optional<Error> home_error;
  for (std::size_t begin = 0, end = 0; begin < at_home.size(); begin = end) {
    const std::int64_t id = at_home[begin].id;
    const Registration* source = nullptr;
    for (end = begin; end < at_home.size() && at_home[end].id == id; ++end) {
      const Registration& r = at_home[end];
      if (r.kind != kSource) continue;
      if (source == nullptr) {
        source = &r;
      } else if (!home_error) {
        home_error = Error(Errc::Duplicate,
                           detail::cat("Plan::build: id ", id, " is held by source ranks ",
                                       source->rank, " and ", r.rank,
                                       "; every id must have exactly one source. Remove it "
                                       "from one of the source layouts"),
                           me);
      }
    }
    for (std::size_t k = begin; k < end; ++k) {
      const Registration& r = at_home[k];
      if (r.kind != kDestination) continue;
      if (source == nullptr) {
        if (missing.size() < 8) missing.push_back(id);
        ++missing_count;
        continue;
      }
      outgoing.push_back({source->local, kSource, r.rank, source->rank});
      outgoing.push_back({r.local, kDestination, source->rank, r.rank});
    }
  }
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
  std::vector<Registration>().swap(at_home);

  // 4. Homes answer. Homes cover increasing id ranges and each answers in id order,
  // so what a rank receives is already ordered by id.
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
