/* Moves a double field with 2 values per point from a block layout to a round-robin
 * layout through the installed C API and checks every value. Exit code: 0 if every
 * rank got the right values, 1 otherwise, the same on all ranks. */
#include <ferry/ferry.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* A failed call ends the job with its message. */
static void check(int status) {
  if (status == FERRY_SUCCESS) return;
  fprintf(stderr, "ferry: %s\n", ferry_last_error_message());
  MPI_Abort(MPI_COMM_WORLD, 1);
}

int main(int argc, char** argv) {
  const int64_t n = 1000;
  int rank, nranks, field, wrong = 0, total = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);

  ferry_layout *src, *dst;
  check(ferry_layout_create_block(n, nranks, rank, &src));
  check(ferry_layout_create_round_robin(n, nranks, rank, &dst));
  int64_t src_n, dst_n;
  check(ferry_layout_local_size(src, &src_n));
  check(ferry_layout_local_size(dst, &dst_n));
  int64_t* src_ids = malloc(sizeof(int64_t) * (size_t)(src_n + 1));
  int64_t* dst_ids = malloc(sizeof(int64_t) * (size_t)(dst_n + 1));
  double* out = malloc(sizeof(double) * (size_t)(2 * src_n + 1));
  double* in = malloc(sizeof(double) * (size_t)(2 * dst_n + 1));
  check(ferry_layout_get_ids(src, src_ids));
  check(ferry_layout_get_ids(dst, dst_ids));

  ferry_exchange* exchange;
  check(ferry_exchange_create(MPI_COMM_WORLD, src, dst, "default", &exchange));
  check(ferry_exchange_add_field(exchange, FERRY_TYPE_FLOAT64, 2, &field));
  check(ferry_exchange_setup(exchange));
  for (int64_t i = 0; i < src_n; ++i) {
    out[2 * i] = 10.0 * (double)src_ids[i];
    out[2 * i + 1] = 10.0 * (double)src_ids[i] + 1;
  }
  for (int64_t i = 0; i < 2 * dst_n; ++i) in[i] = -1;
  const void* sources[] = {out};
  void* targets[] = {in};
  check(ferry_exchange_execute(exchange, sources, targets, NULL));
  for (int64_t i = 0; i < dst_n; ++i)
    wrong += (in[2 * i] != 10.0 * (double)dst_ids[i]) + (in[2 * i + 1] != 10.0 * (double)dst_ids[i] + 1);

  check(ferry_exchange_destroy(&exchange));
  check(ferry_layout_destroy(&src));
  check(ferry_layout_destroy(&dst));
  free(src_ids);
  free(dst_ids);
  free(out);
  free(in);
  MPI_Allreduce(&wrong, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("ferry %s C consumer: wrong values %d on ranks %d\n", ferry_version(), total, nranks);
  MPI_Finalize();
  return total > 0;
}
