/* The C API from C: every layout constructor, an exchange of two fields (float64
 * with 2 components and int32) by execute, by begin/end with a mask and into the
 * memory the engine offers (destination_field), and the
 * error paths (codes and messages). Values are a function of the global id and
 * are checked exactly. Run under mpiexec with --engine=NAME; every rank returns
 * the same exit code. */
#include <ferry/ferry.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_checks.h"

/* An 8 x 5 grid, so box and orange layouts have a shape; N = 40 ids. */
enum { NX = 8, NY = 5, N = NX * NY };

static const char* g_engine = NULL; /* --engine=NAME */

/* Field 0: float64, 2 components; field 1: int32. `step` makes each exchange's data new. */
static double value_f64(int64_t gid, int component, int step) {
  return 1000.0 * (double)gid + (double)component + 0.25 * step;
}
static int32_t value_i32(int64_t gid, int step) { return (int32_t)(7 * gid + 3 + step); }

/* Collective: every id of 0..N-1 is held exactly once across the ranks. */
static void check_partition(const ferry_layout* layout, const char* name) {
  int64_t local = -1;
  int64_t global = -1;
  CHECK_OK(ferry_layout_local_size(layout, &local));
  CHECK_OK(ferry_layout_global_size(layout, &global));
  CHECK(global == N, "%s: global size %lld, expected %d", name, (long long)global, N);
  int64_t* ids = malloc((size_t)(local > 0 ? local : 1) * sizeof *ids);
  int* seen = calloc(N, sizeof *seen);
  CHECK_OK(ferry_layout_get_ids(layout, ids));
  for (int64_t i = 0; i < local; ++i) {
    CHECK(ids[i] >= 0 && ids[i] < N, "%s: id %lld out of range", name, (long long)ids[i]);
    if (ids[i] >= 0 && ids[i] < N) ++seen[ids[i]];
  }
  MPI_Allreduce(MPI_IN_PLACE, seen, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int id = 0; id < N; ++id)
    CHECK(seen[id] == 1, "%s: id %d held %d times across ranks, expected once", name, id,
          seen[id]);
  free(seen);
  free(ids);
}

/* Moves both fields from `src` to `dst` with g_engine: execute, then begin/end with
 * each field masked out in turn, checking every destination value. */
