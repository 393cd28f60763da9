// This rank and the rank count of MPI_COMM_WORLD, for the collectives' tests.
#pragma once

#include <mpi.h>

namespace ferry_test {

struct World {
  int rank = 0;
  int size = 1;
  World() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  }
};

}  // namespace ferry_test
