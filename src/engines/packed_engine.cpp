#include "engines/packed_engine.hpp"

#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::detail {

void PackedEngine::setup(const Plan& plan, const Comm& comm, const std::vector<FieldSpec>& fields,
                         const EngineOptions& options) {
  plan_ = &plan;
  comm_ = &comm;
  fields_.assign(fields);
  const auto point_bytes = static_cast<std::int64_t>(fields_.point_bytes_all());
  auto block_starts = [&](const PlanSide& side, std::vector<int>& displs, const char* what) {
    displs.resize(side.peer_count());
    for (std::size_t k = 0; k < side.peer_count(); ++k)
      displs[k] = mpi_count<int>(side.offsets[k] * point_bytes, what);
    // The whole buffer must be addressable with int displacements too.
    mpi_count<int>(side.total() * point_bytes, what);
  };
  block_starts(plan.send(), send_displs_, "bytes sent by one rank in one exchange");
  block_starts(plan.recv(), recv_displs_, "bytes received by one rank in one exchange");
  send_buffer_.assign(static_cast<std::size_t>(plan.send().total() * point_bytes), 0);
  recv_buffer_.assign(static_cast<std::size_t>(plan.recv().total() * point_bytes), 0);
  send_bytes_.assign(plan.send().peer_count(), 0);
  recv_bytes_.assign(plan.recv().peer_count(), 0);
  size_blocks();
  copies_ = PlanCopies(plan);
  src_.assign(fields.size(), nullptr);
  dst_.assign(fields.size(), nullptr);
  setup_transfer(options);
}

Traffic PackedEngine::traffic() const {
  const PlanSide& send = plan_->send();
  return {static_cast<std::int64_t>(send.peer_count()),
          send.total() * static_cast<std::int64_t>(fields_.point_bytes_all()),
          plan_->send().peer_count() + plan_->recv().peer_count() > 0 ? 1 : 0};
}

void PackedEngine::size_blocks() {
  const auto point_bytes = static_cast<std::int64_t>(fields_.point_bytes());
  for (std::size_t k = 0; k < send_bytes_.size(); ++k)
    send_bytes_[k] = static_cast<int>(plan_->send().count(k) * point_bytes);
  for (std::size_t k = 0; k < recv_bytes_.size(); ++k)
    recv_bytes_[k] = static_cast<int>(plan_->recv().count(k) * point_bytes);
}

void PackedEngine::begin(const void* const* src, void* const* dst, const std::uint8_t* mask) {
  FERRY_CHECK(plan_ != nullptr, Errc::State, name(), ": begin before setup");
  FERRY_CHECK(!in_flight_, Errc::State, name(),
              ": begin called twice without end. Complete each exchange with end()");
  if (fields_.select(mask)) size_blocks();
  for (std::size_t f = 0; f < fields_.size(); ++f) {
    src_[f] = static_cast<const char*>(src ? src[f] : nullptr);
    dst_[f] = static_cast<char*>(dst ? dst[f] : nullptr);
  }

  for (std::size_t k = 0; k < send_displs_.size(); ++k)
    copies_.pack(k, fields_, src_.data(), send_buffer_.data() + send_displs_[k]);
  in_flight_ = true;
  start_transfer();

  // The rank's own points move while the messages are on the wire.
  copies_.copy_self(fields_, src_.data(), dst_.data());
}

bool PackedEngine::test() {
  FERRY_CHECK(in_flight_, Errc::State, name(), ": test without begin");
  return test_transfer();
}

void PackedEngine::end() {
  FERRY_CHECK(in_flight_, Errc::State, name(), ": end without begin");
  in_flight_ = false;
  finish_transfer();
  for (std::size_t k = 0; k < recv_displs_.size(); ++k)
    copies_.unpack(k, fields_, recv_buffer_.data() + recv_displs_[k], dst_.data());
}

}  // namespace ferry::detail
