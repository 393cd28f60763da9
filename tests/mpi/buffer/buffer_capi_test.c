/* The time-series buffer from C: rank 0 (and rank 1 with 3 or more ranks) is the
 * requester, holding rows of a 6 x 5 int32 array; the other ranks form one worker
 * group, each reading a box that crosses the requester rows. Values are a function
 * of (global index, step) and are checked exactly; error codes and messages too.
 * Every rank returns the same exit code. */
#include <ferry/buffer.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_checks.h"

enum { NX = 6, NY = 5, STEPS = 7, MAX_STEPS = 3 };

static int32_t value_at(int64_t gid, int64_t step) { return (int32_t)(gid * 10 + step * 1000); }

/* Requester `index` of `count` holds rows [start, end). */
static int64_t row_start(int count, int index) { return (int64_t)NX * index / count; }

static void run_requester(int count, int index) {
  const int64_t shape[2] = {NX, NY};
  const int64_t start[2] = {row_start(count, index), 0};
  const int64_t end[2] = {row_start(count, index + 1), NY};
  ferry_buffer* buffer = NULL;
  CHECK_OK(ferry_buffer_expose(MPI_COMM_WORLD, 2, shape, start, end, FERRY_TYPE_INT32,
                               FERRY_BUFFER_STEPS, 2, FERRY_BUFFER_LOSSLESS, &buffer));
  int64_t capacity = 0;
  CHECK_OK(ferry_buffer_get_capacity(buffer, &capacity));
  CHECK(capacity == 2, "capacity %lld, expected 2", (long long)capacity);
  int type = -1;
  CHECK_OK(ferry_buffer_get_type(buffer, &type));
  CHECK(type == FERRY_TYPE_INT32, "type %d, expected FERRY_TYPE_INT32", type);
  expect_error(ferry_buffer_get_type(buffer, NULL), FERRY_ERR_ARG, "ferry_buffer_get_type",
               "NULL type");

  int32_t values[NX * NY];
  for (int64_t step = 100; step < 100 + STEPS; ++step) {
    int64_t n = 0;
    for (int64_t i = start[0]; i < end[0]; ++i)
      for (int64_t j = 0; j < NY; ++j) values[n++] = value_at(i * NY + j, step);
    CHECK_OK(ferry_buffer_load(buffer, values, step));
  }
  int rc = ferry_buffer_load(buffer, values, 100);
  CHECK(rc == FERRY_ERR_ARG, "non-increasing step gave %d (%s)", rc, ferry_error_string(rc));
  const char* message = ferry_last_error_message();
  CHECK(strstr(message, "ferry_buffer_load: step 100") == message &&
            strstr(message, "Steps must strictly increase") != NULL,
        "message: %s", message);
  CHECK_OK(ferry_buffer_close(buffer));
  CHECK_OK(ferry_buffer_destroy(&buffer));
  CHECK(buffer == NULL, "destroy did not clear the handle");
}

static void run_worker(MPI_Comm group, int index) {
  ferry_buffer* buffer = NULL;
  CHECK_OK(ferry_buffer_connect(MPI_COMM_WORLD, 0, &buffer));
  int type = -1;
  CHECK_OK(ferry_buffer_get_type(buffer, &type));
  CHECK(type == FERRY_TYPE_INT32, "type %d on a worker, expected FERRY_TYPE_INT32", type);

  const int64_t start[2] = {1, index % 2};
  const int64_t end[2] = {NX - index % 2, NY};
  ferry_buffer_reader* reader = NULL;
  int rc = ferry_buffer_attach(buffer, group, 2, start, NULL, &reader);
  CHECK(rc == FERRY_ERR_ARG && reader == NULL, "NULL end gave %d", rc);
  CHECK(strstr(ferry_last_error_message(), "ferry_buffer_attach: ") != NULL, "message: %s",
        ferry_last_error_message());
  CHECK_OK(ferry_buffer_attach(buffer, group, 2, start, end, &reader));
  int64_t per_step = 0;
  CHECK_OK(ferry_buffer_reader_values_per_step(reader, &per_step));
  CHECK(per_step == (end[0] - start[0]) * (end[1] - start[1]), "values per step %lld",
        (long long)per_step);

  int32_t* out = malloc((size_t)(MAX_STEPS * per_step) * sizeof *out);
  int64_t steps[MAX_STEPS];
  int64_t expected = 100;
  for (;;) {
    int64_t first = -1, n = -1, lost = -1;
    CHECK_OK(ferry_buffer_reader_read(reader, out, MAX_STEPS, &first, &n, &lost));
    if (n <= 0) break;
    CHECK(first == expected && lost == 0, "read first %lld lost %lld, expected %lld and 0",
          (long long)first, (long long)lost, (long long)expected);
    CHECK_OK(ferry_buffer_reader_get_steps(reader, steps));
    for (int64_t s = 0; s < n; ++s) {
      CHECK(steps[s] == expected + s, "step %lld, expected %lld", (long long)steps[s],
            (long long)(expected + s));
      int64_t k = 0;
      for (int64_t i = start[0]; i < end[0]; ++i)
        for (int64_t j = start[1]; j < end[1]; ++j, ++k) {
          const int32_t got = out[s * per_step + k];
          CHECK(got == value_at(i * NY + j, steps[s]), "step %lld point (%lld,%lld): got %d",
                (long long)steps[s], (long long)i, (long long)j, got);
        }
    }
    expected += n;
  }
  CHECK(expected == 100 + STEPS, "read up to step %lld, expected %d", (long long)expected,
        100 + STEPS);
  CHECK_OK(ferry_buffer_reader_done(reader));
  CHECK_OK(ferry_buffer_reader_destroy(&reader));
  CHECK_OK(ferry_buffer_destroy(&buffer));
  CHECK(reader == NULL && buffer == NULL, "destroy did not clear the handles");
  free(out);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    MPI_Finalize();
    return 77; /* needs a requester and a worker */
  }
  const int requesters = size >= 3 ? 2 : 1;
  MPI_Comm group = MPI_COMM_NULL; /* the worker group: every rank but the requesters */
  MPI_Comm_split(MPI_COMM_WORLD, g_rank < requesters ? MPI_UNDEFINED : 0, g_rank, &group);
  if (g_rank < requesters) {
    run_requester(requesters, g_rank);
  } else {
    run_worker(group, g_rank - requesters);
    MPI_Comm_free(&group);
  }
  return finish_checks();
}
