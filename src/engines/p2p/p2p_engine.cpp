#include "engines/p2p/p2p_engine.hpp"

#include "util/mpi.hpp"

namespace ferry::detail {

namespace {
constexpr int kTag = 7001;
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
  active_.assign(recv.peer_count() + send.peer_count(), MPI_REQUEST_NULL);
  if (!kPersistentRequests) return;
  persistent_.assign(active_.size(), MPI_REQUEST_NULL);
  for (std::size_t k = 0; k < recv.peer_count(); ++k)
    FERRY_CALL_MPI(MPI_Recv_init(recv_buffer() + recv_displs()[k], recv_bytes()[k], MPI_BYTE,
                                 recv.peers[k], kTag, comm(), &persistent_[k]));
  for (std::size_t k = 0; k < send.peer_count(); ++k)
    FERRY_CALL_MPI(MPI_Send_init(send_buffer() + send_displs()[k], send_bytes()[k], MPI_BYTE,
                                 send.peers[k], kTag, comm(),
                                 &persistent_[recv.peer_count() + k]));
}

void P2pEngine::start_transfer() {
  using_persistent_ = kPersistentRequests && moves_all_fields();
  if (using_persistent_) {
    if (!persistent_.empty())
      FERRY_CALL_MPI(MPI_Startall(static_cast<int>(persistent_.size()), persistent_.data()));
    return;
  }
  const PlanSide& recv = plan().recv();
  const PlanSide& send = plan().send();
  for (std::size_t k = 0; k < recv.peer_count(); ++k)
    FERRY_CALL_MPI(MPI_Irecv(recv_buffer() + recv_displs()[k], recv_bytes()[k], MPI_BYTE,
                             recv.peers[k], kTag, comm(), &active_[k]));
  for (std::size_t k = 0; k < send.peer_count(); ++k)
    FERRY_CALL_MPI(MPI_Isend(send_buffer() + send_displs()[k], send_bytes()[k], MPI_BYTE,
                             send.peers[k], kTag, comm(), &active_[recv.peer_count() + k]));
}

bool P2pEngine::test_transfer() {
  auto& requests = using_persistent_ ? persistent_ : active_;
  int done = 1;
  // Completed requests become inactive (persistent) or null, so end()'s wait returns at once.
  if (!requests.empty())
    FERRY_CALL_MPI(MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done,
                               MPI_STATUSES_IGNORE));
  return done != 0;
}

void P2pEngine::finish_transfer() {
  auto& requests = using_persistent_ ? persistent_ : active_;
  if (!requests.empty())
    FERRY_CALL_MPI(
        MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
}

}  // namespace ferry::detail
