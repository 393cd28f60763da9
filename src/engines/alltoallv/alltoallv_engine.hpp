// alltoallv: the whole exchange as one non-blocking MPI_Ialltoallv.
#pragma once

#include <vector>

#include "engines/packed_engine.hpp"

namespace ferry::detail {

/// One collective call per exchange; lets the MPI library pick its algorithm.
/// Holds four int arrays of P entries per rank (the collective's interface).
class AlltoallvEngine final : public PackedEngine {
 public:
  AlltoallvEngine() : PackedEngine("alltoallv", false) {}

 private:
  void setup_transfer(const EngineOptions& options) override;
  Requests start_transfer() override;

  std::vector<int> send_counts_, send_displs_, recv_counts_, recv_displs_;  // by rank
  MPI_Request request_ = MPI_REQUEST_NULL;
};

}  // namespace ferry::detail
