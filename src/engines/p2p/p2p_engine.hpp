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
  ~P2pEngine() override;
  std::string_view name() const override { return "p2p"; }
  Capabilities capabilities() const override {
    Capabilities c;
    c.persistent = true;
    c.holds_fields = true;
    return c;
  }

 private:
  void setup_transfer(const EngineOptions& options) override;
  void start_transfer() override;
  void finish_transfer() override;
  bool test_transfer() override;

  std::vector<MPI_Request> persistent_;  // receives first, then sends
  std::vector<MPI_Request> active_;      // requests of the exchange in flight
  bool using_persistent_ = false;
};

}  // namespace ferry::detail
