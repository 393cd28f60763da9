// neighbor: MPI_Dist_graph_create_adjacent once, MPI_Ineighbor_alltoallv per exchange.
#pragma once

#include <vector>

#include "engines/packed_engine.hpp"
#include "ferry/comm.hpp"

namespace ferry::detail {

/// Neighbourhood collective over a distributed graph whose edges are the plan's
/// peers (weights = points exchanged). Option `reorder` (default false) lets the
/// MPI library renumber ranks for locality; buffers follow the neighbour order, so
/// results do not depend on it.
class NeighborEngine final : public PackedEngine {
 public:
  NeighborEngine() : PackedEngine("neighbor", true) {}

 private:
  void setup_transfer(const EngineOptions& options) override;
  Requests start_transfer() override;

  Comm graph_;
  MPI_Request request_ = MPI_REQUEST_NULL;
};

}  // namespace ferry::detail
