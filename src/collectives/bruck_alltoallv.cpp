#include "collectives/bruck_alltoallv.hpp"

#include <algorithm>
#include <cstring>

#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::detail {

namespace {
constexpr int kSizesTag = 7301;
constexpr int kDataTag = 7302;
}  // namespace

BruckAlltoallv::BruckAlltoallv(const Comm& comm, const std::vector<int>& send_counts,
                               MPI_Datatype type, std::size_t value_bytes)
    : type_(type), value_bytes_(value_bytes), send_counts_(send_counts) {
  const int size = comm.size();
  const int rank = comm.rank();
  std::vector<std::int64_t> values(static_cast<std::size_t>(size));
  for (int i = 0; i < size; ++i) values[i] = send_counts[(rank + i) % size];

  std::int64_t most_sent = 0;
  for (int bit = 1; bit < size; bit <<= 1) {
    Round round;
    round.to = (rank + bit) % size;
    round.from = (rank - bit + size) % size;
    std::vector<std::int64_t> outgoing;
    for (int i = 0; i < size; ++i)
      if (i & bit) {
        round.slots.push_back(i);
        outgoing.push_back(values[i]);
      }
    round.recv_values.resize(outgoing.size());
    const int n = static_cast<int>(outgoing.size());
    FERRY_CALL_MPI(MPI_Sendrecv(outgoing.data(), n, MPI_INT64_T, round.to, kSizesTag,
                                round.recv_values.data(), n, MPI_INT64_T, round.from,
                                kSizesTag, comm.get(), MPI_STATUS_IGNORE));
    std::int64_t sent = 0;
    std::int64_t received = 0;
    for (std::size_t j = 0; j < round.slots.size(); ++j) {
      sent += outgoing[j];
      received += round.recv_values[j];
      values[round.slots[j]] = round.recv_values[j];
    }
    mpi_count<int>(sent, "Alltoallv (bruck): values forwarded in one round");
    mpi_count<int>(received, "Alltoallv (bruck): values received in one round");
    most_sent = std::max(most_sent, sent);
    round.received.resize(static_cast<std::size_t>(received) * value_bytes);
    rounds_.push_back(std::move(round));
  }
  packed_.resize(static_cast<std::size_t>(most_sent) * value_bytes);
  slot_data_.resize(static_cast<std::size_t>(size));
  slot_values_.resize(static_cast<std::size_t>(size));
}

void BruckAlltoallv::execute(const Comm& comm, const char* send,
                             const std::vector<int>& send_displs, char* recv,
                             const std::vector<int>& recv_displs) {
  const int size = comm.size();
  const int rank = comm.rank();
  for (int i = 0; i < size; ++i) {
    const int dest = (rank + i) % size;
    slot_data_[i] = send + static_cast<std::size_t>(send_displs[dest]) * value_bytes_;
    slot_values_[i] = send_counts_[dest];
  }
  for (Round& round : rounds_) {
    std::size_t packed_bytes = 0;
    for (int slot : round.slots) {
      const std::size_t bytes = static_cast<std::size_t>(slot_values_[slot]) * value_bytes_;
      if (bytes) std::memcpy(packed_.data() + packed_bytes, slot_data_[slot], bytes);
      packed_bytes += bytes;
    }
    FERRY_CALL_MPI(MPI_Sendrecv(packed_.data(), static_cast<int>(packed_bytes / value_bytes_),
                                type_, round.to, kDataTag, round.received.data(),
                                static_cast<int>(round.received.size() / value_bytes_), type_,
                                round.from, kDataTag, comm.get(), MPI_STATUS_IGNORE));
    std::size_t offset = 0;
    for (std::size_t j = 0; j < round.slots.size(); ++j) {
      slot_data_[round.slots[j]] = round.received.data() + offset;
      slot_values_[round.slots[j]] = round.recv_values[j];
      offset += static_cast<std::size_t>(round.recv_values[j]) * value_bytes_;
    }
  }
  for (int i = 0; i < size; ++i) {
    const int source = (rank - i + size) % size;
    const std::size_t bytes = static_cast<std::size_t>(slot_values_[i]) * value_bytes_;
    if (bytes)
      std::memcpy(recv + static_cast<std::size_t>(recv_displs[source]) * value_bytes_,
                  slot_data_[i], bytes);
  }
}

}  // namespace ferry::detail
