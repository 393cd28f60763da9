// The C entry point that only the Fortran module ferry_halo_mod calls: halo creation
// with Fortran's integer communicator handle (MPI_Fint). The conversion cannot fail
// and the C function never throws, so no firewall is needed.
#include <mpi.h>

#include "ferry/halo.h"

extern "C" int ferry_halo_create_f(MPI_Fint comm, int64_t global_cells, int64_t ncells,
                                   const int64_t* cells, const int64_t* offsets,
                                   const int64_t* neighbours, int depth, const char* engine,
                                   ferry_halo** halo) {
  return ferry_halo_create(MPI_Comm_f2c(comm), global_cells, ncells, cells, offsets, neighbours,
                           depth, engine, halo);
}
