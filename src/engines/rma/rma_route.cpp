#include "engines/rma/rma_route.hpp"

#include <mpi.h>

#include <string_view>

#include "core/plan_cache.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::detail {

namespace {

// Ranks of `ranks` (in `comm`) inside `sub`, MPI_UNDEFINED for ranks outside it.
std::vector<int> translate_ranks(MPI_Comm comm, MPI_Comm sub, const std::vector<int>& ranks) {
  std::vector<int> out(ranks.size(), MPI_UNDEFINED);
  if (ranks.empty()) return out;
  MPI_Group from = MPI_GROUP_NULL;
  MPI_Group to = MPI_GROUP_NULL;
  FERRY_CALL_MPI(MPI_Comm_group(comm, &from));
  int rc = MPI_Comm_group(sub, &to);
  if (rc == MPI_SUCCESS)
    rc = MPI_Group_translate_ranks(from, static_cast<int>(ranks.size()), ranks.data(), to,
                                   out.data());
  MPI_Group_free(&from);
  if (to != MPI_GROUP_NULL) MPI_Group_free(&to);
  FERRY_CALL_MPI(rc);
  return out;
}

std::string_view cache_key(bool shared_memory) {
  return shared_memory ? "rma" : "rma, no shared memory";
}

}  // namespace

std::shared_ptr<const RmaRoute> RmaRoute::cached(const Plan& plan, const Comm& comm,
                                                 bool shared_memory) {
  return std::static_pointer_cast<const RmaRoute>(
      plan_cache(plan).find(cache_key(shared_memory), comm.get()));
}

std::shared_ptr<const RmaRoute> RmaRoute::build(const Plan& plan, const Comm& comm,
                                                bool shared_memory, int tag) {
  std::shared_ptr<const RmaRoute> route(new RmaRoute(plan, comm, shared_memory, tag));
  plan_cache(plan).store(cache_key(shared_memory), comm.get(), route);
  return route;
}

