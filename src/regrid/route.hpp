// Sending records to chosen ranks with one all-to-all: the step of every rendezvous.
#pragma once

#include <cstddef>
#include <type_traits>
#include <vector>

#include "ferry/comm.hpp"
#include "util/mpi.hpp"

namespace ferry::regrid::detail {

/// Collective over `comm`: sends records[i] to rank dest(records[i]) and returns what
/// this rank receives, grouped by sending rank in rank order, each sender's records in
/// the order it gave them. That order is what makes every rendezvous deterministic.
template <class Record, class Dest>
std::vector<Record> route(const Comm& comm, const std::vector<Record>& records, Dest dest) {
  static_assert(std::is_trivially_copyable_v<Record>, "records travel as bytes");
  const auto p = static_cast<std::size_t>(comm.size());
  ferry::detail::mpi_count<int>(records.size(), "regrid: records sent by one rank");
  std::vector<int> send_counts(p, 0);
  for (const Record& r : records) ++send_counts[static_cast<std::size_t>(dest(r))];
  std::vector<int> send_displs(p + 1, 0);
  for (std::size_t q = 0; q < p; ++q) send_displs[q + 1] = send_displs[q] + send_counts[q];
  // A stable counting sort by destination keeps each destination's records in order.
  std::vector<Record> sorted(records.size());
  {
    std::vector<int> fill(send_displs.begin(), send_displs.end() - 1);
    for (const Record& r : records) sorted[static_cast<std::size_t>(fill[dest(r)]++)] = r;
  }
  std::vector<int> recv_counts(p, 0);
  FERRY_CALL_MPI(
      MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm.get()));
  std::vector<int> recv_displs(p + 1, 0);
  for (std::size_t q = 0; q < p; ++q)
    recv_displs[q + 1] =
        ferry::detail::mpi_count<int>(static_cast<long long>(recv_displs[q]) + recv_counts[q],
                                      "regrid: records received per rank");
  std::vector<Record> received(static_cast<std::size_t>(recv_displs[p]));

  MPI_Datatype type = MPI_DATATYPE_NULL;
  FERRY_CALL_MPI(MPI_Type_contiguous(static_cast<int>(sizeof(Record)), MPI_BYTE, &type));
  FERRY_CALL_MPI(MPI_Type_commit(&type));
  const int status =
      MPI_Alltoallv(sorted.data(), send_counts.data(), send_displs.data(), type, received.data(),
                    recv_counts.data(), recv_displs.data(), type, comm.get());
  MPI_Type_free(&type);
  FERRY_CALL_MPI(status);
  return received;
}

}  // namespace ferry::regrid::detail
