// The C entry points that only the Fortran module ferry_collectives_mod calls: the
// collective algorithm calls that take a communicator, with Fortran's integer handle
// (MPI_Fint), and the size of that communicator, which the module needs to check the
// length of the count arrays. The conversion cannot fail and the C functions never
// throw, so no firewall is needed.
#include <mpi.h>

#include "ferry/collectives.h"

extern "C" {

// The number of ranks of comm; 0 for MPI_COMM_NULL, which the C call then reports.
int ferry_comm_size_f(MPI_Fint comm) {
  const MPI_Comm c = MPI_Comm_f2c(comm);
  int size = 0;
  if (c != MPI_COMM_NULL) MPI_Comm_size(c, &size);
  return size;
}

int ferry_alltoallv_tuned_algorithm_f(MPI_Fint comm, const char* cache, int64_t block_bytes,
                                      int fallback, int* algorithm) {
  return ferry_alltoallv_tuned_algorithm(MPI_Comm_f2c(comm), cache, block_bytes, fallback,
                                         algorithm);
}

int ferry_allreduce_tuned_algorithm_f(MPI_Fint comm, const char* cache, int64_t vector_bytes,
                                      int fallback, int* algorithm) {
  return ferry_allreduce_tuned_algorithm(MPI_Comm_f2c(comm), cache, vector_bytes, fallback,
                                         algorithm);
}

int ferry_alltoallv_create_f(MPI_Fint comm, int algorithm, int type, const int* send_counts,
                             const int* send_displs, const int* recv_counts,
                             const int* recv_displs, ferry_alltoallv** alltoallv) {
  return ferry_alltoallv_create(MPI_Comm_f2c(comm), algorithm, type, send_counts, send_displs,
                                recv_counts, recv_displs, alltoallv);
}

int ferry_allreduce_create_f(MPI_Fint comm, int algorithm, int type, int count,
                             ferry_allreduce** allreduce) {
  return ferry_allreduce_create(MPI_Comm_f2c(comm), algorithm, type, count, allreduce);
}

}  // extern "C"
