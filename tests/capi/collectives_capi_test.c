/* The collective algorithm variants from C.
 *
 * - ferry_alltoallv with every algorithm and two types: rank s sends (s + 2 d) mod 3
 *   values to rank d (zero counts included), at displacements with gaps; every value
 *   received equals its formula of (source, destination, index), the gaps keep their
 *   sentinel, and MPI_Alltoallv delivers the same.
 * - ferry_allreduce with every algorithm, float64 (integer values, so every order is
 *   exact) and int64, out of place and in place: the exact sums on every rank.
 * - The tuning cache: no cache gives the fallback; a cache line in the format of
 *   `ferry tune kernels` gives its algorithm for its size class only.
 * - Error codes, three of them from a wrong argument on one rank only, which every
 *   rank must report alike. */
#include <ferry/collectives.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_checks.h"

enum { GAP = 1, COUNT = 5, SENTINEL = -1 };

static int send_count(int from, int to) { return (from + 2 * to) % 3; }
static double value(int from, int to, int j) { return 1000.0 * from + 10.0 * to + j; }

/* Counts and displacements of this rank, with a gap of GAP values after each block. */
typedef struct {
  int *send_counts, *send_displs, *recv_counts, *recv_displs;
  int send_total, recv_total;
} Blocks;

static Blocks make_blocks(void) {
  Blocks b;
  size_t n = (size_t)g_size;
  b.send_counts = malloc(n * sizeof(int)), b.send_displs = malloc(n * sizeof(int));
  b.recv_counts = malloc(n * sizeof(int)), b.recv_displs = malloc(n * sizeof(int));
  b.send_total = b.recv_total = 0;
  for (int r = 0; r < g_size; ++r) {
    b.send_counts[r] = send_count(g_rank, r);
    b.send_displs[r] = b.send_total;
    b.send_total += b.send_counts[r] + GAP;
    b.recv_counts[r] = send_count(r, g_rank);
    b.recv_displs[r] = b.recv_total;
    b.recv_total += b.recv_counts[r] + GAP;
  }
  return b;
}

static void free_blocks(Blocks* b) {
  free(b->send_counts), free(b->send_displs), free(b->recv_counts), free(b->recv_displs);
}

/* value(s, d, j) as the type's element; a sentinel in the gaps. */
static void fill(void* buffer, int type, int total, const int* counts, const int* displs,
                 int send) {
  for (int i = 0; i < total; ++i) {
    if (type == FERRY_TYPE_FLOAT64) ((double*)buffer)[i] = SENTINEL;
    else ((int32_t*)buffer)[i] = SENTINEL;
  }
  if (!send) return;
  for (int d = 0; d < g_size; ++d)
    for (int j = 0; j < counts[d]; ++j) {
      double v = value(g_rank, d, j);
      if (type == FERRY_TYPE_FLOAT64) ((double*)buffer)[displs[d] + j] = v;
      else ((int32_t*)buffer)[displs[d] + j] = (int32_t)v;
    }
}

static double element(const void* buffer, int type, int i) {
  return type == FERRY_TYPE_FLOAT64 ? ((const double*)buffer)[i] : ((const int32_t*)buffer)[i];
}

static void test_alltoallv(void) {
  Blocks b = make_blocks();
  const int types[2] = {FERRY_TYPE_FLOAT64, FERRY_TYPE_INT32};
  double* send = malloc(((size_t)b.send_total + 1) * sizeof(double));
  double* recv = malloc(((size_t)b.recv_total + 1) * sizeof(double));
  double* reference = malloc(((size_t)b.recv_total + 1) * sizeof(double));
  for (int t = 0; t < 2; ++t)
    for (int algorithm = FERRY_ALLTOALLV_MPI; algorithm <= FERRY_ALLTOALLV_BRUCK; ++algorithm) {
      ferry_alltoallv* a = NULL;
      CHECK_OK(ferry_alltoallv_create(MPI_COMM_WORLD, algorithm, types[t], b.send_counts,
                                      b.send_displs, b.recv_counts, b.recv_displs, &a));
      int got = -1;
      CHECK_OK(ferry_alltoallv_get_algorithm(a, &got));
      CHECK(got == algorithm, "algorithm %d, got %d", algorithm, got);
      fill(send, types[t], b.send_total, b.send_counts, b.send_displs, 1);
      fill(recv, types[t], b.recv_total, b.recv_counts, b.recv_displs, 0);
      CHECK_OK(ferry_alltoallv_execute(a, send, recv));
      for (int s = 0; s < g_size; ++s) {
        for (int j = 0; j < b.recv_counts[s]; ++j)
          CHECK(element(recv, types[t], b.recv_displs[s] + j) == value(s, g_rank, j),
                "type %d algorithm %d: value %d from rank %d is %g, expected %g", types[t],
                algorithm, j, s, element(recv, types[t], b.recv_displs[s] + j),
                value(s, g_rank, j));
        CHECK(element(recv, types[t], b.recv_displs[s] + b.recv_counts[s]) == SENTINEL,
              "type %d algorithm %d: the gap after rank %d's block was written", types[t],
              algorithm, s);
      }
      MPI_Datatype mpi_type = types[t] == FERRY_TYPE_FLOAT64 ? MPI_DOUBLE : MPI_INT32_T;
      fill(reference, types[t], b.recv_total, b.recv_counts, b.recv_displs, 0);
      MPI_Alltoallv(send, b.send_counts, b.send_displs, mpi_type, reference, b.recv_counts,
                    b.recv_displs, mpi_type, MPI_COMM_WORLD);
      size_t bytes = (size_t)b.recv_total * (types[t] == FERRY_TYPE_FLOAT64 ? 8 : 4);
      CHECK(memcmp(recv, reference, bytes) == 0, "type %d algorithm %d: not MPI_Alltoallv's",
            types[t], algorithm);
      CHECK_OK(ferry_alltoallv_destroy(&a));
      CHECK(a == NULL, "destroy sets the handle to NULL");
    }
  free(send), free(recv), free(reference);
  free_blocks(&b);
}

