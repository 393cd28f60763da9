// RmaRoute: what the rma engine derives from a plan and its ranks, for any fields.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "engines/copy_runs.hpp"
#include "ferry/comm.hpp"
#include "ferry/plan.hpp"

namespace ferry::detail {

/// The part of an rma setup that depends on the plan and on which ranks share a node,
/// not on the fields: the node communicator, which peers are on the node, and the
/// positions of this rank's points in its on-node destinations' fields (8 bytes a
/// point, sent by each destination) compiled into copy runs. Every exchange over the
/// same plan and the same ranks shares one (an OASIS namcouple's entries between two
/// partitions, one per field), through the plan's cache: only the first pays for the
/// node split and the positions. Positions that form few strided runs (regular layouts:
/// a few per row) travel as those runs, and the copy runs are compiled from them.
struct RmaRoute {
  /// Not collective: the route stored in the plan's cache for `comm`'s ranks, or null.
  /// A rank whose earlier setup failed after others stored theirs has none: the caller
  /// uses a cached route only if every rank has it (found in its agreement), else
  /// every rank builds a new one, so that all take part in the same collective calls.
  static std::shared_ptr<const RmaRoute> cached(const Plan& plan, const Comm& comm,
                                                bool shared_memory);
  /// Collective over `comm`: a new route, stored in the plan's cache. `shared_memory`
  /// false treats every peer as off-node. `tag`: the tag of the positions the
  /// destinations send.
  static std::shared_ptr<const RmaRoute> build(const Plan& plan, const Comm& comm,
                                               bool shared_memory, int tag);

  Comm node;                   ///< ranks whose receive windows this rank can load/store
  std::vector<int> node_rank;  ///< per plan send peer: rank in `node`, or MPI_UNDEFINED

  /// Send peers, on-node destinations first: plan peer indices.
  std::vector<std::size_t> send_order;
  std::size_t node_sends = 0;
  /// Per on-node destination (send_order index): where our points go in its fields
  /// (empty when they came as runs and the copy runs need no list), and the copy runs
  /// from our field to its (they may read `node_positions`).
  std::vector<std::vector<std::int64_t>> node_positions;
  std::vector<CopyRuns> node_runs;

  /// Receive peers on other nodes (plan indices) and the offset of each one's block in
  /// the block area, in points (indexed by plan recv peer); their points in all.
  std::vector<std::size_t> remote_recv;
  std::vector<std::int64_t> block_offset;
  std::int64_t block_points = 0;
  /// The points the node's sources write into the field area, and their copy runs from
  /// it to the caller's field (`node_recv_index` holds them unless they are the plan's
  /// whole receive index).
  std::int64_t node_points = 0;
  std::vector<std::int64_t> node_recv_index;
  CopyRuns node_recv_runs;

 private:
  RmaRoute(const Plan& plan, const Comm& comm, bool shared_memory, int tag);
};

}  // namespace ferry::detail