static void check_exchange(const ferry_layout* src, const ferry_layout* dst, const char* name) {
  int64_t src_n = 0;
  int64_t dst_n = 0;
  CHECK_OK(ferry_layout_local_size(src, &src_n));
  CHECK_OK(ferry_layout_local_size(dst, &dst_n));
  int64_t* src_ids = malloc((size_t)(src_n + 1) * sizeof *src_ids);
  int64_t* dst_ids = malloc((size_t)(dst_n + 1) * sizeof *dst_ids);
  double* src_f64 = malloc((size_t)(2 * src_n + 1) * sizeof *src_f64);
  double* dst_f64 = malloc((size_t)(2 * dst_n + 1) * sizeof *dst_f64);
  int32_t* src_i32 = malloc((size_t)(src_n + 1) * sizeof *src_i32);
  int32_t* dst_i32 = malloc((size_t)(dst_n + 1) * sizeof *dst_i32);
  CHECK_OK(ferry_layout_get_ids(src, src_ids));
  CHECK_OK(ferry_layout_get_ids(dst, dst_ids));

  ferry_exchange* ex = NULL;
  int f64 = -1;
  int i32 = -1;
  CHECK_OK(ferry_exchange_create(MPI_COMM_WORLD, src, dst, g_engine, &ex));
  CHECK_OK(ferry_exchange_add_field(ex, FERRY_TYPE_FLOAT64, 2, &f64));
  CHECK_OK(ferry_exchange_add_field(ex, FERRY_TYPE_INT32, 1, &i32));
  CHECK(f64 == 0 && i32 == 1, "%s: field indices %d, %d, expected 0, 1", name, f64, i32);
  const int setup = ferry_exchange_setup(ex);
  CHECK(setup == FERRY_SUCCESS, "%s: setup failed: %s", name, ferry_last_error_message());
  if (setup != FERRY_SUCCESS) goto done; /* every rank agrees, so all skip together */
  const char* engine = NULL;
  CHECK_OK(ferry_exchange_get_engine(ex, &engine));
  CHECK(engine != NULL && strcmp(engine, g_engine) == 0, "%s: engine \"%s\", expected \"%s\"",
        name, engine ? engine : "(null)", g_engine);

  const void* sources[2] = {src_f64, src_i32};
  void* targets[2] = {dst_f64, dst_i32};
  /* Step 0: execute everything. Step 1: begin/end moving field 0 only. Step 2: field 1 only. */
  const int masks[3][2] = {{1, 1}, {1, 0}, {0, 1}};
  /* The step whose values each field holds: a masked-out field keeps the old ones. */
  int moved[2] = {0, 0};
  for (int step = 0; step < 3; ++step) {
    for (int64_t i = 0; i < src_n; ++i) {
      src_f64[2 * i] = value_f64(src_ids[i], 0, step);
      src_f64[2 * i + 1] = value_f64(src_ids[i], 1, step);
      src_i32[i] = value_i32(src_ids[i], step);
    }
    if (step == 0) {
      for (int64_t i = 0; i < 2 * dst_n; ++i) dst_f64[i] = -1.0;
      for (int64_t i = 0; i < dst_n; ++i) dst_i32[i] = -1;
      CHECK_OK(ferry_exchange_execute(ex, sources, targets, NULL));
    } else {
      CHECK_OK(ferry_exchange_begin(ex, sources, targets, masks[step]));
      CHECK_OK(ferry_exchange_end(ex));
    }
    for (int f = 0; f < 2; ++f)
      if (masks[step][f]) moved[f] = step;
    for (int64_t i = 0; i < dst_n; ++i) {
      for (int c = 0; c < 2; ++c) {
        const double expected = value_f64(dst_ids[i], c, moved[0]);
        CHECK(dst_f64[2 * i + c] == expected, "%s step %d: float64 at point %lld (id %lld) "
              "component %d is %g, expected %g", name, step, (long long)i,
              (long long)dst_ids[i], c, dst_f64[2 * i + c], expected);
      }
      const int32_t expected = value_i32(dst_ids[i], moved[1]);
      CHECK(dst_i32[i] == expected, "%s step %d: int32 at point %lld (id %lld) is %d, "
            "expected %d", name, step, (long long)i, (long long)dst_ids[i], (int)dst_i32[i],
            (int)expected);
    }
  }
  /* Steps 3-5: into the memory the engine offers, where it offers some (rma, and auto
   * for its rma exchanges, on ranks with a source on the node), else into targets. */
  for (int step = 3; step < 6; ++step) {
    for (int64_t i = 0; i < src_n; ++i) {
      src_f64[2 * i] = value_f64(src_ids[i], 0, step);
      src_f64[2 * i + 1] = value_f64(src_ids[i], 1, step);
      src_i32[i] = value_i32(src_ids[i], step);
    }
    void* into[2] = {NULL, NULL};
    for (int f = 0; f < 2; ++f) {
      CHECK_OK(ferry_exchange_destination_field(ex, f, &into[f]));
      if (into[f] == NULL) into[f] = targets[f];
    }
    CHECK_OK(ferry_exchange_execute(ex, sources, into, NULL));
    const double* got_f64 = into[0];
    const int32_t* got_i32 = into[1];
    for (int64_t i = 0; i < dst_n; ++i) {
      for (int c = 0; c < 2; ++c)
        CHECK(got_f64[2 * i + c] == value_f64(dst_ids[i], c, step),
              "%s step %d (destination_field): float64 at point %lld component %d is %g", name,
              step, (long long)i, c, got_f64[2 * i + c]);
      CHECK(got_i32[i] == value_i32(dst_ids[i], step),
            "%s step %d (destination_field): int32 at point %lld is %d", name, step,
            (long long)i, (int)got_i32[i]);
    }
  }
  void* memory = &memory;
  expect_error(ferry_exchange_destination_field(ex, 2, &memory), FERRY_ERR_ARG_RANGE,
               "field 2 out of range", "destination_field of a field past the last");
  CHECK(memory == NULL, "%s: destination_field left its output set on error", name);
done:
  CHECK_OK(ferry_exchange_destroy(&ex));
  CHECK(ex == NULL, "%s: destroy did not reset the handle", name);
  free(src_ids);
  free(dst_ids);
  free(src_f64);
  free(dst_f64);
  free(src_i32);
  free(dst_i32);
}