static void test_allreduce(void) {
  for (int algorithm = FERRY_ALLREDUCE_MPI; algorithm <= FERRY_ALLREDUCE_RING; ++algorithm) {
    ferry_allreduce *doubles = NULL, *integers = NULL;
    CHECK_OK(ferry_allreduce_create(MPI_COMM_WORLD, algorithm, FERRY_TYPE_FLOAT64, COUNT,
                                    &doubles));
    CHECK_OK(ferry_allreduce_create(MPI_COMM_WORLD, algorithm, FERRY_TYPE_INT64, COUNT,
                                    &integers));
    double x[COUNT], sum[COUNT];
    int64_t k[COUNT];
    for (int i = 0; i < COUNT; ++i) {
      x[i] = 3.0 * g_rank + i - 1e12;
      k[i] = (int64_t)g_rank * 1000000007LL + i;
    }
    CHECK_OK(ferry_allreduce_execute(doubles, x, sum));
    CHECK_OK(ferry_allreduce_execute(integers, k, k)); /* in place */
    int64_t p = g_size;
    for (int i = 0; i < COUNT; ++i) {
      double want = 3.0 * (double)(p * (p - 1) / 2) + (double)p * (i - 1e12);
      int64_t want_k = p * (p - 1) / 2 * 1000000007LL + p * i;
      CHECK(sum[i] == want, "algorithm %d: double sum %d is %.17g, expected %.17g", algorithm, i,
            sum[i], want);
      CHECK(k[i] == want_k, "algorithm %d: int64 sum %d is %lld, expected %lld", algorithm, i,
            (long long)k[i], (long long)want_k);
    }
    int got = -1;
    CHECK_OK(ferry_allreduce_get_algorithm(doubles, &got));
    CHECK(got == algorithm, "algorithm %d, got %d", algorithm, got);
    CHECK_OK(ferry_allreduce_destroy(&doubles));
    CHECK_OK(ferry_allreduce_destroy(&integers));
  }
}

/* The first line of the MPI library's version, as the tuning cache keys it. */
static void mpi_library(char* text) {
  int length = 0;
  MPI_Get_library_version(text, &length);
  text[length] = '\0';
  char* newline = strchr(text, '\n');
  if (newline) *newline = '\0';
  for (size_t n = strlen(text); n > 0 && text[n - 1] == ' '; --n) text[n - 1] = '\0';
  for (char* c = text; *c; ++c)
    if (*c == '|') *c = '/';
}

