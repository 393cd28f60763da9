// The Bruck-style all-to-all-v: ceil(log2 P) rounds, blocks forwarded through
// intermediate ranks.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ferry/comm.hpp"

namespace ferry::detail {

/// Slot i of a rank starts as its block for rank + i and ends as its block from
/// rank - i: in round k (2^k < P) the slots whose index has bit k set go to
/// rank + 2^k, and the same slots of rank - 2^k replace them.
class BruckAlltoallv {
 public:
  /// Collective over `comm`: runs the rounds once on the block sizes, so that
  /// execute() knows every message's size and allocates nothing.
  BruckAlltoallv(const Comm& comm, const std::vector<int>& send_counts,
                 MPI_Datatype type, std::size_t value_bytes);

  /// Collective. Arguments as for MPI_Alltoallv, with the counts of the constructor.
  void execute(const Comm& comm, const char* send, const std::vector<int>& send_displs,
               char* recv, const std::vector<int>& recv_displs);

 private:
  struct Round {
    int to = 0;
    int from = 0;
    std::vector<int> slots;                 // indices with this round's bit set
    std::vector<std::int64_t> recv_values;  // values received per slot, in that order
    std::vector<char> received;             // where they land
  };
  MPI_Datatype type_;
  std::size_t value_bytes_;
  std::vector<int> send_counts_;
  std::vector<Round> rounds_;
  std::vector<char> packed_;  // one round's outgoing slots, back to back
  // The slots while executing: where each one's values are, and how many.
  std::vector<const char*> slot_data_;
  std::vector<std::int64_t> slot_values_;
};

}  // namespace ferry::detail
