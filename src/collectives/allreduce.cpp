// ferry::Allreduce: a sum over all ranks by recursive doubling, recursive halving
// (Rabenseifner), a ring, or MPI_Allreduce.
#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "collectives/sum_into.hpp"
#include "ferry/collectives.hpp"
#include "ferry/comm.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry {

namespace {
constexpr int kTag = 7310;
}  // namespace

struct Allreduce::State {
  Comm comm;
  AllreduceAlgorithm algorithm = AllreduceAlgorithm::Mpi;
  Datatype type = Datatype::Float64;
  MPI_Datatype mpi_type = MPI_DATATYPE_NULL;
  std::size_t value_bytes = 0;
  int count = 0;
  std::vector<char> incoming;  // a partner's values, before they are added

  char* at(void* values, std::int64_t index) const {
    return static_cast<char*>(values) + static_cast<std::size_t>(index) * value_bytes;
  }
  // Sends `send_count` values to `to` and receives `recv_count` values from `from`.
  void sendrecv(const char* send, std::int64_t send_count, int to, char* recv,
                std::int64_t recv_count, int from) const {
    FERRY_CALL_MPI(MPI_Sendrecv(send, static_cast<int>(send_count), mpi_type, to, kTag, recv,
                                static_cast<int>(recv_count), mpi_type, from, kTag, comm.get(),
                                MPI_STATUS_IGNORE));
  }
  // Sends as sendrecv(), receives `n` values from `from` and adds them to those at `target`.
  void send_and_add(const char* send, std::int64_t send_count, int to, char* target,
                    std::int64_t n, int from) {
    sendrecv(send, send_count, to, incoming.data(), n, from);
    detail::sum_into(type, target, incoming.data(), static_cast<std::size_t>(n));
  }

  // On `ranks` (a power of two) virtual ranks; see folded().
  void doubling(void* values, int virtual_rank, int ranks, int extra);
  void halving(void* values, int virtual_rank, int ranks, int extra);
  void ring(void* values);
  void folded(void* values);
};

namespace {

// The first value of chunk c when `count` values are dealt into `chunks` chunks,
// the first count % chunks of them one value larger.
std::int64_t chunk_begin(int c, int count, int chunks) {
  return static_cast<std::int64_t>(c) * (count / chunks) + std::min(c, count % chunks);
}

// The real rank of a virtual rank after the fold: the first `extra` virtual ranks
// are the odd ranks below 2 * extra, the others follow.
int real_rank(int virtual_rank, int extra) {
  return virtual_rank < extra ? 2 * virtual_rank + 1 : virtual_rank + extra;
}

}  // namespace

void Allreduce::State::doubling(void* values, int v, int ranks, int extra) {
  for (int bit = 1; bit < ranks; bit <<= 1) {
    const int peer = real_rank(v ^ bit, extra);
    send_and_add(at(values, 0), count, peer, at(values, 0), count, peer);
  }
}

void Allreduce::State::halving(void* values, int v, int ranks, int extra) {
  // Reduce-scatter: each swap halves the window of chunks this rank is responsible for.
  std::vector<std::pair<int, int>> windows;  // the window before each swap
  int lo = 0;
  int hi = ranks;
  for (int bit = ranks / 2; bit >= 1; bit /= 2) {
    const int mid = (lo + hi) / 2;
    const bool upper = (v & bit) != 0;
    const int keep_lo = upper ? mid : lo, keep_hi = upper ? hi : mid;
    const int give_lo = upper ? lo : mid, give_hi = upper ? mid : hi;
    const std::int64_t give = chunk_begin(give_lo, count, ranks);
    const std::int64_t keep = chunk_begin(keep_lo, count, ranks);
    const int peer = real_rank(v ^ bit, extra);
    send_and_add(at(values, give), chunk_begin(give_hi, count, ranks) - give, peer,
                 at(values, keep), chunk_begin(keep_hi, count, ranks) - keep, peer);
    windows.emplace_back(lo, hi);
    lo = keep_lo;
    hi = keep_hi;
  }
  // Allgather: undo the halving, each swap doubling the window of finished chunks.
  for (int bit = 1; bit < ranks; bit <<= 1) {
    const auto [parent_lo, parent_hi] = windows.back();
    windows.pop_back();
    const int mid = (parent_lo + parent_hi) / 2;
    const int other_lo = lo == parent_lo ? mid : parent_lo;
    const int other_hi = lo == parent_lo ? parent_hi : mid;
    const std::int64_t mine = chunk_begin(lo, count, ranks);
    const std::int64_t other = chunk_begin(other_lo, count, ranks);
    const int peer = real_rank(v ^ bit, extra);
    sendrecv(at(values, mine), chunk_begin(hi, count, ranks) - mine, peer, at(values, other),
             chunk_begin(other_hi, count, ranks) - other, peer);
    lo = parent_lo;
    hi = parent_hi;
  }
}

