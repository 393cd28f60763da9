#include "engines/neighbor/neighbor_engine.hpp"

#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::detail {

namespace {
std::vector<int> weights_of(const PlanSide& side) {
  std::vector<int> weights(side.peer_count());
  for (std::size_t k = 0; k < side.peer_count(); ++k)
    weights[k] = mpi_count<int>(side.count(k), "neighbor: points exchanged with one peer");
  return weights;
}
}  // namespace

void NeighborEngine::setup_transfer(const EngineOptions& options) {
  const bool reorder = options.get_bool("neighbor", "reorder", false);
  const PlanSide& recv = plan().recv();
  const PlanSide& send = plan().send();
  std::vector<int> in_weights = weights_of(recv);
  std::vector<int> out_weights = weights_of(send);
  // MPI wants a valid pointer for weights even with no neighbours.
  int dummy = 0;
  MPI_Comm graph = MPI_COMM_NULL;
  FERRY_CALL_MPI(MPI_Dist_graph_create_adjacent(
      comm(), static_cast<int>(recv.peer_count()), recv.peers.empty() ? &dummy : recv.peers.data(),
      in_weights.empty() ? &dummy : in_weights.data(), static_cast<int>(send.peer_count()),
      send.peers.empty() ? &dummy : send.peers.data(),
      out_weights.empty() ? &dummy : out_weights.data(), MPI_INFO_NULL, reorder ? 1 : 0, &graph));
  graph_ = Comm::adopt(graph);
}

PackedEngine::Requests NeighborEngine::start_transfer() {
  FERRY_CALL_MPI(MPI_Ineighbor_alltoallv(send_buffer(), send_bytes().data(), send_displs().data(),
                                         MPI_BYTE, recv_buffer(), recv_bytes().data(),
                                         recv_displs().data(), MPI_BYTE, graph_.get(), &request_));
  return {&request_, 1};
}

}  // namespace ferry::detail
