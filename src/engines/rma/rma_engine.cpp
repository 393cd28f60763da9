#include "engines/rma/rma_engine.hpp"

#include <string>

#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::detail {

namespace {

// After the exchange's tag base (Engine::tag_base); p2p uses 1, so that the engines an
// adaptive exchange tries on one communicator keep apart.
constexpr int kTagBlock = 2;      // setup: a destination tells a source where to write
constexpr int kTagReady = 3;      // source -> destination: the block is filled
constexpr int kTagFree = 4;       // destination -> source: the block has been read
constexpr int kTagPositions = 5;  // setup of a new route: where an on-node source's points go

// SimGrid SMPI 3.32's MPI_Win_shared_query returns the node's first base for every
// rank, so stores into a node peer's block would land in another rank's memory;
// under SMPI blocks are put through the network model by default.
#ifdef FERRY_SMPI
constexpr bool kSharedMemoryDefault = false;
#else
constexpr bool kSharedMemoryDefault = true;
#endif

void start_all(std::vector<MPI_Request>& requests, std::size_t first, std::size_t last) {
  if (first < last)
    FERRY_CALL_MPI(MPI_Startall(static_cast<int>(last - first), requests.data() + first));
}

void wait_all(std::vector<MPI_Request>& requests, std::size_t first, std::size_t last) {
  if (first < last)
    FERRY_CALL_MPI(MPI_Waitall(static_cast<int>(last - first), requests.data() + first,
                               MPI_STATUSES_IGNORE));
}

// Each field of the field area starts on a cache line, so that the area can be handed
// to callers as their fields (and no two fields share a line between writers).
constexpr std::size_t kFieldAlign = 64;

// The offset of each field in a field area of `points` points, and its total size.
std::vector<std::size_t> field_area_offsets(const FieldSet& fields, std::int64_t points,
                                            std::size_t& total) {
  std::vector<std::size_t> offsets(fields.size(), 0);
  total = 0;
  for (std::size_t f = 0; f < fields.size(); ++f) {
    offsets[f] = total;
    total += (static_cast<std::size_t>(points) * fields.element_bytes(f) + kFieldAlign - 1) /
             kFieldAlign * kFieldAlign;
  }
  return offsets;
}

}  // namespace

RmaEngine::RmaEngine()
    : FieldEngine("rma", [] {
        Capabilities c;
        c.persistent = true;
        c.one_sided = true;
        c.tagged = true;
        return c;
      }()) {}

RmaEngine::~RmaEngine() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) free_notifications();
}

void RmaEngine::free_notifications() noexcept {
  // Free notes still in flight after the last end() are matched by each other's
  // posted receives and carry no data, so they may complete after the free.
  for (auto* requests : {&ready_send_, &free_recv_, &ready_recv_, &free_send_})
    for (auto& r : *requests)
      if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
}

void RmaEngine::close() {
  FERRY_CHECK(!in_flight(), Errc::State, "rma: close during an exchange. Call end() first");
  free_notifications();
  if (remote_win_ != MPI_WIN_NULL) {
    FERRY_CALL_MPI(MPI_Win_unlock_all(remote_win_));
    FERRY_CALL_MPI(MPI_Win_free(&remote_win_));
    FERRY_CALL_MPI(MPI_Comm_free(&remote_win_comm_));
  }
  // The shared window is the share's, which closes it after all its exchanges.
  if (own_windows_) own_windows_->close();
  shared_win_ = MPI_WIN_NULL;
  recv_base_ = nullptr;
}

void RmaEngine::setup(const Plan& plan, const Comm& comm, const std::vector<FieldSpec>& fields,
                      const EngineOptions& options) {
  AgreedValues values{kAnyValue, kAnyValue};
  const std::optional<Error> local =
      error_of(comm, [&] { values = prepare(plan, comm, fields, options); });
  const std::vector<ValueSpread> agreed = agree_with_spread(comm, local, {values[0], values[1]});
  finish({agreed[0], agreed[1]});
}

