#include "groups.hpp"

#include "util/check.hpp"

namespace ferry::bench {

const char* groups_name(Groups groups) noexcept {
  return groups == Groups::Split ? "split" : "shared";
}

Roles assign_roles(Groups requested, int comm_size, int rank) {
  FERRY_CHECK(comm_size >= 1 && rank >= 0 && rank < comm_size, Errc::Arg,
              "assign_roles: rank ", rank, " is outside a communicator of ", comm_size, " ranks");
  Roles roles;
  // One rank cannot be split into two non-empty components.
  roles.groups = comm_size == 1 ? Groups::Shared : requested;
  if (roles.groups == Groups::Shared) {
    roles.src_ranks = roles.dst_ranks = comm_size;
    roles.src_part = roles.dst_part = rank;
    return roles;
  }
  roles.src_ranks = comm_size / 2;
  roles.dst_ranks = comm_size - roles.src_ranks;
  if (rank < roles.src_ranks)
    roles.src_part = rank;
  else
    roles.dst_part = rank - roles.src_ranks;
  return roles;
}

}  // namespace ferry::bench
