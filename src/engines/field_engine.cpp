#include "engines/field_engine.hpp"

#include "util/check.hpp"

namespace ferry::detail {

void FieldEngine::bind(const Plan& plan, const Comm& comm, std::size_t field_count) {
  FERRY_CHECK(plan_ == nullptr, Errc::State, name_,
              ": setup called twice. Make a new engine instead");
  plan_ = &plan;
  comm_ = &comm;
  copies_ = PlanCopies::shared(plan, comm);
  src_.assign(field_count, nullptr);
  dst_.assign(field_count, nullptr);
}

Traffic FieldEngine::traffic() const {
  const PlanSide& send = plan_->send();
  return {static_cast<std::int64_t>(send.peer_count()),
          send.total() * static_cast<std::int64_t>(fields_.point_bytes_all()),
          send.peer_count() + plan_->recv().peer_count() > 0 ? 1 : 0};
}

void FieldEngine::check_begin() const {
  FERRY_CHECK(plan_ != nullptr, Errc::State, name_, ": begin before setup");
  FERRY_CHECK(!in_flight_, Errc::State, name_,
              ": begin called twice without end. Complete each exchange with end()");
}

bool FieldEngine::open_exchange(const void* const* src, void* const* dst,
                                const std::uint8_t* mask) {
  const bool changed = fields_.select(mask);
  for (std::size_t f = 0; f < src_.size(); ++f) {
    src_[f] = static_cast<const char*>(src ? src[f] : nullptr);
    dst_[f] = static_cast<char*>(dst ? dst[f] : nullptr);
  }
  in_flight_ = true;
  return changed;
}

void FieldEngine::close_exchange() {
  FERRY_CHECK(in_flight_, Errc::State, name_, ": end without begin");
  in_flight_ = false;
}

void FieldEngine::check_in_flight() const {
  FERRY_CHECK(in_flight_, Errc::State, name_, ": test without begin");
}

}  // namespace ferry::detail