AgreedValues RmaEngine::prepare(const Plan& plan, const Comm& comm,
                                const std::vector<FieldSpec>& fields,
                                const EngineOptions& options) {
  bind(plan, comm, fields.size());
  assign_fields(fields);
  shared_memory_ = options.get_bool(name(), "shared_memory", kSharedMemoryDefault);
  const auto point_bytes = static_cast<std::int64_t>(this->fields().point_bytes_all());
  for (std::size_t k = 0; k < plan.send().peer_count(); ++k)
    mpi_count<int>(plan.send().count(k) * point_bytes, "rma: bytes of one block put to a peer");
  // A later exchange over the route (an OASIS namcouple's second entry between two
  // partitions, and on) finds it cached: then whether every rank has it, the lay-out
  // over it and whether it fits the share's window are agreed with the checks above.
  route_ = RmaRoute::cached(plan, communicator(), shared_memory_);
  if (!route_) return {0, 0};
  lay_out();
  return {1, fits_route_windows()};
}

void RmaEngine::finish(const AgreedSpread& agreed) {
  std::int64_t all_fit = agreed[1].lowest;
  if (agreed[0].lowest == 0) {
    route_ = RmaRoute::build(plan(), communicator(), shared_memory_, tag_base() + kTagPositions);
    int fits = 0;
    const std::optional<Error> laid_out = error_of(communicator(), [&] {
      lay_out();
      fits = fits_route_windows();
    });
    all_fit = agree_with_spread(communicator(), laid_out, {fits})[0].lowest;
  }
  // A new window is allocated by all or none.
  std::shared_ptr<RmaWindows> windows = route_windows();
  if (all_fit == 0) {
    if (!windows) {
      windows = std::make_shared<RmaWindows>(route_);
      if (share()) share()->store(windows_key(), windows);
    }
    // Room for the exchanges still to come over the share, if they are like this one.
    std::size_t room = 1;
    if (share() && share()->expected_exchanges() >= share()->exchanges())
      room = share()->expected_exchanges() - share()->exchanges() + 1;
    windows->allocate(room * window_bytes());
  }
  if (!share()) own_windows_ = windows;
  create_windows(windows->take(window_bytes()));
  locate_destinations();
  create_notifications();
}

const char* RmaEngine::windows_key() const noexcept {
  return shared_memory_ ? "rma windows" : "rma windows, no shared memory";
}

std::shared_ptr<RmaWindows> RmaEngine::route_windows() const {
  if (!share()) return nullptr;
  auto windows = std::static_pointer_cast<RmaWindows>(share()->find(windows_key()));
  return windows && windows->route() == route_.get() ? windows : nullptr;
}

int RmaEngine::fits_route_windows() const {
  const std::shared_ptr<RmaWindows> windows = route_windows();
  return windows && windows->fits(window_bytes()) ? 1 : 0;
}

void RmaEngine::lay_out() {
  const RmaRoute& route = *route_;
  const PlanSide& send = plan().send();
  const auto point_bytes = static_cast<std::int64_t>(fields().point_bytes_all());
  pack_offset_.assign(send.peer_count(), 0);
  std::int64_t packed = 0;
  for (std::size_t i = route.node_sends; i < route.send_order.size(); ++i) {
    pack_offset_[i] = packed;
    packed += send.count(route.send_order[i]) * point_bytes;
  }
  send_buffer_.assign(static_cast<std::size_t>(packed), 0);
  // Field areas only where a source of the node writes into them.
  const std::int64_t area_points = route.node_points == 0 ? 0 : plan().dst_local_size();
  field_offset_ = field_area_offsets(fields(), area_points, field_area_bytes_);
  mpi_count<MPI_Aint>(2 * static_cast<std::int64_t>(field_area_bytes_) + route.block_points * point_bytes,
                      "rma: bytes of the receive window");
}

