#include "engines/plan_copies.hpp"

#include <string_view>

#include "core/plan_cache.hpp"

namespace ferry::detail {

namespace {

constexpr std::string_view kCacheKey = "plan copies";

// Where field f starts in a block of the runs' points.
std::int64_t field_start(const CopyRuns& runs, const FieldSet& fields, std::size_t f) {
  return runs.count() * static_cast<std::int64_t>(fields.prefix_bytes(f));
}

}  // namespace

PlanCopies::PlanCopies(const Plan& plan)
    : compiled_from_{plan.self_src().data(), plan.self_dst().data(), plan.send().index.data(),
                     plan.recv().index.data()},
      self_(plan.self_src().data(), plan.self_dst().data(),
            static_cast<std::int64_t>(plan.self_src().size())),
      self_to_block_(plan.self_src().data(), nullptr,
                     static_cast<std::int64_t>(plan.self_src().size())),
      self_from_block_(nullptr, plan.self_dst().data(),
                       static_cast<std::int64_t>(plan.self_dst().size())) {
  const PlanSide& send = plan.send();
  for (std::size_t k = 0; k < send.peer_count(); ++k)
    send_.emplace_back(send.index.data() + send.offsets[k], nullptr, send.count(k));
  const PlanSide& recv = plan.recv();
  for (std::size_t k = 0; k < recv.peer_count(); ++k)
    recv_.emplace_back(nullptr, recv.index.data() + recv.offsets[k], recv.count(k));
}

bool PlanCopies::reads(const Plan& plan) const noexcept {
  return compiled_from_[0] == plan.self_src().data() &&
         compiled_from_[1] == plan.self_dst().data() &&
         compiled_from_[2] == plan.send().index.data() &&
         compiled_from_[3] == plan.recv().index.data();
}

std::shared_ptr<const PlanCopies> PlanCopies::shared(const Plan& plan, const Comm& comm) {
  PlanCache& cache = plan_cache(plan);
  auto found = std::static_pointer_cast<const PlanCopies>(cache.find(kCacheKey, comm.get()));
  // A copy of the plan shares the cache but not the index lists the runs point into.
  if (found && found->reads(plan)) return found;
  auto made = std::make_shared<const PlanCopies>(plan);
  cache.store(kCacheKey, comm.get(), made);
  return made;
}

void PlanCopies::pack(std::size_t k, const FieldSet& fields, const char* const* src,
                      char* block) const {
  for (std::size_t f = 0; f < fields.size(); ++f)
    if (fields.active(f)) pack_field(k, fields, f, src[f], block);
}

void PlanCopies::unpack(std::size_t k, const FieldSet& fields, const char* block,
                        char* const* dst) const {
  for (std::size_t f = 0; f < fields.size(); ++f)
    if (fields.active(f)) unpack_field(k, fields, f, block, dst[f]);
}

void PlanCopies::copy_self(const FieldSet& fields, const char* const* src, char* const* dst) const {
  for (std::size_t f = 0; f < fields.size(); ++f)
    if (fields.active(f)) copy_self_field(fields, f, src[f], dst[f]);
}

void PlanCopies::pack_field(std::size_t k, const FieldSet& fields, std::size_t f, const char* src,
                            char* block) const {
  const CopyRuns& runs = send_[k];
  runs.apply(block + field_start(runs, fields, f), src, fields.element_bytes(f));
}

void PlanCopies::unpack_field(std::size_t k, const FieldSet& fields, std::size_t f,
                              const char* block, char* dst) const {
  const CopyRuns& runs = recv_[k];
  runs.apply(dst, block + field_start(runs, fields, f), fields.element_bytes(f));
}

void PlanCopies::copy_self_field(const FieldSet& fields, std::size_t f, const char* src,
                                 char* dst) const {
  self_.apply(dst, src, fields.element_bytes(f));
}

void PlanCopies::pack_self_field(const FieldSet& fields, std::size_t f, const char* src,
                                 char* block) const {
  self_to_block_.apply(block + field_start(self_to_block_, fields, f), src,
                       fields.element_bytes(f));
}

void PlanCopies::unpack_self_field(const FieldSet& fields, std::size_t f, const char* block,
                                   char* dst) const {
  self_from_block_.apply(dst, block + field_start(self_from_block_, fields, f),
                         fields.element_bytes(f));
}

}  // namespace ferry::detail
