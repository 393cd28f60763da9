/* Allocations that fail inside the C API return FERRY_ERR_NO_MEMORY with a message: a
 * layout too large for this rank (not collective), and an exchange whose buffers do
 * not fit (collective: the same code on every rank). Run under a memory limit. */
#include <ferry/ferry.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ferry_layout* huge = NULL;
  int code = ferry_layout_create_block((int64_t)1 << 34, 1, 0, &huge);
  printf("fault-case rank %d: layout: code %d: %s\n", rank, code, ferry_last_error_message());

  ferry_layout* src = NULL;
  ferry_layout* dst = NULL;
  ferry_exchange* exchange = NULL;
  int field = 0;
  ferry_layout_create_block(48, size, rank, &src);
  ferry_layout_create_round_robin(48, size, rank, &dst);
  ferry_exchange_create(MPI_COMM_WORLD, src, dst, "p2p", &exchange);
  ferry_exchange_add_field(exchange, FERRY_TYPE_FLOAT64, 1 << 24, &field);
  code = ferry_exchange_setup(exchange);
  printf("fault-case rank %d: exchange: code %d: %s\n", rank, code, ferry_last_error_message());
  ferry_exchange_destroy(&exchange);
  ferry_layout_destroy(&src);
  ferry_layout_destroy(&dst);
  MPI_Finalize();
  return 0;
}
