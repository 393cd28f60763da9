// PlanCache: what engines derive from a plan at setup, kept with the plan for the
// next exchange over it.
#pragma once

#include <mpi.h>

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "ferry/plan.hpp"

namespace ferry::detail {

/// Several exchanges often run over one plan (an OASIS namcouple names one entry per
/// field, all between the same two partitions): what an engine derives from the plan
/// alone (communicators of its ranks, index lists received from peers, copy runs) it
/// stores here under its own key, once per group of ranks, and the next setup over a
/// communicator of the same ranks in the same order finds it. Copies of a plan share
/// their cache. Finding is local: an engine that uses what it finds in a collective
/// call must first agree with its peers that every one of them found it.
class PlanCache {
 public:
  PlanCache() = default;
  PlanCache(const PlanCache&) = delete;
  PlanCache& operator=(const PlanCache&) = delete;
  ~PlanCache();

  /// What was stored under `key` for the ranks of `comm` (same ranks, same order), or
  /// null.
  std::shared_ptr<const void> find(std::string_view key, MPI_Comm comm) const;
  /// Stores `value` under `key` for the ranks of `comm`, replacing what was there.
  void store(std::string_view key, MPI_Comm comm, std::shared_ptr<const void> value);

 private:
  struct Entry {
    std::string key;
    MPI_Group group;
    std::shared_ptr<const void> value;
  };
  // The entry of `key` for `group`'s ranks, or entries_.end(); under mutex_.
  std::vector<Entry>::const_iterator locate(std::string_view key, MPI_Group group) const;

  mutable std::mutex mutex_;
  std::vector<Entry> entries_;
};

/// The cache of `plan` (shared by its copies).
PlanCache& plan_cache(const Plan& plan);

}  // namespace ferry::detail
