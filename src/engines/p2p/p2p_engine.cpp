#include "engines/p2p/p2p_engine.hpp"

#include "util/mpi.hpp"

namespace ferry::detail {

namespace {
// After the exchange's tag base (Engine::tag_base); rma uses 2 to 5, so that the
// engines an adaptive exchange tries on one communicator keep apart.
constexpr int kTag = 1;
// SimGrid SMPI 3.32 deadlocks when a persistent send restarts before the receiver
// matched its previous message (back-to-back exchanges do that); under SMPI every
// exchange posts fresh requests instead.
#ifdef FERRY_SMPI
constexpr bool kPersistentRequests = false;
#else
constexpr bool kPersistentRequests = true;
#endif
}  // namespace

P2pEngine::~P2pEngine() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  for (auto& r : persistent_)
    if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
}

void P2pEngine::setup_transfer(const EngineOptions&) {
  const PlanSide& recv = plan().recv();
  const PlanSide& send = plan().send();
  fresh_.assign(recv.peer_count() + send.peer_count(), MPI_REQUEST_NULL);
  if (!kPersistentRequests) return;
  persistent_.assign(fresh_.size(), MPI_REQUEST_NULL);
  for (std::size_t k = 0; k < recv.peer_count(); ++k)
    FERRY_CALL_MPI(MPI_Recv_init(recv_buffer() + recv_displs()[k], recv_bytes()[k], MPI_BYTE,
                                 recv.peers[k], tag_base() + kTag, comm(), &persistent_[k]));
  for (std::size_t k = 0; k < send.peer_count(); ++k)
    FERRY_CALL_MPI(MPI_Send_init(send_buffer() + send_displs()[k], send_bytes()[k], MPI_BYTE,
                                 send.peers[k], tag_base() + kTag, comm(),
                                 &persistent_[recv.peer_count() + k]));
}

PackedEngine::Requests P2pEngine::start_transfer() {
  const int count = static_cast<int>(fresh_.size());
  if (kPersistentRequests && moves_all_fields()) {
    if (count > 0) FERRY_CALL_MPI(MPI_Startall(count, persistent_.data()));
    return {persistent_.data(), count};
  }
  const PlanSide& recv = plan().recv();
  const PlanSide& send = plan().send();
  for (std::size_t k = 0; k < recv.peer_count(); ++k)
    FERRY_CALL_MPI(MPI_Irecv(recv_buffer() + recv_displs()[k], recv_bytes()[k], MPI_BYTE,
                             recv.peers[k], tag_base() + kTag, comm(), &fresh_[k]));
  for (std::size_t k = 0; k < send.peer_count(); ++k)
    FERRY_CALL_MPI(MPI_Isend(send_buffer() + send_displs()[k], send_bytes()[k], MPI_BYTE,
                             send.peers[k], tag_base() + kTag, comm(), &fresh_[recv.peer_count() + k]));
  return {fresh_.data(), count};
}

}  // namespace ferry::detail