std::size_t RmaEngine::window_bytes() const {
  return 2 * field_area_bytes_ + static_cast<std::size_t>(route_->block_points) *
                                     static_cast<std::size_t>(fields().point_bytes_all());
}

void RmaEngine::create_windows(const RmaWindows::Part& part) {
  const MPI_Comm comm = this->comm();
  const RmaRoute& route = *route_;
  shared_win_ = part.window;
  recv_base_ = part.base;
  part_offset_ = part.offset;

  // A window over the whole communicator registers the receive memory with the
  // network on every rank: only make it when some block crosses nodes. On one node
  // (the same on every rank) none does, and no reduction is needed to know it.
  int any_off_node = route.node_sends < route.send_order.size() ? 1 : 0;
  if (route.node.size() < communicator().size())
    FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, &any_off_node, 1, MPI_INT, MPI_MAX, comm));
  if (any_off_node) {
    FERRY_CALL_MPI(MPI_Comm_dup(comm, &remote_win_comm_));
    FERRY_CALL_MPI(MPI_Win_create(recv_base_, static_cast<MPI_Aint>(window_bytes()), 1,
                                  MPI_INFO_NULL, remote_win_comm_, &remote_win_));
    FERRY_CALL_MPI(MPI_Win_set_errhandler(remote_win_, MPI_ERRORS_RETURN));
    FERRY_CALL_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, remote_win_));
  }
}

void RmaEngine::locate_destinations() {
  const MPI_Comm comm = this->comm();
  const RmaRoute& route = *route_;
  const PlanSide& send = plan().send();
  const PlanSide& recv = plan().recv();
  const auto all_bytes = static_cast<std::int64_t>(fields().point_bytes_all());
  // Only a destination knows where each source writes: a source on its node gets the
  // size of the field area (where our points go in it, the route has) and the offset
  // of this exchange's part in the destination's window memory, one on another node
  // the byte displacement of its block (in this part, the whole of the window it puts to).
  std::vector<std::int64_t> outgoing(2 * recv.peer_count(), 0);
  for (std::size_t k = 0; k < recv.peer_count(); ++k) {
    outgoing[2 * k] = plan().dst_local_size();
    outgoing[2 * k + 1] = static_cast<std::int64_t>(part_offset_);
  }
  for (std::size_t k : route.remote_recv)
    outgoing[2 * k] = 2 * static_cast<std::int64_t>(field_area_bytes_) + route.block_offset[k] * all_bytes;
  std::vector<std::int64_t> incoming(2 * send.peer_count(), 0);
  std::vector<MPI_Request> requests(recv.peer_count() + send.peer_count(), MPI_REQUEST_NULL);
  const int tag = tag_base() + kTagBlock;
  for (std::size_t k = 0; k < recv.peer_count(); ++k)
    FERRY_CALL_MPI(MPI_Isend(&outgoing[2 * k], 2, MPI_INT64_T, recv.peers[k], tag, comm,
                             &requests[k]));
  for (std::size_t k = 0; k < send.peer_count(); ++k)
    FERRY_CALL_MPI(MPI_Irecv(&incoming[2 * k], 2, MPI_INT64_T, send.peers[k], tag, comm,
                             &requests[recv.peer_count() + k]));
  wait_all(requests, 0, requests.size());

  const std::size_t node_sends = route.node_sends;
  node_area_.assign(node_sends, nullptr);
  node_field_offset_.assign(node_sends, {});
  node_area_bytes_.assign(node_sends, 0);
  remote_disp_.assign(send.peer_count(), 0);
  for (std::size_t i = 0; i < route.send_order.size(); ++i) {
    const std::size_t k = route.send_order[i];
    if (i >= node_sends) {
      remote_disp_[i] = static_cast<MPI_Aint>(incoming[2 * k]);
      continue;
    }
    node_field_offset_[i] = field_area_offsets(fields(), incoming[2 * k], node_area_bytes_[i]);
    const auto offset = static_cast<MPI_Aint>(incoming[2 * k + 1]);
    MPI_Aint size = 0;
    int disp_unit = 0;
    void* base = nullptr;
    FERRY_CALL_MPI(
        MPI_Win_shared_query(shared_win_, route.node_rank[k], &size, &disp_unit, &base));
    FERRY_ASSERT(offset + 2 * static_cast<MPI_Aint>(node_area_bytes_[i]) <= size,
                 "the field areas of rank ", send.peers[k], " end past its window of ", size,
                 " bytes");
    node_area_[i] = static_cast<char*>(base) + offset;
  }
}

