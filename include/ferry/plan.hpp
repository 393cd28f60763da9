// ferry::Plan: who sends which points to whom, independent of any engine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/layout.hpp"

namespace ferry {

class Plan;
namespace detail {
class PlanCache;
PlanCache& plan_cache(const Plan& plan);
}  // namespace detail

/// One side (send or receive) of a plan on one rank: the peers, and for each
/// peer the local indices (into this rank's layout) of the points exchanged
/// with it, ordered by global id so both sides agree on the order.
struct PlanSide {
  std::vector<int> peers;              ///< peer ranks in the plan's communicator, ascending
  std::vector<std::int64_t> offsets;   ///< peers.size()+1 entries: peer k owns index[offsets[k]..offsets[k+1])
  std::vector<std::int64_t> index;     ///< local indices, grouped by peer

  std::size_t peer_count() const noexcept { return peers.size(); }
  std::int64_t count(std::size_t k) const noexcept { return offsets[k + 1] - offsets[k]; }
  std::int64_t total() const noexcept { return offsets.empty() ? 0 : offsets.back(); }
};

/// The redistribution from a source layout to a destination layout over one
/// communicator. Built collectively by a distributed rendezvous: each id has a
/// home rank (ranks are homes of consecutive chunks of ceil(N/P) ids); sources and
/// destinations register their ids there with one all-to-all, homes sort what they
/// received by id, match and answer. Memory: no rank ever holds O(N) global data or
/// an O(P^2) matrix, only its own ids, the registrations it receives as a home, and
/// O(P) counts; a balanced layout pair therefore costs O(N/P + P) per rank, and
/// sparse ids (any N up to 2^63) cost what the ranks hold.
/// Points a rank sends to itself are kept apart (`self_src`/`self_dst`) so engines
/// copy them directly.
class Plan {
 public:
  /// Collective over `comm`. Raises, identically on every rank: Errc::ArgRange (an id
  /// outside 0..N-1), Errc::Arg (layouts of different global sizes), Errc::Duplicate
  /// (an id held by two source ranks), Errc::Missing (a destination id no source holds;
  /// the message lists the first few).
  static Plan build(const Comm& comm, const Layout& src, const Layout& dst);

  const PlanSide& send() const noexcept { return send_; }
  const PlanSide& recv() const noexcept { return recv_; }
  /// Points copied locally: self_src[i] (source local index) -> self_dst[i] (destination local index).
  const std::vector<std::int64_t>& self_src() const noexcept { return self_src_; }
  const std::vector<std::int64_t>& self_dst() const noexcept { return self_dst_; }

  std::int64_t global_size() const noexcept { return global_size_; }
  std::int64_t src_local_size() const noexcept { return src_local_size_; }
  std::int64_t dst_local_size() const noexcept { return dst_local_size_; }
  bool src_member() const noexcept { return src_member_; }
  bool dst_member() const noexcept { return dst_member_; }
  int comm_size() const noexcept { return comm_size_; }
  int rank() const noexcept { return rank_; }

  /// Bytes this plan holds on this rank (capacity of all its arrays).
  std::size_t memory_bytes() const noexcept;

 private:
  friend class PlanBuilder;
  friend detail::PlanCache& detail::plan_cache(const Plan& plan);
  PlanSide send_;
  PlanSide recv_;
  std::vector<std::int64_t> self_src_;
  std::vector<std::int64_t> self_dst_;
  std::int64_t global_size_ = 0;
  std::int64_t src_local_size_ = 0;
  std::int64_t dst_local_size_ = 0;
  bool src_member_ = false;
  bool dst_member_ = false;
  int comm_size_ = 0;
  int rank_ = -1;
  // What engines derived from the plan (src/core/plan_cache.hpp), shared by copies.
  std::shared_ptr<detail::PlanCache> cache_;
};

}  // namespace ferry
