#include "engines/plan_copies.hpp"

namespace ferry::detail {

PlanCopies::PlanCopies(const Plan& plan)
    : self_(plan.self_src().data(), plan.self_dst().data(),
            static_cast<std::int64_t>(plan.self_src().size())) {
  const PlanSide& send = plan.send();
  for (std::size_t k = 0; k < send.peer_count(); ++k)
    send_.emplace_back(send.index.data() + send.offsets[k], nullptr, send.count(k));
  const PlanSide& recv = plan.recv();
  for (std::size_t k = 0; k < recv.peer_count(); ++k)
    recv_.emplace_back(nullptr, recv.index.data() + recv.offsets[k], recv.count(k));
}

void PlanCopies::pack(std::size_t k, const FieldSet& fields, const char* const* src,
                      char* block) const {
  const CopyRuns& runs = send_[k];
  for (std::size_t f = 0; f < fields.size(); ++f)
    if (fields.active(f))
      runs.apply(block + runs.count() * static_cast<std::int64_t>(fields.prefix_bytes(f)), src[f],
                 fields.element_bytes(f));
}

void PlanCopies::unpack(std::size_t k, const FieldSet& fields, const char* block,
                        char* const* dst) const {
  const CopyRuns& runs = recv_[k];
  for (std::size_t f = 0; f < fields.size(); ++f)
    if (fields.active(f))
      runs.apply(dst[f], block + runs.count() * static_cast<std::int64_t>(fields.prefix_bytes(f)),
                 fields.element_bytes(f));
}

void PlanCopies::copy_self(const FieldSet& fields, const char* const* src, char* const* dst) const {
  for (std::size_t f = 0; f < fields.size(); ++f)
    if (fields.active(f)) self_.apply(dst[f], src[f], fields.element_bytes(f));
}

}  // namespace ferry::detail
