// p2p: one persistent Isend/Irecv per peer, every field aggregated in one message.
#pragma once

#include <vector>

#include "engines/packed_engine.hpp"

namespace ferry::detail {

/// Point-to-point engine (the MCT way). Persistent requests are created once in
/// setup for exchanges that move every field; an exchange restricted by a mask
/// carries shorter messages and uses plain Isend/Irecv on the same buffers.
class P2pEngine final : public PackedEngine {
 public:
  P2pEngine() : PackedEngine("p2p", true, true) {}
  ~P2pEngine() override;

 private:
  void setup_transfer(const EngineOptions& options) override;
  Requests start_transfer() override;

  std::vector<MPI_Request> persistent_;  // receives first, then sends
  std::vector<MPI_Request> fresh_;       // the same, posted anew when the persistent ones
                                         // do not fit (a mask; SimGrid SMPI)
};

}  // namespace ferry::detail
