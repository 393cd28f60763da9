// The C entry points that only the Fortran module ferry_buffer calls: the buffer
// calls that take a communicator, with Fortran's integer handle (MPI_Fint). The
// conversion cannot fail and the C functions never throw, so no firewall is needed.
#include <mpi.h>

#include "ferry/buffer.h"

extern "C" {

int ferry_buffer_expose_f(MPI_Fint parent, int ndims, const int64_t* shape, const int64_t* start,
                          const int64_t* end, int type, int capacity_unit, int64_t capacity,
                          int mode, ferry_buffer** buffer) {
  return ferry_buffer_expose(MPI_Comm_f2c(parent), ndims, shape, start, end, type, capacity_unit,
                             capacity, mode, buffer);
}

int ferry_buffer_connect_f(MPI_Fint parent, int group, ferry_buffer** buffer) {
  return ferry_buffer_connect(MPI_Comm_f2c(parent), group, buffer);
}

int ferry_buffer_attach_f(ferry_buffer* buffer, MPI_Fint worker_comm, int ndims,
                          const int64_t* start, const int64_t* end, ferry_buffer_reader** reader) {
  return ferry_buffer_attach(buffer, MPI_Comm_f2c(worker_comm), ndims, start, end, reader);
}

}  // extern "C"