void RmaEngine::create_notifications() {
  const MPI_Comm comm = this->comm();
  const PlanSide& send = plan().send();
  const PlanSide& recv = plan().recv();
  const int ready_tag = tag_base() + kTagReady;
  const int free_tag = tag_base() + kTagFree;
  ready_send_.assign(send.peer_count(), MPI_REQUEST_NULL);
  free_recv_.assign(send.peer_count(), MPI_REQUEST_NULL);
  for (std::size_t i = 0; i < route_->send_order.size(); ++i) {
    const int peer = send.peers[route_->send_order[i]];
    FERRY_CALL_MPI(MPI_Send_init(nullptr, 0, MPI_BYTE, peer, ready_tag, comm, &ready_send_[i]));
    FERRY_CALL_MPI(MPI_Recv_init(nullptr, 0, MPI_BYTE, peer, free_tag, comm, &free_recv_[i]));
  }
  ready_recv_.assign(recv.peer_count(), MPI_REQUEST_NULL);
  free_send_.assign(recv.peer_count(), MPI_REQUEST_NULL);
  for (std::size_t k = 0; k < recv.peer_count(); ++k) {
    FERRY_CALL_MPI(
        MPI_Recv_init(nullptr, 0, MPI_BYTE, recv.peers[k], ready_tag, comm, &ready_recv_[k]));
    FERRY_CALL_MPI(
        MPI_Send_init(nullptr, 0, MPI_BYTE, recv.peers[k], free_tag, comm, &free_send_[k]));
  }
}

void RmaEngine::begin(const void* const* src, void* const* dst, const std::uint8_t* mask) {
  check_begin();
  open_exchange(src, dst, mask);

  const RmaRoute& route = *route_;
  const std::size_t node_sends = route.node_sends;
  const std::size_t sends = route.send_order.size();
  start_all(ready_recv_, 0, ready_recv_.size());
  // Our own buffer is free (the last puts were flushed in begin()): pack while the
  // destinations may still be reading the previous exchange.
  for (std::size_t i = node_sends; i < sends; ++i) pack(i, send_buffer_.data() + pack_offset_[i]);

  if (free_in_flight_) wait_all(free_recv_, 0, sends);
  const auto point_bytes = static_cast<std::int64_t>(fields().point_bytes());
  for (std::size_t i = node_sends; i < sends; ++i) {
    const std::size_t k = route.send_order[i];
    const int bytes = static_cast<int>(plan().send().count(k) * point_bytes);
    FERRY_CALL_MPI(MPI_Put(send_buffer_.data() + pack_offset_[i], bytes, MPI_BYTE,
                           plan().send().peers[k], remote_disp_[i], bytes, MPI_BYTE, remote_win_));
  }
  // The destinations' loads (seen through the free notes) before our stores, and
  // our stores before the ready notes.
  sync_windows();
  for (std::size_t i = 0; i < node_sends; ++i) write_node_peer(i);
  sync_windows();
  start_all(ready_send_, 0, node_sends);
  // A put is only visible at its target after a flush; then the note may go. Done
  // here rather than in end(), so a destination never waits for this rank's end().
  for (std::size_t i = node_sends; i < sends; ++i)
    FERRY_CALL_MPI(MPI_Win_flush(plan().send().peers[route.send_order[i]], remote_win_));
  start_all(ready_send_, node_sends, sends);
  // Own points last, so destinations can read their blocks meanwhile.
  copies().copy_self(fields(), this->src(), this->dst());
}

