#include "engines/butterfly/hop_schedule.hpp"

#include <algorithm>
#include <functional>

#include "engines/butterfly/process_mapping.hpp"
#include "engines/tuning/candidate.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::detail {

namespace {

constexpr int kTagBase = 7500;  // + 2 * hop (+1): metadata messages at setup

// The points one source sends to one destination; never split on the way.
struct Segment {
  std::int64_t origin, target, count;
};
struct Held {
  Segment segment;
  std::int64_t offset;  // in the hold buffer, points
};

// Adjacent copies (both sides contiguous) become one.
void merge_copies(std::vector<Hop::Copy>& copies) {
  std::vector<Hop::Copy> merged;
  for (const auto& c : copies) {
    if (!merged.empty() && merged.back().from + merged.back().count == c.from &&
        merged.back().to + merged.back().count == c.to)
      merged.back().count += c.count;
    else
      merged.push_back(c);
  }
  copies.swap(merged);
}

// Moves the held segments one hop. `next` names the rank each segment goes to
// (this rank = it stays); `out` and `in` are every rank that may receive from or
// send to this one in this hop (empty messages included, so both sides agree).
std::vector<Held> move_one_hop(const Comm& comm, int hop_index, const std::vector<Held>& held,
                               const std::function<int(const Segment&)>& next,
                               const std::vector<int>& out, const std::vector<int>& in, Hop& hop,
                               std::int64_t& staging_points) {
  const int me = comm.rank();
  std::vector<std::vector<std::size_t>> going(out.size());
  std::vector<std::size_t> staying;
  for (std::size_t i = 0; i < held.size(); ++i) {
    const int to = next(held[i].segment);
    if (to == me) {
      staying.push_back(i);
      continue;
    }
    const auto it = std::lower_bound(out.begin(), out.end(), to);
    FERRY_ASSERT(it != out.end() && *it == to, "hop ", hop_index, ": segment for rank ", to,
                 " has no route");
    going[static_cast<std::size_t>(it - out.begin())].push_back(i);
  }

  // Metadata: how many segments, then the segments, to every potential partner.
  const int tag = kTagBase + 2 * hop_index;
  std::vector<std::int64_t> out_counts(out.size()), in_counts(in.size());
  std::vector<std::vector<Segment>> out_segments(out.size()), in_segments(in.size());
  std::vector<MPI_Request> requests;
  for (std::size_t k = 0; k < in.size(); ++k) {
    requests.emplace_back();
    FERRY_CALL_MPI(MPI_Irecv(&in_counts[k], 1, MPI_INT64_T, in[k], tag, comm.get(), &requests.back()));
  }
  for (std::size_t k = 0; k < out.size(); ++k) {
    for (std::size_t i : going[k]) out_segments[k].push_back(held[i].segment);
    out_counts[k] = static_cast<std::int64_t>(going[k].size());
    requests.emplace_back();
    FERRY_CALL_MPI(MPI_Isend(&out_counts[k], 1, MPI_INT64_T, out[k], tag, comm.get(), &requests.back()));
  }
  FERRY_CALL_MPI(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
  requests.clear();
  for (std::size_t k = 0; k < in.size(); ++k) {
    if (in_counts[k] == 0) continue;
    in_segments[k].resize(static_cast<std::size_t>(in_counts[k]));
    requests.emplace_back();
    FERRY_CALL_MPI(MPI_Irecv(in_segments[k].data(), mpi_count<int>(3 * in_counts[k], "butterfly setup"),
                             MPI_INT64_T, in[k], tag + 1, comm.get(), &requests.back()));
  }
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (out_counts[k] == 0) continue;
    requests.emplace_back();
    FERRY_CALL_MPI(MPI_Isend(out_segments[k].data(), mpi_count<int>(3 * out_counts[k], "butterfly setup"),
                             MPI_INT64_T, out[k], tag + 1, comm.get(), &requests.back()));
  }
  FERRY_CALL_MPI(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE));

  // The next hold: what arrives, peer by peer, then what stays.
  std::vector<Held> next_held;
  std::int64_t offset = 0;
  for (std::size_t k = 0; k < in.size(); ++k) {
    const std::int64_t start = offset;
    for (const Segment& s : in_segments[k]) {
      next_held.push_back({s, offset});
      offset += s.count;
    }
    if (offset > start) hop.recvs.push_back({in[k], start, offset - start, false});
  }
  for (std::size_t i : staying) {
    hop.kept.push_back({held[i].offset, offset, held[i].segment.count});
    next_held.push_back({held[i].segment, offset});
    offset += held[i].segment.count;
  }
  merge_copies(hop.kept);

