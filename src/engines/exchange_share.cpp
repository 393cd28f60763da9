#include "ferry/exchange_share.hpp"

#include <utility>

#include "util/mpi.hpp"

namespace ferry {

ExchangeShare::ExchangeShare(MPI_Comm comm, std::size_t expected_exchanges,
                             LateSetupErrors late_errors)
    : comm_(Comm::dup(comm)), expected_(expected_exchanges), late_errors_(late_errors) {
  int* upper = nullptr;
  int found = 0;
  FERRY_CALL_MPI(MPI_Comm_get_attr(comm_.get(), MPI_TAG_UB, &upper, &found));
  if (found && upper) tag_upper_bound_ = *upper;
}

ExchangeShare::~ExchangeShare() = default;

std::optional<int> ExchangeShare::next_tag_base() {
  if (static_cast<long long>(exchanges_ + 1) * kTagsPerExchange - 1 > tag_upper_bound_)
    return std::nullopt;
  return static_cast<int>(exchanges_++) * kTagsPerExchange;
}

std::shared_ptr<SharedResource> ExchangeShare::find(const std::string& key) const {
  for (auto it = resources_.rbegin(); it != resources_.rend(); ++it)
    if (it->first == key) return it->second;
  return nullptr;
}

void ExchangeShare::store(const std::string& key, std::shared_ptr<SharedResource> resource) {
  resources_.emplace_back(key, std::move(resource));
}

void ExchangeShare::close() {
  if (closed_) return;
  closed_ = true;
  for (auto& [key, resource] : resources_) resource->close();
}

}  // namespace ferry
