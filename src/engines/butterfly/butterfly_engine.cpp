#include "engines/butterfly/butterfly_engine.hpp"

#include <algorithm>
#include <cstring>

#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::detail {

namespace {

constexpr int kTagBase = 7300;  // + hop index; other engines of one communicator use other tags

// The `stages` option as one flag per stage (true = keep), or empty for "none".
std::vector<bool> parse_stages(const std::string& text, int stages) {
  if (text == "all") return std::vector<bool>(static_cast<std::size_t>(stages), true);
  if (text == "none") return {};
  FERRY_CHECK(static_cast<int>(text.size()) == stages &&
                  text.find_first_not_of("01") == std::string::npos,
              Errc::Arg, "butterfly: option stages=\"", text, "\" must be all, none, or ", stages,
              " characters of 0 (skip) and 1 (keep), one per stage; this plan has ", stages,
              " stages");
  std::vector<bool> keep;
  for (char c : text) keep.push_back(c == '1');
  // Every stage skipped is the point-to-point exchange.
  if (std::find(keep.begin(), keep.end(), true) == keep.end()) return {};
  return keep;
}

}  // namespace

ButterflyEngine::ButterflyEngine()
    : FieldEngine("butterfly", [] {
        Capabilities c;
        c.independent_sides = false;
        return c;
      }()) {}

void ButterflyEngine::setup(const Plan& plan, const Comm& comm, const std::vector<FieldSpec>& fields,
                            const EngineOptions& options) {
  bind(plan, comm, fields.size());
  const KernelRoles roles = KernelRoles::gather(plan, comm);
  std::vector<bool> keep;
  agree_on(comm, [&] {
    assign_fields(fields);
    keep = parse_stages(options.get_string("stages", "all"), roles.stages);
  });
  schedule_ =
      keep.empty() ? HopSchedule::direct(plan) : HopSchedule::butterfly(plan, comm, roles, keep);
  agree_on(comm, [&] {
    const auto point_bytes = static_cast<std::int64_t>(this->fields().point_bytes_all());
    mpi_count<int>(schedule_.max_message() * point_bytes, "butterfly: bytes of one message");
    for (auto& hold : hold_) hold.assign(static_cast<std::size_t>(schedule_.max_hold() * point_bytes), 0);
    staging_.assign(static_cast<std::size_t>(schedule_.max_staging() * point_bytes), 0);
  });
  std::size_t max_requests = 0;
  for (const Hop& hop : schedule_.hops())
    max_requests = std::max(max_requests, hop.sends.size() + hop.recvs.size());
  requests_.assign(max_requests, MPI_REQUEST_NULL);
}

void ButterflyEngine::begin(const void* const* src, void* const* dst, const std::uint8_t* mask) {
  check_begin();
  open_exchange(src, dst, mask);
  const auto point_bytes = static_cast<std::int64_t>(fields().point_bytes());
  const PlanSide& send = plan().send();
  for (std::size_t k = 0; k < send.peer_count(); ++k)
    copies().pack(k, fields(), this->src(), hold_[0].data() + send.offsets[k] * point_bytes);
  const std::size_t hops = schedule_.hops().size();
  start_hop(0);
  copies().copy_self(fields(), this->src(), this->dst());
  for (std::size_t h = 1; h < hops; ++h) {
    finish_hop(h - 1);
    start_hop(h);
  }
}

void ButterflyEngine::end() {
  close_exchange();
  const std::size_t hops = schedule_.hops().size();
  finish_hop(hops - 1);
  const char* hold = hold_[hops % 2].data();
  const auto point_bytes = static_cast<std::int64_t>(fields().point_bytes());
  const auto& offsets = schedule_.final_offsets();
  for (std::size_t k = 0; k < offsets.size(); ++k)
    copies().unpack(k, fields(), hold + offsets[k] * point_bytes, dst());
}

Traffic ButterflyEngine::traffic() const {
  Traffic t;
  const auto point_bytes = static_cast<std::int64_t>(fields().point_bytes_all());
  for (const Hop& hop : schedule_.hops()) {
    for (const auto& m : hop.sends) {
      ++t.messages;
      t.bytes += m.count * point_bytes;
    }
    if (!hop.sends.empty() || !hop.recvs.empty()) ++t.rounds;
  }
  return t;
}

bool ButterflyEngine::test() {
  check_in_flight();
  const Hop& last = schedule_.hops().back();
  const auto n = static_cast<int>(last.sends.size() + last.recvs.size());
  int done = 1;
  if (n > 0) FERRY_CALL_MPI(MPI_Testall(n, requests_.data(), &done, MPI_STATUSES_IGNORE));
  return done != 0;
}

void ButterflyEngine::start_hop(std::size_t h) {
  const Hop& hop = schedule_.hops()[h];
  const char* current = hold_[h % 2].data();
  char* next = hold_[(h + 1) % 2].data();
  const auto pb = static_cast<std::int64_t>(fields().point_bytes());
  const int tag = kTagBase + static_cast<int>(h);
  std::size_t r = 0;
  for (const auto& m : hop.recvs)
    FERRY_CALL_MPI(MPI_Irecv(next + m.offset * pb, static_cast<int>(m.count * pb), MPI_BYTE, m.peer,
                             tag, comm(), &requests_[r++]));
  for (const auto& c : hop.to_staging)
    std::memcpy(staging_.data() + c.to * pb, current + c.from * pb, static_cast<std::size_t>(c.count * pb));
  for (const auto& m : hop.sends)
    FERRY_CALL_MPI(MPI_Isend((m.staged ? staging_.data() : current) + m.offset * pb,
                             static_cast<int>(m.count * pb), MPI_BYTE, m.peer, tag, comm(),
                             &requests_[r++]));
  for (const auto& c : hop.kept)
    std::memcpy(next + c.to * pb, current + c.from * pb, static_cast<std::size_t>(c.count * pb));
}

void ButterflyEngine::finish_hop(std::size_t h) {
  const Hop& hop = schedule_.hops()[h];
  const auto n = static_cast<int>(hop.sends.size() + hop.recvs.size());
  if (n > 0) FERRY_CALL_MPI(MPI_Waitall(n, requests_.data(), MPI_STATUSES_IGNORE));
}

}  // namespace ferry::detail