  // Sends straight from the hold when a message's segments lie side by side.
  std::int64_t staged = 0;
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (going[k].empty()) continue;
    bool side_by_side = true;
    std::int64_t total = 0;
    for (std::size_t j = 0; j < going[k].size(); ++j) {
      const Held& h = held[going[k][j]];
      if (j > 0 && h.offset != held[going[k][0]].offset + total) side_by_side = false;
      total += h.segment.count;
    }
    if (side_by_side) {
      hop.sends.push_back({out[k], held[going[k][0]].offset, total, false});
      continue;
    }
    hop.sends.push_back({out[k], staged, total, true});
    for (std::size_t i : going[k]) {
      hop.to_staging.push_back({held[i].offset, staged, held[i].segment.count});
      staged += held[i].segment.count;
    }
  }
  merge_copies(hop.to_staging);
  staging_points = std::max(staging_points, staged);
  return next_held;
}

}  // namespace

KernelRoles KernelRoles::gather(const Plan& plan, const Comm& comm) {
  const int p = comm.size();
  // Per rank: sends?, receives?, points sent, points received (own points excluded).
  std::int64_t mine[4] = {plan.src_member() ? 1 : 0, plan.dst_member() ? 1 : 0,
                          plan.send().total(), plan.recv().total()};
  std::vector<std::int64_t> all(4 * static_cast<std::size_t>(p));
  FERRY_CALL_MPI(MPI_Allgather(mine, 4, MPI_INT64_T, all.data(), 4, MPI_INT64_T, comm.get()));

  std::vector<int> senders, receivers, others;
  std::vector<std::int64_t> send_sizes, recv_sizes;
  for (int r = 0; r < p; ++r) {
    const std::int64_t* info = &all[4 * static_cast<std::size_t>(r)];
    if (info[0]) {
      senders.push_back(r);
      send_sizes.push_back(info[2]);
    }
    if (info[1]) {
      receivers.push_back(r);
      recv_sizes.push_back(info[3]);
      if (!info[0]) others.push_back(r);
    }
  }
  KernelRoles roles;
  const int unique = static_cast<int>(senders.size() + others.size());
  roles.stages = butterfly_stage_count(unique);
  const int kernel = 1 << roles.stages;
  // Kernel processes: senders first, then receivers that do not send.
  for (int r : senders)
    if (static_cast<int>(roles.kernel_rank.size()) < kernel) roles.kernel_rank.push_back(r);
  for (int r : others)
    if (static_cast<int>(roles.kernel_rank.size()) < kernel) roles.kernel_rank.push_back(r);
  roles.kernel_index.assign(static_cast<std::size_t>(p), -1);
  for (int b = 0; b < static_cast<int>(roles.kernel_rank.size()); ++b)
    roles.kernel_index[static_cast<std::size_t>(roles.kernel_rank[static_cast<std::size_t>(b)])] = b;
  roles.sender_kernel.assign(static_cast<std::size_t>(p), -1);
  roles.receiver_kernel.assign(static_cast<std::size_t>(p), -1);
  if (!senders.empty()) {
    const std::vector<int> k = map_onto_kernel(send_sizes, kernel);
    for (std::size_t i = 0; i < senders.size(); ++i) roles.sender_kernel[static_cast<std::size_t>(senders[i])] = k[i];
  }
  if (!receivers.empty()) {
    const std::vector<int> k = map_onto_kernel(recv_sizes, kernel);
    for (std::size_t i = 0; i < receivers.size(); ++i)
      roles.receiver_kernel[static_cast<std::size_t>(receivers[i])] = k[i];
  }
  return roles;
}

HopSchedule HopSchedule::direct(const Plan& plan) {
  HopSchedule s;
  Hop hop;
  const PlanSide& send = plan.send();
  for (std::size_t k = 0; k < send.peer_count(); ++k)
    hop.sends.push_back({send.peers[k], send.offsets[k], send.count(k), false});
  const PlanSide& recv = plan.recv();
  for (std::size_t k = 0; k < recv.peer_count(); ++k) {
    hop.recvs.push_back({recv.peers[k], recv.offsets[k], recv.count(k), false});
    s.final_offsets_.push_back(recv.offsets[k]);
  }
  s.hops_.push_back(std::move(hop));
  s.finish({send.total(), recv.total()});
  return s;
}

