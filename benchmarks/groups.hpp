// Which ranks form the source and destination components of a benchmark run.
#pragma once

#include <string>

namespace ferry::bench {

/// split: the first half of the ranks is the source component, the second half the
/// destination (an inter-component transfer); shared: every rank is both (a
/// rearrangement inside one component).
enum class Groups { Split, Shared };

const char* groups_name(Groups groups) noexcept;

/// This rank's parts in the two components; part -1 means "not a member".
struct Roles {
  Groups groups = Groups::Shared;  ///< what was run (split falls back to shared on 1 rank)
  int src_ranks = 0;
  int dst_ranks = 0;
  int src_part = -1;
  int dst_part = -1;
};

/// Not collective: the same answer on every rank for the same arguments.
Roles assign_roles(Groups requested, int comm_size, int rank);

}  // namespace ferry::bench
