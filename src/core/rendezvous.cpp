#include "core/rendezvous.hpp"

#include "util/mpi.hpp"

namespace ferry::detail {

void rendezvous_detail::check_record_count(std::size_t records) {
  mpi_count<int>(records, "rendezvous: records sent by one rank");
}

void exchange_route_counts(const Comm& comm, RouteCounts& counts) {
  const auto p = static_cast<std::size_t>(comm.size());
  counts.recv.assign(p, 0);
  FERRY_CALL_MPI(MPI_Alltoall(counts.send.data(), 1, MPI_INT, counts.recv.data(), 1, MPI_INT,
                              comm.get()));
  counts.recv_displs.assign(p + 1, 0);
  for (std::size_t q = 0; q < p; ++q)
    counts.recv_displs[q + 1] =
        mpi_count<int>(static_cast<std::int64_t>(counts.recv_displs[q]) + counts.recv[q],
                       "rendezvous: records received by one rank");
}

void exchange_route_records(const Comm& comm, const RouteCounts& counts, const void* send,
                            void* recv, std::size_t record_bytes) {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  FERRY_CALL_MPI(MPI_Type_contiguous(mpi_count<int>(record_bytes, "rendezvous: bytes of a record"),
                                     MPI_BYTE, &type));
  FERRY_CALL_MPI(MPI_Type_commit(&type));
  const int status = MPI_Alltoallv(send, counts.send.data(), counts.send_displs.data(), type, recv,
                                   counts.recv.data(), counts.recv_displs.data(), type, comm.get());
  MPI_Type_free(&type);
  FERRY_CALL_MPI(status);
}

}  // namespace ferry::detail
