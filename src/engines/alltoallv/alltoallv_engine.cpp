#include "engines/alltoallv/alltoallv_engine.hpp"

#include "util/mpi.hpp"

namespace ferry::detail {

void AlltoallvEngine::setup_transfer(const EngineOptions&) {
  const auto p = static_cast<std::size_t>(plan().comm_size());
  send_counts_.assign(p, 0);
  send_displs_.assign(p, 0);
  recv_counts_.assign(p, 0);
  recv_displs_.assign(p, 0);
  for (std::size_t k = 0; k < plan().send().peer_count(); ++k)
    send_displs_[static_cast<std::size_t>(plan().send().peers[k])] = send_displs()[k];
  for (std::size_t k = 0; k < plan().recv().peer_count(); ++k)
    recv_displs_[static_cast<std::size_t>(plan().recv().peers[k])] = recv_displs()[k];
}

PackedEngine::Requests AlltoallvEngine::start_transfer() {
  for (std::size_t k = 0; k < plan().send().peer_count(); ++k)
    send_counts_[static_cast<std::size_t>(plan().send().peers[k])] = send_bytes()[k];
  for (std::size_t k = 0; k < plan().recv().peer_count(); ++k)
    recv_counts_[static_cast<std::size_t>(plan().recv().peers[k])] = recv_bytes()[k];
  FERRY_CALL_MPI(MPI_Ialltoallv(send_buffer(), send_counts_.data(), send_displs_.data(), MPI_BYTE,
                                recv_buffer(), recv_counts_.data(), recv_displs_.data(), MPI_BYTE,
                                comm(), &request_));
  return {&request_, 1};
}

}  // namespace ferry::detail