HopSchedule HopSchedule::butterfly(const Plan& plan, const Comm& comm, const KernelRoles& roles,
                                   const std::vector<bool>& keep) {
  FERRY_ASSERT(static_cast<int>(keep.size()) == roles.stages, "stage mask of ", keep.size(),
               " for ", roles.stages, " stages");
  const int me = comm.rank();
  const int p = comm.size();
  const auto at = [](const std::vector<int>& v, int i) { return v[static_cast<std::size_t>(i)]; };

  // Rounds: each kept stage closes a round; skipped stages join the next kept one
  // (trailing ones the last round).
  std::vector<int> rounds;
  int pending = 0;
  for (int i = 0; i < roles.stages; ++i) {
    pending |= 1 << i;
    if (keep[static_cast<std::size_t>(i)]) {
      rounds.push_back(pending);
      pending = 0;
    }
  }
  if (pending != 0) {
    if (rounds.empty())
      rounds.push_back(pending);
    else
      rounds.back() |= pending;
  }

  HopSchedule s;
  std::vector<Held> held;
  const PlanSide& send = plan.send();
  for (std::size_t k = 0; k < send.peer_count(); ++k)
    held.push_back({{me, send.peers[k], send.count(k)}, send.offsets[k]});
  std::vector<std::int64_t> hold_sizes{send.total()};
  auto run = [&](const std::function<int(const Segment&)>& next, std::vector<int> out,
                 std::vector<int> in) {
    std::sort(out.begin(), out.end());
    std::sort(in.begin(), in.end());
    s.hops_.emplace_back();
    held = move_one_hop(comm, static_cast<int>(s.hops_.size()) - 1, held, next, out, in,
                        s.hops_.back(), s.max_staging_);
    std::int64_t size = 0;
    for (const Held& h : held) size += h.segment.count;
    hold_sizes.push_back(size);
  };

  // Senders hand their data to their kernel process.
  {
    std::vector<int> out, in;
    const int my_kernel = at(roles.sender_kernel, me);
    if (my_kernel >= 0 && at(roles.kernel_rank, my_kernel) != me) out.push_back(at(roles.kernel_rank, my_kernel));
    if (at(roles.kernel_index, me) >= 0)
      for (int r = 0; r < p; ++r)
        if (r != me && at(roles.sender_kernel, r) == at(roles.kernel_index, me)) in.push_back(r);
    run([&](const Segment&) { return my_kernel >= 0 ? at(roles.kernel_rank, my_kernel) : me; },
        out, in);
  }
  // Rounds of exchange between kernel processes.
  for (int bits : rounds) {
    std::vector<int> partners;
    const int b = at(roles.kernel_index, me);
    if (b >= 0)
      for (int t = bits;; t = (t - 1) & bits) {
        if (t != (b & bits)) partners.push_back(at(roles.kernel_rank, (b & ~bits) | t));
        if (t == 0) break;
      }
    run([&](const Segment& seg) {
          return at(roles.kernel_rank, (b & ~bits) | (at(roles.receiver_kernel, static_cast<int>(seg.target)) & bits));
        },
        partners, partners);
  }
  // Kernel processes hand the data to its receivers.
  {
    std::vector<int> out, in;
    const int b = at(roles.kernel_index, me);
    if (b >= 0)
      for (int r = 0; r < p; ++r)
        if (r != me && at(roles.receiver_kernel, r) == b) out.push_back(r);
    const int from = at(roles.receiver_kernel, me);
    if (from >= 0 && at(roles.kernel_rank, from) != me) in.push_back(at(roles.kernel_rank, from));
    run([](const Segment& seg) { return static_cast<int>(seg.target); }, out, in);
  }

  // Every segment is home: find each receive peer's.
  std::sort(held.begin(), held.end(),
            [](const Held& a, const Held& b) { return a.segment.origin < b.segment.origin; });
  const PlanSide& recv = plan.recv();
  FERRY_ASSERT(held.size() == recv.peer_count(), "butterfly delivered ", held.size(),
               " segments for ", recv.peer_count(), " peers");
  for (std::size_t k = 0; k < recv.peer_count(); ++k) {
    FERRY_ASSERT(held[k].segment.origin == recv.peers[k] && held[k].segment.target == me &&
                     held[k].segment.count == recv.count(k),
                 "butterfly segment ", k, " mismatch");
    s.final_offsets_.push_back(held[k].offset);
  }
  s.finish(hold_sizes);
  return s;
}

void HopSchedule::finish(const std::vector<std::int64_t>& hold_sizes) {
  for (auto size : hold_sizes) max_hold_ = std::max(max_hold_, size);
  for (const Hop& hop : hops_) {
    for (const auto& m : hop.sends) max_message_ = std::max(max_message_, m.count);
    for (const auto& m : hop.recvs) max_message_ = std::max(max_message_, m.count);
  }
}

}  // namespace ferry::detail
