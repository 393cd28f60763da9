/* ferry C API: the transpose (all-to-all-v) and vector-sum (all-reduce) algorithms of
 * the PCCM tuning study as drop-ins for MPI_Alltoallv and MPI_Allreduce(MPI_SUM), set
 * up once and executed many times, and the algorithm `ferry tune kernels` recorded as
 * this machine's fastest (ferry/collectives.hpp; docs/user/tuning.md).
 *
 * Same conventions as ferry.h: every function returns FERRY_SUCCESS or a FERRY_ERR_*
 * code, ferry_last_error_message() gives the text, destroy functions set the handle to
 * NULL, and the collective set-up functions agree on their errors across ranks. */
#ifndef FERRY_COLLECTIVES_H
#define FERRY_COLLECTIVES_H

#include <mpi.h>
#include <stdint.h>

#include "ferry/ferry.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How an all-to-all-v moves its blocks; the same numbers as ferry::AlltoallvAlgorithm. */
enum {
  FERRY_ALLTOALLV_MPI = 0,  /* one MPI_Alltoallv */
  FERRY_ALLTOALLV_RING = 1, /* P-1 rounds of MPI_Sendrecv, to rank + k, from rank - k */
  FERRY_ALLTOALLV_SWAP = 2, /* P-1 rounds of pairwise swaps */
  FERRY_ALLTOALLV_BRUCK = 3 /* ceil(log2 P) rounds, blocks forwarded (Bruck et al.) */
};

/* How an all-reduce sums; the same numbers as ferry::AllreduceAlgorithm. */
enum {
  FERRY_ALLREDUCE_MPI = 0,      /* one MPI_Allreduce */
  FERRY_ALLREDUCE_DOUBLING = 1, /* log2 P swaps of the whole vector */
  FERRY_ALLREDUCE_HALVING = 2,  /* reduce-scatter by halving, allgather by doubling */
  FERRY_ALLREDUCE_RING = 3      /* reduce-scatter and allgather around a ring */
};

typedef struct ferry_alltoallv ferry_alltoallv;
typedef struct ferry_allreduce ferry_allreduce;

/* Collective over comm; cache and the size the same on every rank. *algorithm gets the
 * FERRY_ALLTOALLV_* that `ferry tune kernels` recorded in the tuning cache file `cache`
 * for this number of ranks and the size class of block_bytes (the bytes one rank sends
 * one rank), or `fallback` if cache is NULL or "", has no such entry or names an
 * algorithm this ferry lacks (rank 0 reads the file; its problems are logged, never
 * returned). */
int ferry_alltoallv_tuned_algorithm(MPI_Comm comm, const char* cache, int64_t block_bytes,
                                    int fallback, int* algorithm);
/* The same for an all-reduce of a vector of vector_bytes bytes: a FERRY_ALLREDUCE_*. */
int ferry_allreduce_tuned_algorithm(MPI_Comm comm, const char* cache, int64_t vector_bytes,
                                    int fallback, int* algorithm);

/* Collective over comm (duplicated: the caller may free it). An all-to-all-v of values
 * of `type` (FERRY_TYPE_*) by `algorithm` (FERRY_ALLTOALLV_*) with the counts and
 * displacements of MPI_Alltoallv, in values, one per rank of comm (copied).
 * FERRY_ERR_ARG_SIZE when recv_counts[s] on one rank is not send_counts[rank] on rank
 * s, FERRY_ERR_ARG for a negative count or displacement; the same on every rank. */
int ferry_alltoallv_create(MPI_Comm comm, int algorithm, int type, const int* send_counts,
                           const int* send_displs, const int* recv_counts,
                           const int* recv_displs, ferry_alltoallv** alltoallv);
/* Collective: sends block d of `send` (at send_displs[d]) to rank d and receives rank
 * s's block into `recv` at recv_displs[s]: what MPI_Alltoallv delivers, whatever the
 * algorithm. The buffers must not overlap. */
int ferry_alltoallv_execute(ferry_alltoallv* alltoallv, const void* send, void* recv);
/* Not collective: the FERRY_ALLTOALLV_* it runs. */
int ferry_alltoallv_get_algorithm(const ferry_alltoallv* alltoallv, int* algorithm);
int ferry_alltoallv_destroy(ferry_alltoallv** alltoallv);

/* Collective over comm (duplicated); algorithm, type and count the same on every rank
 * (FERRY_ERR_ARG on every rank otherwise). A sum over all ranks of `count` values of
 * `type` by `algorithm` (FERRY_ALLREDUCE_*). */
int ferry_allreduce_create(MPI_Comm comm, int algorithm, int type, int count,
                           ferry_allreduce** allreduce);
/* Collective: recv = the element-wise sum over all ranks of send, the same bits on
 * every rank; send == recv sums in place. Integer sums equal MPI_Allreduce's; floating
 * sums may differ from it in the last bits (another order), but not between runs. */
int ferry_allreduce_execute(ferry_allreduce* allreduce, const void* send, void* recv);
/* Not collective: the FERRY_ALLREDUCE_* it runs. */
int ferry_allreduce_get_algorithm(const ferry_allreduce* allreduce, int* algorithm);
int ferry_allreduce_destroy(ferry_allreduce** allreduce);

#ifdef __cplusplus
}
#endif

#endif /* FERRY_COLLECTIVES_H */
