// HopSchedule: the route of a plan's data through intermediate ranks, hop by hop.
#pragma once

#include <cstdint>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/plan.hpp"

namespace ferry::detail {

/// One hop as seen by one rank, in points (bytes = points x bytes per point of the
/// fields moved). Between hops a rank holds whole segments (the points one source
/// sends to one destination) in a hold buffer; a hop sends some segments to peers,
/// receives others, and keeps the rest.
struct Hop {
  struct Message {
    int peer;
    std::int64_t offset;  ///< in the current hold (sends), staging (staged sends) or next hold (receives)
    std::int64_t count;
    bool staged;          ///< sends only: the message is assembled in the staging buffer
  };
  struct Copy {
    std::int64_t from, to, count;
  };
  std::vector<Message> sends;
  std::vector<Message> recvs;
  std::vector<Copy> to_staging;  ///< current hold -> staging, for staged sends
  std::vector<Copy> kept;        ///< current hold -> next hold, segments that stay
};

/// Who does what in a plan's butterfly, identical on every rank; O(P) arrays.
struct KernelRoles {
  std::vector<int> kernel_rank;      ///< kernel index -> rank
  std::vector<int> kernel_index;     ///< rank -> kernel index, or -1
  std::vector<int> sender_kernel;    ///< rank -> kernel process it sends through, or -1
  std::vector<int> receiver_kernel;  ///< rank -> kernel process it receives from, or -1
  int stages = 0;                    ///< log2 of the kernel size N_B

  /// Collective over `comm`: one allgather of four numbers per rank.
  static KernelRoles gather(const Plan& plan, const Comm& comm);
};

/// The hops that move a plan's data. Collective to build.
///
/// Direct (every butterfly stage skipped): one hop, each source sends its segment
/// to each destination: the point-to-point exchange.
///
/// Butterfly (data-transfer paper, section 3): the kernel is N_B = the largest power
/// of two <= the number of ranks that send or receive, taken from the senders first,
/// then the receivers. Senders and receivers map onto kernel processes by iterative
/// pairing (process_mapping.hpp). Hops: senders -> their kernel process; then one
/// round per group of stages, a round exchanging between kernel processes whose
/// indices differ only in the round's bits (one partner per kept stage, 2^k - 1 for
/// k merged stages); then kernel processes -> receivers. After each stage, the
/// kernel processes that may hold data for a given receiver halve.
///
/// Every rank keeps only its own view: its hops, and O(P) mapping arrays while
/// building. No global index lists, no P x P matrices.
class HopSchedule {
 public:
  HopSchedule() = default;
  /// The point-to-point schedule. Not collective.
  static HopSchedule direct(const Plan& plan);
  /// The butterfly schedule of `roles` (gathered for `plan` on `comm`); keep[i] false
  /// skips stage i (merged into a neighbour). keep.size() must equal roles.stages.
  /// Collective over `comm`.
  static HopSchedule butterfly(const Plan& plan, const Comm& comm, const KernelRoles& roles,
                               const std::vector<bool>& keep);

  const std::vector<Hop>& hops() const noexcept { return hops_; }
  /// Offset in the final hold of the segment from plan receive peer k.
  const std::vector<std::int64_t>& final_offsets() const noexcept { return final_offsets_; }
  /// Largest hold and staging sizes over the hops (points).
  std::int64_t max_hold() const noexcept { return max_hold_; }
  std::int64_t max_staging() const noexcept { return max_staging_; }
  /// Largest single message (points), for count checks.
  std::int64_t max_message() const noexcept { return max_message_; }

 private:
  void finish(const std::vector<std::int64_t>& hold_sizes);

  std::vector<Hop> hops_;
  std::vector<std::int64_t> final_offsets_;
  std::int64_t max_hold_ = 0;
  std::int64_t max_staging_ = 0;
  std::int64_t max_message_ = 0;
};

}  // namespace ferry::detail