/* Every constructor as the source side of an exchange to a round-robin layout. */
static void test_layouts(void) {
  ferry_layout* dst = NULL;
  CHECK_OK(ferry_layout_create_round_robin(N, g_size, g_rank, &dst));
  check_partition(dst, "round_robin");

  ferry_layout* src = NULL;
  CHECK_OK(ferry_layout_create_block(N, g_size, g_rank, &src));
  check_partition(src, "block");
  check_exchange(src, dst, "block -> round_robin");
  ferry_layout_destroy(&src);
  CHECK(src == NULL, "destroy did not reset the layout handle");

  /* An even rank count splits the grid in two rows of blocks. */
  const int py = g_size % 2 == 0 ? 2 : 1;
  CHECK_OK(ferry_layout_create_box(NX, NY, g_size / py, py, g_rank, &src));
  check_partition(src, "box");
  check_exchange(src, dst, "box -> round_robin");
  ferry_layout_destroy(&src);

  CHECK_OK(ferry_layout_create_orange(NX, NY, g_size, g_rank, &src));
  check_partition(src, "orange");
  check_exchange(src, dst, "orange -> round_robin");
  ferry_layout_destroy(&src);

  CHECK_OK(ferry_layout_create_random(N, g_size, g_rank, 2024, &src));
  check_partition(src, "random");
  check_exchange(src, dst, "random -> round_robin");
  ferry_layout_destroy(&src);

  /* points: this rank's block, listed backwards. */
  {
    ferry_layout* block = NULL;
    int64_t count = 0;
    CHECK_OK(ferry_layout_create_block(N, g_size, g_rank, &block));
    CHECK_OK(ferry_layout_local_size(block, &count));
    int64_t* ids = malloc((size_t)(count + 1) * sizeof *ids);
    int64_t* reversed = malloc((size_t)(count + 1) * sizeof *reversed);
    CHECK_OK(ferry_layout_get_ids(block, ids));
    for (int64_t i = 0; i < count; ++i) reversed[i] = ids[count - 1 - i];
    CHECK_OK(ferry_layout_create_points(N, count, reversed, &src));
    check_partition(src, "points");
    check_exchange(src, dst, "points -> round_robin");
    ferry_layout_destroy(&src);
    ferry_layout_destroy(&block);
    free(ids);
    free(reversed);
  }

  /* none: rank 0 alone is the source; with 2+ ranks, rank 0 is no destination. */
  if (g_rank == 0)
    CHECK_OK(ferry_layout_create_block(N, 1, 0, &src));
  else
    CHECK_OK(ferry_layout_create_none(N, &src));
  ferry_layout* others = NULL;
  if (g_size == 1)
    CHECK_OK(ferry_layout_create_round_robin(N, 1, 0, &others));
  else if (g_rank == 0)
    CHECK_OK(ferry_layout_create_none(N, &others));
  else
    CHECK_OK(ferry_layout_create_round_robin(N, g_size - 1, g_rank - 1, &others));
  int64_t none_size = -1;
  if (g_rank != 0) {
    CHECK_OK(ferry_layout_local_size(src, &none_size));
    CHECK(none_size == 0, "none layout holds %lld ids", (long long)none_size);
  }
  check_exchange(src, others, "rank 0 -> ranks 1..P-1");
  ferry_layout_destroy(&others);
  ferry_layout_destroy(&src);
  ferry_layout_destroy(&dst);
}

static void test_errors(void) {
  int64_t size = 0;
  expect_error(ferry_layout_local_size(NULL, &size), FERRY_ERR_ARG,
               "ferry_layout_local_size: layout is NULL", "NULL layout");
  expect_error(ferry_exchange_execute(NULL, NULL, NULL, NULL), FERRY_ERR_ARG,
               "ferry_exchange_execute: exchange is NULL", "NULL exchange");
  expect_error(ferry_layout_create_block(N, g_size, g_size, NULL), FERRY_ERR_ARG,
               "ferry_layout_create_block: output pointer is NULL", "NULL output handle");

  ferry_layout* layout = NULL;
  CHECK_OK(ferry_layout_create_block(N, g_size, g_rank, &layout));
  ferry_exchange* ex = NULL;
  CHECK_OK(ferry_exchange_create(MPI_COMM_WORLD, layout, layout, g_engine, &ex));
  int index = -1;
  expect_error(ferry_exchange_add_field(ex, 42, 1, &index), FERRY_ERR_ARG, "unknown type 42",
               "bad type");
  expect_error(ferry_exchange_add_field(ex, FERRY_TYPE_FLOAT64, 0, &index), FERRY_ERR_ARG,
               "components must be >= 1; got 0", "zero components");
  CHECK_OK(ferry_exchange_add_field(ex, FERRY_TYPE_FLOAT64, 1, &index));
  double value = 0.0;
  const void* sources[1] = {&value};
  void* targets[1] = {&value};
  expect_error(ferry_exchange_execute(ex, sources, targets, NULL), FERRY_ERR_STATE,
               "Call ferry_exchange_setup first", "execute before setup");
  expect_error(ferry_exchange_get_engine(ex, NULL), FERRY_ERR_STATE, "not set up",
               "engine before setup");
  CHECK_OK(ferry_exchange_destroy(&ex));
  ferry_layout_destroy(&layout);

  /* The last rank lists an id past the end; setup must fail the same way on every rank. */
  int64_t ids[1] = {g_rank == g_size - 1 ? N + 5 : g_rank};
  ferry_layout* bad = NULL;
  ferry_layout* good = NULL;
  CHECK_OK(ferry_layout_create_points(N, 1, ids, &bad));
  CHECK_OK(ferry_layout_create_block(N, g_size, g_rank, &good));
  CHECK_OK(ferry_exchange_create(MPI_COMM_WORLD, good, bad, g_engine, &ex));
  CHECK_OK(ferry_exchange_add_field(ex, FERRY_TYPE_INT32, 1, &index));
  char text[64];
  snprintf(text, sizeof text, "destination id %d", N + 5);
  expect_error(ferry_exchange_setup(ex), FERRY_ERR_ARG_RANGE, text, "id out of range");
  CHECK_OK(ferry_exchange_destroy(&ex));
  ferry_layout_destroy(&bad);
  ferry_layout_destroy(&good);

  CHECK(strlen(ferry_error_string(FERRY_ERR_ARG_RANGE)) > 0, "no text for FERRY_ERR_ARG_RANGE");
  CHECK(strlen(ferry_version()) > 0, "empty version");
}

int main(int argc, char** argv) {
  g_engine = start_checks(&argc, &argv);

  test_layouts();
  test_errors();

  return finish_checks();
}
