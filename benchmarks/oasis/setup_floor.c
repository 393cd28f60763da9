/* The MPI calls of a set-up without the set-up: `calls` all-reductions of four ints
   and `splits` communicator splits over MPI_COMM_WORLD, then a node split and one
   shared window, between two barriers; the median and the fastest of 15 repetitions
   (max over ranks). What the OASIS face's set-up cannot go below while it makes that
   many collective calls on these ranks (docs/benchmarks/oasis.md).
   usage: mpiexec -n N oasis_setup_floor CALLS SPLITS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { kRepetitions = 15, kMaxSplits = 64 };

static int compare(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int calls = argc > 1 ? atoi(argv[1]) : 72;
  const int splits = argc > 2 ? atoi(argv[2]) : 11;
  if (calls < 0 || splits < 0 || splits > kMaxSplits) {
    if (rank == 0) fprintf(stderr, "usage: oasis_setup_floor CALLS SPLITS (0 <= SPLITS <= %d)\n", kMaxSplits);
    MPI_Finalize();
    return 1;
  }
  double times[kRepetitions];
  for (int r = 0; r < kRepetitions; ++r) {
    MPI_Comm comms[kMaxSplits];
    MPI_Comm node = MPI_COMM_NULL;
    MPI_Win window = MPI_WIN_NULL;
    void* base = NULL;
    int values[4] = {rank, 1, 2, 3};
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    for (int i = 0; i < calls; ++i)
      MPI_Allreduce(MPI_IN_PLACE, values, 4, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    for (int i = 0; i < splits; ++i) MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &comms[i]);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Win_allocate_shared(4096, 1, MPI_INFO_NULL, node, &base, &window);
    const double mine = MPI_Wtime() - start;
    MPI_Allreduce(&mine, &times[r], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Win_free(&window);
    MPI_Comm_free(&node);
    for (int i = 0; i < splits; ++i) MPI_Comm_free(&comms[i]);
  }
  qsort(times, kRepetitions, sizeof times[0], compare);
  if (rank == 0)
    printf("%d all-reductions, %d splits, a node split and a shared window: median %.3f ms, "
           "fastest %.3f ms\n", calls, splits, times[kRepetitions / 2] * 1e3, times[0] * 1e3);
  MPI_Finalize();
  return 0;
}
