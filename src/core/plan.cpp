// Plan construction by distributed rendezvous.
//
// Memory bound (checked by tests/mpi/plan_memory_test.cpp): every array below is
// sized by this rank's own ids, by the ids it is home for, or by P (counts).
// Nothing is sized by N or P^2, so a balanced layout pair costs O(N/P + P) per rank.
#include "ferry/plan.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry {

namespace {

// A source or destination id registered at its home rank.
struct Registration {
  std::int64_t id;
  std::int64_t local;  // index in the registering rank's layout
  std::int64_t kind;   // 0 = source, 1 = destination
};

// A home's answer: "exchange `id` (your local index `local`) with rank `peer`".
struct Match {
  std::int64_t id;
  std::int64_t local;
  std::int64_t peer;
  std::int64_t kind;  // 0 = to the source side, 1 = to the destination side
};

constexpr std::int64_t kSource = 0;
constexpr std::int64_t kDestination = 1;

// Homes own consecutive chunks of ceil(N/P) ids: balanced, monotonic in id, no overflow.
int home_rank(std::int64_t id, std::int64_t chunk) { return static_cast<int>(id / chunk); }

// An MPI datatype for a record of int64 fields; freed on scope exit.
template <class Record>
class RecordType {
 public:
  RecordType() {
    static_assert(sizeof(Record) % sizeof(std::int64_t) == 0, "records are int64 only");
    FERRY_CALL_MPI(MPI_Type_contiguous(static_cast<int>(sizeof(Record) / sizeof(std::int64_t)),
                                       MPI_INT64_T, &type_));
    FERRY_CALL_MPI(MPI_Type_commit(&type_));
  }
  ~RecordType() { MPI_Type_free(&type_); }
  RecordType(const RecordType&) = delete;
  RecordType& operator=(const RecordType&) = delete;
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

// Sends records[i] to rank dest(records[i]); returns what this rank receives and,
// in `from`, the sending rank of each received record's block (counts per rank).
template <class Record, class Dest>
std::vector<Record> route(const Comm& comm, std::vector<Record>& records, Dest dest,
                          std::vector<int>& recv_counts) {
  const int p = comm.size();
  std::vector<int> send_counts(static_cast<std::size_t>(p), 0);
  for (const auto& r : records) ++send_counts[static_cast<std::size_t>(dest(r))];
  std::vector<int> send_displs(static_cast<std::size_t>(p) + 1, 0);
  for (int q = 0; q < p; ++q)
    send_displs[q + 1] = send_displs[q] + send_counts[static_cast<std::size_t>(q)];
  // Counting sort by destination rank, in place of a full sort.
  {
    std::vector<Record> sorted(records.size());
    std::vector<int> fill(send_displs.begin(), send_displs.end() - 1);
    for (const auto& r : records) sorted[static_cast<std::size_t>(fill[dest(r)]++)] = r;
    records.swap(sorted);
  }
  recv_counts.assign(static_cast<std::size_t>(p), 0);
  FERRY_CALL_MPI(
      MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm.get()));
  std::vector<int> recv_displs(static_cast<std::size_t>(p) + 1, 0);
  for (int q = 0; q < p; ++q) {
    std::int64_t next = static_cast<std::int64_t>(recv_displs[q]) + recv_counts[q];
    recv_displs[q + 1] = detail::mpi_count<int>(next, "Plan::build: records received per rank");
  }
  std::vector<Record> received(static_cast<std::size_t>(recv_displs[p]));
  RecordType<Record> type;
  FERRY_CALL_MPI(MPI_Alltoallv(records.data(), send_counts.data(), send_displs.data(), type.get(),
                               received.data(), recv_counts.data(), recv_displs.data(),
                               type.get(), comm.get()));
  records.clear();
  records.shrink_to_fit();
  return received;
}

// Fills one plan side from matches of one kind, sorted by (peer, id).
void fill_side(PlanSide& side, std::vector<std::int64_t>& self_index,
               const std::vector<Match>& matches, int me) {
  for (std::size_t i = 0; i < matches.size();) {
    const std::int64_t peer = matches[i].peer;
    std::size_t j = i;
    if (peer == me) {
      for (; j < matches.size() && matches[j].peer == peer; ++j)
        self_index.push_back(matches[j].local);
    } else {
      side.peers.push_back(static_cast<int>(peer));
      side.offsets.push_back(static_cast<std::int64_t>(side.index.size()));
      for (; j < matches.size() && matches[j].peer == peer; ++j)
        side.index.push_back(matches[j].local);
    }
    i = j;
  }
  side.offsets.push_back(static_cast<std::int64_t>(side.index.size()));
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
  const std::int64_t chunk = std::max<std::int64_t>(1, n / p + (n % p != 0 ? 1 : 0));
  std::vector<Registration> registrations;
  registrations.reserve(src.ids().size() + dst.ids().size());
  for (std::size_t i = 0; i < src.ids().size(); ++i)
    registrations.push_back({src.ids()[i], static_cast<std::int64_t>(i), kSource});
  for (std::size_t i = 0; i < dst.ids().size(); ++i)
    registrations.push_back({dst.ids()[i], static_cast<std::int64_t>(i), kDestination});
  std::vector<int> from_counts;
  auto at_home = route(comm, registrations, [&](const Registration& r) { return home_rank(r.id, chunk); },
                       from_counts);

  // 3. Match destinations with their source at the home. A home owns the ids
  // [first, first + chunk), so direct indexing by id replaces sorting: O(chunk + records).
  const std::int64_t first = me * chunk;
  const std::int64_t span = std::max<std::int64_t>(0, std::min(n, first + chunk) - first);
  std::vector<int> source_rank(static_cast<std::size_t>(span), -1);
  std::vector<std::int64_t> source_local(static_cast<std::size_t>(span), 0);
  // Requests bucketed by id (a stable counting sort keeps each rank's order).
  std::vector<std::int64_t> request_start(static_cast<std::size_t>(span) + 1, 0);
  std::optional<Error> home_error;
  {
    std::size_t k = 0;
    for (int q = 0; q < p; ++q)
      for (int c = 0; c < from_counts[static_cast<std::size_t>(q)]; ++c, ++k) {
        const Registration& r = at_home[k];
        const auto slot = static_cast<std::size_t>(r.id - first);
        if (r.kind == kDestination) {
          ++request_start[slot + 1];
        } else if (source_rank[slot] < 0) {
          source_rank[slot] = q;
          source_local[slot] = r.local;
        } else if (!home_error) {
          home_error = Error(Errc::Duplicate,
                             detail::cat("Plan::build: id ", r.id, " is held by source ranks ",
                                         source_rank[slot], " and ", q,
                                         "; every id must have exactly one source. Remove it "
                                         "from one of the source layouts"),
                             me);
        }
      }
  }
  for (std::size_t slot = 0; slot < static_cast<std::size_t>(span); ++slot)
    request_start[slot + 1] += request_start[slot];
  struct Request {
    int rank;
    std::int64_t local;
  };
  std::vector<Request> requests(static_cast<std::size_t>(request_start.back()));
  {
    std::vector<std::int64_t> fill(request_start.begin(), request_start.end() - 1);
    std::size_t k = 0;
    for (int q = 0; q < p; ++q)
      for (int c = 0; c < from_counts[static_cast<std::size_t>(q)]; ++c, ++k) {
        const Registration& r = at_home[k];
        if (r.kind == kDestination)
          requests[static_cast<std::size_t>(fill[static_cast<std::size_t>(r.id - first)]++)] = {
              q, r.local};
      }
    at_home.clear();
    at_home.shrink_to_fit();
  }

  // Answers in id order; the source-side answer goes to the source rank, the
  // destination-side one to the destination rank.
  struct Routed {
    Match match;
    std::int64_t to;
  };
  std::vector<Routed> outgoing;
  outgoing.reserve(2 * requests.size());
  std::vector<std::int64_t> missing;
  std::int64_t missing_count = 0;
  for (std::size_t slot = 0; slot < static_cast<std::size_t>(span); ++slot) {
    const std::int64_t id = first + static_cast<std::int64_t>(slot);
    for (auto k = request_start[slot]; k < request_start[slot + 1]; ++k) {
      const Request& req = requests[static_cast<std::size_t>(k)];
      const int owner = source_rank[slot];
      if (owner < 0) {
        if (missing.size() < 8) missing.push_back(id);
        ++missing_count;
        continue;
      }
      outgoing.push_back({{id, source_local[slot], req.rank, kSource}, owner});
      outgoing.push_back({{id, req.local, owner, kDestination}, req.rank});
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
  source_rank = {};
  source_local = {};
  request_start = {};
  requests = {};

  // 4. Homes answer. Homes cover increasing id ranges and each answers in id order,
  // so what a rank receives is already ordered by id; a stable counting sort by
  // peer then yields the (peer, id) order both sides agree on.
  std::vector<int> ignored;
  auto mine = route(comm, outgoing, [](const Routed& r) { return static_cast<int>(r.to); }, ignored);
  auto by_peer = [&](std::int64_t kind) {
    std::vector<std::int64_t> start(static_cast<std::size_t>(p) + 1, 0);
    for (const auto& r : mine)
      if (r.match.kind == kind) ++start[static_cast<std::size_t>(r.match.peer) + 1];
    for (int q = 0; q < p; ++q) start[static_cast<std::size_t>(q) + 1] += start[static_cast<std::size_t>(q)];
    std::vector<Match> sorted(static_cast<std::size_t>(start.back()));
    for (const auto& r : mine)
      if (r.match.kind == kind)
        sorted[static_cast<std::size_t>(start[static_cast<std::size_t>(r.match.peer)]++)] = r.match;
    return sorted;
  };
  const std::vector<Match> as_source = by_peer(kSource);
  const std::vector<Match> as_destination = by_peer(kDestination);
  mine = {};
  fill_side(plan.send_, plan.self_src_, as_source, me);
  fill_side(plan.recv_, plan.self_dst_, as_destination, me);
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

}  // namespace ferry