void Allreduce::State::ring(void* values) {
  const int size = comm.size();
  const int rank = comm.rank();
  const int right = (rank + 1) % size;
  const int left = (rank - 1 + size) % size;
  const auto chunk = [&](int c) { return ((c % size) + size) % size; };
  const auto begin = [&](int c) { return chunk_begin(chunk(c), count, size); };
  const auto length = [&](int c) { return chunk_begin(chunk(c) + 1, count, size) - begin(c); };
  // Reduce-scatter: after step s, chunk rank - s - 1 holds the sum of s + 2 ranks.
  for (int s = 0; s + 1 < size; ++s) {
    const int out = rank - s;
    const int in = rank - s - 1;
    send_and_add(at(values, begin(out)), length(out), right, at(values, begin(in)), length(in),
                 left);
  }
  // Allgather: rank holds the finished chunk rank + 1 and passes finished chunks on.
  for (int s = 0; s + 1 < size; ++s) {
    const int out = rank + 1 - s;
    const int in = rank - s;
    sendrecv(at(values, begin(out)), length(out), right, at(values, begin(in)), length(in), left);
  }
}

// Doubling and halving run on a power of two: the first 2 * extra ranks pair up,
// the even one of each pair hands its values to the odd one, waits, and gets the sum.
void Allreduce::State::folded(void* values) {
  const int size = comm.size();
  const int rank = comm.rank();
  int ranks = 1;
  while (ranks * 2 <= size) ranks *= 2;
  const int extra = size - ranks;
  if (rank < 2 * extra && rank % 2 == 0) {
    sendrecv(at(values, 0), count, rank + 1, nullptr, 0, MPI_PROC_NULL);
    sendrecv(nullptr, 0, MPI_PROC_NULL, at(values, 0), count, rank + 1);
    return;
  }
  if (rank < 2 * extra) send_and_add(nullptr, 0, MPI_PROC_NULL, at(values, 0), count, rank - 1);
  const int v = rank < 2 * extra ? rank / 2 : rank - extra;
  if (algorithm == AllreduceAlgorithm::RecursiveDoubling)
    doubling(values, v, ranks, extra);
  else
    halving(values, v, ranks, extra);
  if (rank < 2 * extra) sendrecv(at(values, 0), count, rank - 1, nullptr, 0, MPI_PROC_NULL);
}

Allreduce::Allreduce(MPI_Comm user_comm, AllreduceAlgorithm algorithm, Datatype type, int count)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.comm = Comm::dup(user_comm);
  s.algorithm = algorithm;
  s.type = type;
  s.count = count;
  const auto check = [&] {
    FERRY_CHECK(std::string(algorithm_name(algorithm)) != "unknown", Errc::Arg,
                "Allreduce: unknown algorithm ", static_cast<int>(algorithm),
                "; use Mpi, RecursiveDoubling, RecursiveHalving or Ring");
    FERRY_CHECK(count >= 0, Errc::Arg, "Allreduce: count is ", count, " on rank ",
                s.comm.rank(), ", expected >= 0");
    s.mpi_type = mpi_datatype(type);
    s.value_bytes = datatype_size(type);
    s.incoming.resize(static_cast<std::size_t>(count) * s.value_bytes);
  };
  detail::agree_on_same(s.comm, "Allreduce",
                        {{"count", count},
                         detail::enum_setting<AllreduceAlgorithm, algorithm_name>("algorithm",
                                                                                  algorithm),
                         detail::enum_setting<Datatype, datatype_name>("type", type)},
                        check);
}

Allreduce::~Allreduce() = default;
Allreduce::Allreduce(Allreduce&&) noexcept = default;
Allreduce& Allreduce::operator=(Allreduce&&) noexcept = default;

AllreduceAlgorithm Allreduce::algorithm() const noexcept { return state_->algorithm; }

void Allreduce::execute(const void* send, void* recv) {
  State& s = *state_;
  if (s.algorithm == AllreduceAlgorithm::Mpi) {
    FERRY_CALL_MPI(MPI_Allreduce(send == recv ? MPI_IN_PLACE : send, recv, s.count, s.mpi_type,
                                 MPI_SUM, s.comm.get()));
    return;
  }
  if (send != recv && s.count > 0)
    std::memcpy(recv, send, static_cast<std::size_t>(s.count) * s.value_bytes);
  if (s.comm.size() == 1) return;
  if (s.algorithm == AllreduceAlgorithm::Ring)
    s.ring(recv);
  else
    s.folded(recv);
}

}  // namespace ferry
