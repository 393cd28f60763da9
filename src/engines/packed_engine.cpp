#include "engines/packed_engine.hpp"

#include <algorithm>

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
  staged_.assign(fields.size(), 0);
  held_.assign(fields.size(), 0);
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
  FERRY_CHECK(mask == nullptr || std::find(staged_.begin(), staged_.end(), 1) == staged_.end(),
              Errc::State, name(),
              ": begin with a mask after stage(); staged fields travel with every field. Pass "
              "mask nullptr");
  if (fields_.select(mask)) size_blocks();
  for (std::size_t f = 0; f < fields_.size(); ++f) {
    src_[f] = static_cast<const char*>(src ? src[f] : nullptr);
    dst_[f] = static_cast<char*>(dst ? dst[f] : nullptr);
    held_[f] = fields_.active(f) && dst_[f] == nullptr ? 1 : 0;
  }

  for (std::size_t k = 0; k < send_displs_.size(); ++k)
    for (std::size_t f = 0; f < fields_.size(); ++f)
      if (fields_.active(f) && !staged_[f])
        copies_.pack_field(k, fields_, f, src_[f], send_buffer_.data() + send_displs_[k]);
  in_flight_ = true;
  start_transfer();

  // The rank's own points move while the messages are on the wire.
  if (copies_.self_count() > 0) copy_own_points();
  std::fill(staged_.begin(), staged_.end(), 0);
}

void PackedEngine::copy_own_points() {
  for (std::size_t f = 0; f < fields_.size(); ++f) {
    if (!fields_.active(f)) continue;
    if (staged_[f] && dst_[f] != nullptr)
      copies_.unpack_self_field(fields_, f, self_block(), dst_[f]);
    else if (!staged_[f] && dst_[f] != nullptr)
      copies_.copy_self_field(fields_, f, src_[f], dst_[f]);
    else if (!staged_[f])
      copies_.pack_self_field(fields_, f, src_[f], self_block());
    // Staged and held: the values already wait in the self block.
  }
}

char* PackedEngine::self_block() {
  if (self_buffer_.empty())
    self_buffer_.assign(static_cast<std::size_t>(copies_.self_count()) * fields_.point_bytes_all(),
                        0);
  return self_buffer_.data();
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
    for (std::size_t f = 0; f < fields_.size(); ++f)
      if (fields_.active(f) && dst_[f] != nullptr)
        copies_.unpack_field(k, fields_, f, recv_buffer_.data() + recv_displs_[k], dst_[f]);
}

void PackedEngine::check_field(const char* call, std::size_t field) const {
  FERRY_CHECK(plan_ != nullptr, Errc::State, name(), ": ", call, " before setup");
  FERRY_CHECK(!in_flight_, Errc::State, name(), ": ", call,
              " while an exchange is in flight. Complete it with end() first");
  FERRY_CHECK(field < fields_.size(), Errc::ArgRange, name(), ": ", call, " of field ", field,
              "; the exchange has ", fields_.size(), " fields");
}

void PackedEngine::stage(std::size_t field, const void* src) {
  check_field("stage", field);
  // Staged values sit where an exchange of every field puts them.
  if (fields_.select(nullptr)) size_blocks();
  std::fill(held_.begin(), held_.end(), 0);  // their own points share the self block
  const auto* from = static_cast<const char*>(src);
  for (std::size_t k = 0; k < send_displs_.size(); ++k)
    copies_.pack_field(k, fields_, field, from, send_buffer_.data() + send_displs_[k]);
  if (copies_.self_count() > 0) copies_.pack_self_field(fields_, field, from, self_block());
  staged_[field] = 1;
}

void PackedEngine::take(std::size_t field, void* dst) {
  check_field("take", field);
  FERRY_CHECK(held_[field], Errc::State, name(), ": take of field ", field,
              ": the last exchange did not leave it in the receive buffer (begin() with dst[",
              field, "] == nullptr does, until the next stage() or begin())");
  auto* to = static_cast<char*>(dst);
  for (std::size_t k = 0; k < recv_displs_.size(); ++k)
    copies_.unpack_field(k, fields_, field, recv_buffer_.data() + recv_displs_[k], to);
  if (copies_.self_count() > 0) copies_.unpack_self_field(fields_, field, self_block(), to);
}

}  // namespace ferry::detail
