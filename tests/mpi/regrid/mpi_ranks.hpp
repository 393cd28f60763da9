// Rank and size of a communicator as values, for the regrid tests.
#pragma once

#include <mpi.h>

namespace regrid_test {

inline int rank_of(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}
inline int size_of(MPI_Comm comm) {
  int s = 0;
  MPI_Comm_size(comm, &s);
  return s;
}

}  // namespace regrid_test
