// ferry::Alltoallv: checks the counts once, then moves the blocks by the chosen algorithm.
#include <cstring>
#include <optional>

#include "collectives/bruck_alltoallv.hpp"
#include "collectives/swap_schedule.hpp"
#include "ferry/collectives.hpp"
#include "ferry/comm.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry {

namespace {

constexpr int kTag = 7300;

void check_shape(const std::vector<int>& values, const char* name, int size, bool displacement) {
  FERRY_CHECK(static_cast<int>(values.size()) == size, Errc::ArgSize, "Alltoallv: ", name,
              " has ", values.size(), " entries, expected one per rank (", size,
              "). Give a count and a displacement for every rank of the communicator");
  for (std::size_t i = 0; i < values.size(); ++i)
    FERRY_CHECK(values[i] >= 0, Errc::Arg, "Alltoallv: ", name, "[", i, "] is ", values[i],
                ", expected >= 0. ", displacement ? "Displacements" : "Counts",
                " are numbers of values");
}

}  // namespace

struct Alltoallv::State {
  Comm comm;
  AlltoallvAlgorithm algorithm = AlltoallvAlgorithm::Mpi;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  std::size_t value_bytes = 0;
  std::vector<int> send_counts, send_displs, recv_counts, recv_displs;
  std::vector<int> partners;                   // Swap: one per round, -1 idle
  std::optional<detail::BruckAlltoallv> bruck;  // Bruck

  const char* send_block(const char* send, int rank) const {
    return send + static_cast<std::size_t>(send_displs[rank]) * value_bytes;
  }
  char* recv_block(char* recv, int rank) const {
    return recv + static_cast<std::size_t>(recv_displs[rank]) * value_bytes;
  }
  void exchange(const char* send, int to, char* recv, int from) const {
    FERRY_CALL_MPI(MPI_Sendrecv(send_block(send, to), send_counts[to], type, to, kTag,
                                recv_block(recv, from), recv_counts[from], type, from, kTag,
                                comm.get(), MPI_STATUS_IGNORE));
  }
};

Alltoallv::Alltoallv(MPI_Comm user_comm, AlltoallvAlgorithm algorithm, Datatype type,
                     std::vector<int> send_counts, std::vector<int> send_displs,
                     std::vector<int> recv_counts, std::vector<int> recv_displs)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.comm = Comm::dup(user_comm);
  s.algorithm = algorithm;
  s.send_counts = std::move(send_counts);
  s.send_displs = std::move(send_displs);
  s.recv_counts = std::move(recv_counts);
  s.recv_displs = std::move(recv_displs);
  const int size = s.comm.size();
  const auto check = [&] {
    FERRY_CHECK(std::string(algorithm_name(algorithm)) != "unknown",
                Errc::Arg, "Alltoallv: unknown algorithm ", static_cast<int>(algorithm),
                "; use Mpi, Ring, Swap or Bruck");
    s.type = mpi_datatype(type);
    s.value_bytes = datatype_size(type);
    check_shape(s.send_counts, "send_counts", size, false);
    check_shape(s.send_displs, "send_displs", size, true);
    check_shape(s.recv_counts, "recv_counts", size, false);
    check_shape(s.recv_displs, "recv_displs", size, true);
  };
  detail::agree_on_same(
      s.comm, "Alltoallv",
      {detail::enum_setting<AlltoallvAlgorithm, algorithm_name>("algorithm", algorithm),
       detail::enum_setting<Datatype, datatype_name>("type", type)},
      check);
  // What every rank sends to this one, to check against what it expects.
  std::vector<int> incoming(static_cast<std::size_t>(size));
  FERRY_CALL_MPI(MPI_Alltoall(s.send_counts.data(), 1, MPI_INT, incoming.data(), 1, MPI_INT,
                              s.comm.get()));
  detail::agree_on(s.comm, [&] {
    for (int from = 0; from < size; ++from)
      FERRY_CHECK(incoming[from] == s.recv_counts[from], Errc::ArgSize, "Alltoallv: rank ",
                  s.comm.rank(), " expects recv_counts[", from, "] = ", s.recv_counts[from],
                  " values from rank ", from, ", which sends ", incoming[from],
                  " (its send_counts[", s.comm.rank(), "]). Make every pair of counts agree");
  });
  if (algorithm == AlltoallvAlgorithm::Swap)
    s.partners = detail::swap_partners(s.comm.rank(), size);
  if (algorithm == AlltoallvAlgorithm::Bruck)
    detail::agree_on(s.comm,
                     [&] { s.bruck.emplace(s.comm, s.send_counts, s.type, s.value_bytes); });
}

Alltoallv::~Alltoallv() = default;
Alltoallv::Alltoallv(Alltoallv&&) noexcept = default;
Alltoallv& Alltoallv::operator=(Alltoallv&&) noexcept = default;

AlltoallvAlgorithm Alltoallv::algorithm() const noexcept { return state_->algorithm; }

void Alltoallv::execute(const void* send_values, void* recv_values) {
  State& s = *state_;
  const auto* send = static_cast<const char*>(send_values);
  auto* recv = static_cast<char*>(recv_values);
  const int rank = s.comm.rank();
  const int size = s.comm.size();
  const auto copy_own_block = [&] {
    const std::size_t bytes = static_cast<std::size_t>(s.send_counts[rank]) * s.value_bytes;
    if (bytes) std::memcpy(s.recv_block(recv, rank), s.send_block(send, rank), bytes);
  };
  switch (s.algorithm) {
    case AlltoallvAlgorithm::Mpi:
      FERRY_CALL_MPI(MPI_Alltoallv(send, s.send_counts.data(), s.send_displs.data(), s.type, recv,
                                   s.recv_counts.data(), s.recv_displs.data(), s.type,
                                   s.comm.get()));
      return;
    case AlltoallvAlgorithm::Ring:
      copy_own_block();
      for (int k = 1; k < size; ++k)
        s.exchange(send, (rank + k) % size, recv, (rank - k + size) % size);
      return;
    case AlltoallvAlgorithm::Swap:
      copy_own_block();
      for (int partner : s.partners)
        if (partner >= 0) s.exchange(send, partner, recv, partner);
      return;
    case AlltoallvAlgorithm::Bruck:
      s.bruck->execute(s.comm, send, s.send_displs, recv, s.recv_displs);
      return;
  }
}

}  // namespace ferry