RmaRoute::RmaRoute(const Plan& plan, const Comm& comm, bool shared_memory, int tag) {
  const PlanSide& send = plan.send();
  const PlanSide& recv = plan.recv();
  if (shared_memory) {
    MPI_Comm split = MPI_COMM_NULL;
    FERRY_CALL_MPI(
        MPI_Comm_split_type(comm.get(), MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &split));
    node = Comm::adopt(split);
  } else {
    node = Comm::dup(MPI_COMM_SELF);  // every peer is off-node
  }
  node_rank = translate_ranks(comm.get(), node.get(), send.peers);
  const std::vector<int> recv_node = translate_ranks(comm.get(), node.get(), recv.peers);

  agree_on(comm, [&] {
    // On-node destinations first, so each kind of block is one run of send_order.
    for (std::size_t k = 0; k < send.peer_count(); ++k)
      if (node_rank[k] != MPI_UNDEFINED) send_order.push_back(k);
    node_sends = send_order.size();
    for (std::size_t k = 0; k < send.peer_count(); ++k)
      if (node_rank[k] == MPI_UNDEFINED) send_order.push_back(k);

    // Sources on the node write into the field area; the others get a block each.
    block_offset.assign(recv.peer_count(), 0);
    for (std::size_t k = 0; k < recv.peer_count(); ++k) {
      if (recv_node[k] != MPI_UNDEFINED) continue;
      remote_recv.push_back(k);
      block_offset[k] = block_points;
      block_points += recv.count(k);
    }
    // The on-node sources' points: the plan's own index when every source is on the
    // node (on one node, always), else a copy of their part of it.
    const std::int64_t* node_index = recv.index.data();
    if (!remote_recv.empty()) {
      for (std::size_t k = 0; k < recv.peer_count(); ++k)
        if (recv_node[k] != MPI_UNDEFINED)
          node_recv_index.insert(node_recv_index.end(), recv.index.begin() + recv.offsets[k],
                                 recv.index.begin() + recv.offsets[k + 1]);
      node_index = node_recv_index.data();
    }
    node_points = recv.total() - block_points;
    node_recv_runs = CopyRuns(node_index, node_index, node_points);
    node_positions.resize(node_sends);
  });

  // Only a destination knows where each source's points go: it sends each source on
  // its node their positions as strided runs when they form few (a regular layout),
  // else an empty list of runs and then the positions, from the plan as they are,
  // received in place (at 8 bytes a point, copies of them would cost as much as the
  // rest of the setup).
  static_assert(sizeof(CopyRuns::Strided) == 3 * sizeof(std::int64_t), "runs travel as int64");
  std::vector<std::vector<CopyRuns::Strided>> runs_sent(recv.peer_count());
  std::vector<MPI_Request> requests;
  requests.reserve(2 * recv.peer_count() + node_sends);
  auto post = [&](auto start) {
    requests.push_back(MPI_REQUEST_NULL);
    FERRY_CALL_MPI(start(&requests.back()));
  };
  for (std::size_t k = 0; k < recv.peer_count(); ++k) {
    if (recv_node[k] == MPI_UNDEFINED) continue;
    const std::int64_t* positions = recv.index.data() + recv.offsets[k];
    std::vector<CopyRuns::Strided>& runs = runs_sent[k];
    runs = CopyRuns::strided_runs(positions, recv.count(k));
    // As CopyRuns judges: runs shorter than 8 on average are not worth it.
    if (static_cast<std::int64_t>(runs.size()) * 8 > recv.count(k)) runs.clear();
    post([&](MPI_Request* r) {
      return MPI_Isend(runs.data(), mpi_count<int>(3 * runs.size(), "rma: runs sent to a source"),
                       MPI_INT64_T, recv.peers[k], tag, comm.get(), r);
    });
    if (!runs.empty()) continue;
    post([&](MPI_Request* r) {
      return MPI_Isend(positions, mpi_count<int>(recv.count(k), "rma: positions sent to a source"),
                       MPI_INT64_T, recv.peers[k], tag, comm.get(), r);
    });
  }
  std::vector<std::vector<CopyRuns::Strided>> runs_received(node_sends);
  for (std::size_t i = 0; i < node_sends; ++i) {
    const std::size_t k = send_order[i];
    MPI_Status status;
    FERRY_CALL_MPI(MPI_Probe(send.peers[k], tag, comm.get(), &status));
    int values = 0;
    FERRY_CALL_MPI(MPI_Get_count(&status, MPI_INT64_T, &values));
    runs_received[i].resize(static_cast<std::size_t>(values / 3));
    FERRY_CALL_MPI(MPI_Recv(runs_received[i].data(), values, MPI_INT64_T, send.peers[k], tag,
                            comm.get(), MPI_STATUS_IGNORE));
    if (!runs_received[i].empty()) continue;
    node_positions[i].resize(static_cast<std::size_t>(send.count(k)));
    post([&](MPI_Request* r) {
      return MPI_Irecv(node_positions[i].data(), static_cast<int>(send.count(k)), MPI_INT64_T,
                       send.peers[k], tag, comm.get(), r);
    });
  }
  if (!requests.empty())
    FERRY_CALL_MPI(MPI_Waitall(static_cast<int>(requests.size()), requests.data(),
                               MPI_STATUSES_IGNORE));
  agree_on(comm, [&] {
    node_runs.reserve(node_sends);
    for (std::size_t i = 0; i < node_sends; ++i) {
      const std::size_t k = send_order[i];
      const std::int64_t* from = send.index.data() + send.offsets[k];
      const std::vector<CopyRuns::Strided>& runs = runs_received[i];
      if (!runs.empty()) {
        std::int64_t covered = 0;
        for (const CopyRuns::Strided& run : runs) covered += run.length;
        FERRY_ASSERT(covered == send.count(k), "rma: runs of ", covered, " positions from rank ",
                     send.peers[k], " for ", send.count(k), " points");
        if (std::optional<CopyRuns> compiled = CopyRuns::from_strided(from, runs, covered)) {
          node_runs.push_back(std::move(*compiled));
          continue;
        }
        // Our side is too irregular for runs: the copy reads both lists.
        std::vector<std::int64_t>& positions = node_positions[i];
        positions.reserve(static_cast<std::size_t>(covered));
        for (const CopyRuns::Strided& run : runs)
          for (std::int64_t j = 0; j < run.length; ++j)
            positions.push_back(run.start + j * run.stride);
      }
      node_runs.emplace_back(from, node_positions[i].data(), send.count(k));
    }
  });
}

}  // namespace ferry::detail