static void test_tuning_cache(void) {
  int algorithm = -1;
  CHECK_OK(ferry_alltoallv_tuned_algorithm(MPI_COMM_WORLD, NULL, 64, FERRY_ALLTOALLV_BRUCK,
                                           &algorithm));
  CHECK(algorithm == FERRY_ALLTOALLV_BRUCK, "no cache: got %d", algorithm);

  /* One entry per operation, for the size classes 32 (32..127 bytes) and 128. */
  char library[MPI_MAX_LIBRARY_VERSION_STRING + 1], path[64];
  mpi_library(library);
  snprintf(path, sizeof path, "ferry_collectives_capi_np%d.txt", g_size);
  if (g_rank == 0) {
    FILE* file = fopen(path, "w");
    CHECK(file != NULL, "cannot write %s", path);
    if (file) {
      fprintf(file, "ferry-tuning-cache 1\n");
      fprintf(file, "ranks=%d tuned=alltoallv bytes=32 mpi=%s | swap | mpi=2e-06 swap=1e-06\n",
              g_size, library);
      fprintf(file,
              "ranks=%d tuned=allreduce bytes=128 mpi=%s | halving | mpi=2e-06 halving=1e-06\n",
              g_size, library);
      fclose(file);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const struct {
    int alltoallv;
    int64_t bytes;
    int expected;
  } cases[4] = {{1, 40, FERRY_ALLTOALLV_SWAP},
                {1, 200, FERRY_ALLTOALLV_MPI},
                {0, 130, FERRY_ALLREDUCE_HALVING},
                {0, 100, FERRY_ALLREDUCE_RING}};
  for (int c = 0; c < 4; ++c) {
    algorithm = -1;
    if (cases[c].alltoallv)
      CHECK_OK(ferry_alltoallv_tuned_algorithm(MPI_COMM_WORLD, path, cases[c].bytes,
                                               FERRY_ALLTOALLV_MPI, &algorithm));
    else
      CHECK_OK(ferry_allreduce_tuned_algorithm(MPI_COMM_WORLD, path, cases[c].bytes,
                                               FERRY_ALLREDUCE_RING, &algorithm));
    CHECK(algorithm == cases[c].expected, "case %d (%lld bytes): got %d, expected %d", c,
          (long long)cases[c].bytes, algorithm, cases[c].expected);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (g_rank == 0) remove(path);
}

static void test_errors(void) {
  Blocks b = make_blocks();
  ferry_alltoallv* a = NULL;
  ferry_allreduce* r = NULL;
  int last = g_rank == g_size - 1, algorithm = 0;
  expect_error(ferry_alltoallv_create(MPI_COMM_WORLD, 7, FERRY_TYPE_FLOAT64, b.send_counts,
                                      b.send_displs, b.recv_counts, b.recv_displs, &a),
               FERRY_ERR_ARG, "unknown algorithm 7", "unknown algorithm");
  expect_error(ferry_allreduce_create(MPI_COMM_WORLD, FERRY_ALLREDUCE_MPI, 9, COUNT, &r),
               FERRY_ERR_ARG, "unknown type 9", "unknown type");
  expect_error(ferry_allreduce_tuned_algorithm(MPI_COMM_WORLD, NULL, 8, 4, &algorithm),
               FERRY_ERR_ARG, "unknown fallback 4", "unknown fallback");
  expect_error(ferry_alltoallv_execute(NULL, NULL, NULL), FERRY_ERR_ARG, "alltoallv is NULL",
               "execute without a handle");
  /* One rank only: counts NULL; an algorithm or a count that differs. */
  expect_error(ferry_alltoallv_create(MPI_COMM_WORLD, FERRY_ALLTOALLV_RING, FERRY_TYPE_FLOAT64,
                                      last ? NULL : b.send_counts, b.send_displs, b.recv_counts,
                                      b.recv_displs, &a),
               FERRY_ERR_ARG, "send_counts is NULL", "NULL counts on one rank");
  if (g_size > 1) {
    expect_error(ferry_allreduce_create(MPI_COMM_WORLD,
                                        last ? FERRY_ALLREDUCE_RING : FERRY_ALLREDUCE_MPI,
                                        FERRY_TYPE_INT64, COUNT, &r),
                 FERRY_ERR_ARG, "the ranks pass different algorithm (from mpi to ring)",
                 "algorithm differs on one rank");
    expect_error(ferry_allreduce_create(MPI_COMM_WORLD, FERRY_ALLREDUCE_MPI, FERRY_TYPE_INT64,
                                        last ? COUNT + 1 : COUNT, &r),
                 FERRY_ERR_ARG, "the ranks pass different count (from 5 to 6)",
                 "count differs on one rank");
  }
  /* What rank 0 expects from the last rank is not what that rank sends. */
  if (g_rank == 0) b.recv_counts[g_size - 1] += 1;
  expect_error(ferry_alltoallv_create(MPI_COMM_WORLD, FERRY_ALLTOALLV_SWAP, FERRY_TYPE_INT32,
                                      b.send_counts, b.send_displs, b.recv_counts,
                                      b.recv_displs, &a),
               FERRY_ERR_ARG_SIZE, "expects recv_counts[", "inconsistent counts");
  CHECK(a == NULL && r == NULL, "a failed create leaves the handle NULL");
  free_blocks(&b);
}

int main(int argc, char** argv) {
  start_checks(&argc, &argv);
  test_alltoallv();
  test_allreduce();
  test_tuning_cache();
  test_errors();
  return finish_checks();
}
