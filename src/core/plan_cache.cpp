#include "core/plan_cache.hpp"

#include "util/mpi.hpp"

namespace ferry::detail {

namespace {

// The group of `comm`, to be freed by the caller.
MPI_Group group_of(MPI_Comm comm) {
  MPI_Group group = MPI_GROUP_NULL;
  FERRY_CALL_MPI(MPI_Comm_group(comm, &group));
  return group;
}

}  // namespace

PlanCache::~PlanCache() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  for (Entry& e : entries_) MPI_Group_free(&e.group);
}

std::vector<PlanCache::Entry>::const_iterator PlanCache::locate(std::string_view key,
                                                                MPI_Group group) const {
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->key != key) continue;
    int same = MPI_UNEQUAL;
    FERRY_CALL_MPI(MPI_Group_compare(it->group, group, &same));
    if (same == MPI_IDENT) return it;
  }
  return entries_.end();
}

std::shared_ptr<const void> PlanCache::find(std::string_view key, MPI_Comm comm) const {
  MPI_Group group = group_of(comm);
  const std::lock_guard<std::mutex> lock(mutex_);
  std::shared_ptr<const void> found;
  try {
    const auto it = locate(key, group);
    if (it != entries_.end()) found = it->value;
  } catch (...) {
    MPI_Group_free(&group);
    throw;
  }
  MPI_Group_free(&group);
  return found;
}

void PlanCache::store(std::string_view key, MPI_Comm comm, std::shared_ptr<const void> value) {
  MPI_Group group = group_of(comm);
  const std::lock_guard<std::mutex> lock(mutex_);
  try {
    const auto it = locate(key, group);
    if (it != entries_.end()) {
      entries_[static_cast<std::size_t>(it - entries_.begin())].value = std::move(value);
      MPI_Group_free(&group);
      return;
    }
    entries_.push_back({std::string(key), group, std::move(value)});
  } catch (...) {
    MPI_Group_free(&group);
    throw;
  }
}

}  // namespace ferry::detail
