#include "engines/packed_engine.hpp"

#include <algorithm>

#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::detail {

PackedEngine::PackedEngine(std::string_view name, bool persistent, bool tagged)
    : FieldEngine(name, [persistent, tagged] {
        Capabilities c;
        c.persistent = persistent;
        c.tagged = tagged;
        c.holds_fields = true;
        return c;
      }()) {}

void PackedEngine::setup(const Plan& plan, const Comm& comm, const std::vector<FieldSpec>& fields,
                         const EngineOptions& options) {
  bind(plan, comm, fields.size());
  assign_fields(fields);
  const auto point_bytes = static_cast<std::int64_t>(this->fields().point_bytes_all());
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
  staged_.assign(fields.size(), 0);
  held_.assign(fields.size(), 0);
  setup_transfer(options);
}

void PackedEngine::size_blocks() {
  const auto point_bytes = static_cast<std::int64_t>(fields().point_bytes());
  for (std::size_t k = 0; k < send_bytes_.size(); ++k)
    send_bytes_[k] = static_cast<int>(plan().send().count(k) * point_bytes);
  for (std::size_t k = 0; k < recv_bytes_.size(); ++k)
    recv_bytes_[k] = static_cast<int>(plan().recv().count(k) * point_bytes);
}

void PackedEngine::begin(const void* const* src, void* const* dst, const std::uint8_t* mask) {
  check_begin();
  FERRY_CHECK(mask == nullptr || std::find(staged_.begin(), staged_.end(), 1) == staged_.end(),
              Errc::State, name(),
              ": begin with a mask after stage(); staged fields travel with every field. Pass "
              "mask nullptr");
  if (open_exchange(src, dst, mask)) size_blocks();
  const FieldSet& set = fields();
  for (std::size_t f = 0; f < set.size(); ++f) held_[f] = set.active(f) && !this->dst()[f] ? 1 : 0;

  for (std::size_t k = 0; k < send_displs_.size(); ++k)
    for (std::size_t f = 0; f < set.size(); ++f)
      if (set.active(f) && !staged_[f])
        copies().pack_field(k, set, f, this->src()[f], send_buffer_.data() + send_displs_[k]);
  transfer_ = start_transfer();

  // The rank's own points move while the messages are on the wire.
  if (copies().self_count() > 0) copy_own_points();
  std::fill(staged_.begin(), staged_.end(), 0);
}

void PackedEngine::copy_own_points() {
  const FieldSet& set = fields();
  for (std::size_t f = 0; f < set.size(); ++f) {
    if (!set.active(f)) continue;
    char* to = dst()[f];
    if (staged_[f] && to != nullptr)
      copies().unpack_self_field(set, f, self_block(), to);
    else if (!staged_[f] && to != nullptr)
      copies().copy_self_field(set, f, src()[f], to);
    else if (!staged_[f])
      copies().pack_self_field(set, f, src()[f], self_block());
    // Staged and held: the values already wait in the self block.
  }
}

char* PackedEngine::self_block() {
  if (self_buffer_.empty())
    self_buffer_.assign(
        static_cast<std::size_t>(copies().self_count()) * fields().point_bytes_all(), 0);
  return self_buffer_.data();
}

bool PackedEngine::test() {
  check_in_flight();
  int done = 1;
  // Completed requests turn null or inactive, so end()'s wait returns at once.
  if (transfer_.count > 0)
    FERRY_CALL_MPI(MPI_Testall(transfer_.count, transfer_.data, &done, MPI_STATUSES_IGNORE));
  return done != 0;
}

void PackedEngine::end() {
  close_exchange();
  if (transfer_.count > 0)
    FERRY_CALL_MPI(MPI_Waitall(transfer_.count, transfer_.data, MPI_STATUSES_IGNORE));
  const FieldSet& set = fields();
  for (std::size_t k = 0; k < recv_displs_.size(); ++k)
    for (std::size_t f = 0; f < set.size(); ++f)
      if (set.active(f) && dst()[f] != nullptr)
        copies().unpack_field(k, set, f, recv_buffer_.data() + recv_displs_[k], dst()[f]);
}

void PackedEngine::check_field(const char* call, std::size_t field) const {
  FERRY_CHECK(set_up(), Errc::State, name(), ": ", call, " before setup");
  FERRY_CHECK(!in_flight(), Errc::State, name(), ": ", call,
              " while an exchange is in flight. Complete it with end() first");
  FERRY_CHECK(field < fields().size(), Errc::ArgRange, name(), ": ", call, " of field ", field,
              "; the exchange has ", fields().size(), " fields");
}

void PackedEngine::stage(std::size_t field, const void* src) {
  check_field("stage", field);
  // Staged values sit where an exchange of every field puts them.
  if (fields().select(nullptr)) size_blocks();
  std::fill(held_.begin(), held_.end(), 0);  // their own points share the self block
  const auto* from = static_cast<const char*>(src);
  for (std::size_t k = 0; k < send_displs_.size(); ++k)
    copies().pack_field(k, fields(), field, from, send_buffer_.data() + send_displs_[k]);
  if (copies().self_count() > 0) copies().pack_self_field(fields(), field, from, self_block());
  staged_[field] = 1;
}

void PackedEngine::take(std::size_t field, void* dst) {
  check_field("take", field);
  FERRY_CHECK(held_[field], Errc::State, name(), ": take of field ", field,
              ": the last exchange did not leave it in the receive buffer (begin() with dst[",
              field, "] == nullptr does, until the next stage() or begin())");
  auto* to = static_cast<char*>(dst);
  for (std::size_t k = 0; k < recv_displs_.size(); ++k)
    copies().unpack_field(k, fields(), field, recv_buffer_.data() + recv_displs_[k], to);
  if (copies().self_count() > 0) copies().unpack_self_field(fields(), field, self_block(), to);
}

}  // namespace ferry::detail