bool RmaEngine::can_begin() {
  const std::size_t sends = route_ ? route_->send_order.size() : 0;
  if (!free_in_flight_ || sends == 0) return true;
  int done = 0;
  // Completed notes turn inactive, so begin()'s wait for them returns at once.
  FERRY_CALL_MPI(MPI_Testall(static_cast<int>(sends), free_recv_.data(), &done,
                             MPI_STATUSES_IGNORE));
  return done != 0;
}

bool RmaEngine::test() {
  check_in_flight();
  // Completed persistent notes turn inactive, so end()'s waits return at once.
  int received = 1, sent = 1;
  if (!ready_recv_.empty())
    FERRY_CALL_MPI(MPI_Testall(static_cast<int>(ready_recv_.size()), ready_recv_.data(), &received,
                               MPI_STATUSES_IGNORE));
  if (!ready_send_.empty())
    FERRY_CALL_MPI(MPI_Testall(static_cast<int>(ready_send_.size()), ready_send_.data(), &sent,
                               MPI_STATUSES_IGNORE));
  return received != 0 && sent != 0;
}

void RmaEngine::end() {
  close_exchange();
  const RmaRoute& route = *route_;
  const std::size_t sends = route.send_order.size();
  wait_all(ready_recv_, 0, ready_recv_.size());
  sync_windows();
  // The node's sources wrote into this exchange's field area: copy it out, unless
  // the caller gave the area itself as the field.
  char* const area = recv_base_ + area_ * field_area_bytes_;
  if (field_area_bytes_ != 0)
    for (std::size_t f = 0; f < fields().size(); ++f)
      if (fields().active(f) && dst()[f] != area + field_offset_[f])
        route.node_recv_runs.apply(dst()[f], area + field_offset_[f], fields().element_bytes(f));
  const auto all_bytes = static_cast<std::int64_t>(fields().point_bytes_all());
  char* const blocks = recv_base_ + 2 * field_area_bytes_;
  for (std::size_t k : route.remote_recv)
    copies().unpack(k, fields(), blocks + route.block_offset[k] * all_bytes, dst());
  sync_windows();

  // Zero-byte notes of this exchange, and the free notes of the previous one, are
  // complete once matched; every peer posted its receives in begin() or end().
  // The free note also releases the previous exchange's field area: the caller's
  // hold on its values ends here, and the next exchange writes the other area.
  wait_all(ready_send_, 0, sends);
  if (free_in_flight_) wait_all(free_send_, 0, free_send_.size());
  start_all(free_recv_, 0, sends);
  start_all(free_send_, 0, free_send_.size());
  free_in_flight_ = true;
  area_ = 1 - area_;
}

void* RmaEngine::destination_field(std::size_t field) {
  FERRY_CHECK(set_up(), Errc::State, "rma: destination_field before setup");
  FERRY_CHECK(field < fields().size(), Errc::ArgRange, "rma: destination_field: field ", field,
              " out of range; the exchange has ", fields().size(), " fields");
  if (field_area_bytes_ == 0) return nullptr;
  return recv_base_ + area_ * field_area_bytes_ + field_offset_[field];
}

void RmaEngine::sync_windows() {
  FERRY_CALL_MPI(MPI_Win_sync(shared_win_));
  if (remote_win_ != MPI_WIN_NULL) FERRY_CALL_MPI(MPI_Win_sync(remote_win_));
}

void RmaEngine::pack(std::size_t i, char* block) {
  copies().pack(route_->send_order[i], fields(), src(), block);
}

void RmaEngine::write_node_peer(std::size_t i) {
  const std::vector<std::size_t>& offsets = node_field_offset_[i];
  char* const area = node_area_[i] + area_ * node_area_bytes_[i];
  for (std::size_t f = 0; f < fields().size(); ++f)
    if (fields().active(f))
      route_->node_runs[i].apply(area + offsets[f], src()[f], fields().element_bytes(f));
}

}  // namespace ferry::detail
