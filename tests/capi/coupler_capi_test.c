/* The coupler's C API from C: two components ("atm" on the first half of the ranks,
 * "ocn" on the rest; one rank runs both) coupled by a configuration written here,
 * with puts and gets every 100 s, exchanges every 200 and 400 s, a bundle of 3
 * levels and an int32 field, every received value checked against a function of
 * the global id and time; then the error paths (codes and messages), local and
 * collective; then a time-series buffer, its values a function of the global id and
 * step. Every rank returns the same exit code. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <ferry/ferry.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_checks.h"

/* A 12 x 5 grid: box blocks on atm, round robin on ocn. */
enum { NX = 12, NY = 5, N = NX * NY, LEVELS = 3 };

/* What the source puts at global id `gid`, time `t`, level `level` (exact in double). */
static double value_f64(int64_t gid, double t, int level) {
  return 1000.0 * (double)gid + t / 100.0 + 0.125 * level;
}
static int32_t value_i32(int64_t gid, double t) { return (int32_t)(7 * gid + (int64_t)t / 100); }

/* Which components this rank runs, and its rank and size inside each. */
typedef struct {
  int atm, ocn;
  int atm_rank, atm_size, ocn_rank, ocn_size;
} Roles;

static Roles roles(void) {
  Roles r;
  r.atm_size = g_size == 1 ? 1 : (g_size + 1) / 2;
  r.ocn_size = g_size == 1 ? 1 : g_size - r.atm_size;
  r.atm = g_size == 1 || g_rank < r.atm_size;
  r.ocn = g_size == 1 || g_rank >= r.atm_size;
  r.atm_rank = g_size == 1 ? 0 : g_rank;
  r.ocn_rank = g_size == 1 ? 0 : g_rank - r.atm_size;
  return r;
}

static const char* g_dir = NULL;

/* Rank 0 writes `yaml` to <dir>/<name>; every rank gets the path. */
static void write_config(const char* name, const char* yaml, char* path, size_t size) {
  snprintf(path, size, "%s/%s", g_dir, name);
  if (g_rank == 0) {
    FILE* f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    if (f) {
      fputs(yaml, f);
      fclose(f);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/* Rank 0 writes a configuration of an 800 s run of atm and ocn with `entries` (its
 * exchanges: or buffers:) to <dir>/<name>; every rank gets the path. */
static void run_config(const char* name, const char* entries, char* path, size_t size) {
  char yaml[2048];
  snprintf(yaml, sizeof yaml,
           "version: 1\n"
           "run: {start: 0, length: 800}\n"
           "components: [atm, ocn]\n"
           "output: {directory: %s, timers: false}\n"
           "watchdog: {timeout: 30}\n"
           "%s",
           g_dir, entries);
  write_config(name, yaml, path, size);
}

/* Three exchanges atm -> ocn. */
static const char* const kExchanges =
    "exchanges:\n"
    "  - name: temperature\n"
    "    source: {component: atm, field: t_atm}\n"
    "    target: {component: ocn, field: t_ocn}\n"
    "    period: 200\n"
    "    engine: p2p\n"
    "  - name: levels\n"
    "    source: {component: atm, field: lev_atm}\n"
    "    target: {component: ocn, field: lev_ocn}\n"
    "    period: 200\n"
    "    engine: p2p\n"
    "  - name: flags\n"
    "    source: {component: atm, field: n_atm}\n"
    "    target: {component: ocn, field: n_ocn}\n"
    "    period: 400\n"
    "    engine: p2p\n";

/* A coupler over every rank, each running its components of `who`; NULL if that fails. */
static ferry_coupler* create_coupler(Roles who, const char* path) {
  const char* names[2];
  int count = 0;
  if (who.atm) names[count++] = "atm";
  if (who.ocn) names[count++] = "ocn";
  ferry_coupler* c = NULL;
  CHECK_OK(ferry_coupler_create(MPI_COMM_WORLD, count, names, path, &c));
  return c;
}

static int64_t* layout_ids(const ferry_layout* layout, int64_t* count) {
  CHECK_OK(ferry_layout_local_size(layout, count));
  int64_t* ids = malloc((size_t)(*count + 1) * sizeof *ids);
  CHECK_OK(ferry_layout_get_ids(layout, ids));
  return ids;
}

static void test_run(void) {
  const Roles who = roles();
  char path[512];
  run_config("run.yaml", kExchanges, path, sizeof path);

  ferry_coupler* c = create_coupler(who, path);
  if (c == NULL) return;

  ferry_layout* atm_layout = NULL;
  ferry_layout* ocn_layout = NULL;
  int t_atm = -1, lev_atm = -1, n_atm = -1, t_ocn = -1, lev_ocn = -1, n_ocn = -1;
  if (who.atm) {
    MPI_Comm local = MPI_COMM_NULL;
    int local_size = 0;
    CHECK_OK(ferry_coupler_local_comm(c, "atm", &local));
    if (local != MPI_COMM_NULL) MPI_Comm_size(local, &local_size);
    CHECK(local_size == who.atm_size, "atm has %d ranks, expected %d", local_size, who.atm_size);

    int grid = -1, part = -1;
    CHECK_OK(ferry_coupler_def_grid(c, "atm", "agrid", NX, NY, &grid));
    CHECK_OK(ferry_layout_create_box(NX, NY, 1, who.atm_size, who.atm_rank, &atm_layout));
    CHECK_OK(ferry_coupler_def_partition(c, grid, "blocks", atm_layout, &part));
    /* Grid metadata is optional; set it once to exercise the calls. */
    int64_t n = 0;
    int64_t* ids = layout_ids(atm_layout, &n);
    double* lon = malloc((size_t)(4 * n + 1) * sizeof *lon);
    double* lat = malloc((size_t)(4 * n + 1) * sizeof *lat);
    int32_t* mask = malloc((size_t)(n + 1) * sizeof *mask);
    for (int64_t i = 0; i < 4 * n; ++i) {
      lon[i] = (double)(ids[i / 4] % NX) * 30.0 + (double)(i % 4);
      lat[i] = (double)(ids[i / 4] / NX) * 30.0 - 60.0;
    }
    for (int64_t i = 0; i < n; ++i) mask[i] = 1;
    int64_t points = -1;
    CHECK_OK(ferry_coupler_partition_points(c, part, &points));
    CHECK(points == n, "partition_points gives %lld, expected the layout's %lld", (long long)points,
          (long long)n);
    CHECK_OK(ferry_coupler_set_coordinates(c, part, lon, lat));
    CHECK_OK(ferry_coupler_set_corners(c, part, 4, lon, lat));
    CHECK_OK(ferry_coupler_set_areas(c, part, lon));
    CHECK_OK(ferry_coupler_set_mask(c, part, mask));
    free(ids);
    free(lon);
    free(lat);
    free(mask);

    CHECK_OK(ferry_coupler_def_field(c, part, "t_atm", FERRY_FIELD_OUT, FERRY_TYPE_FLOAT64, 1, &t_atm));
    CHECK_OK(ferry_coupler_def_field(c, part, "lev_atm", FERRY_FIELD_OUT, FERRY_TYPE_FLOAT64, LEVELS,
                                     &lev_atm));
    CHECK_OK(ferry_coupler_def_field(c, part, "n_atm", FERRY_FIELD_OUT, FERRY_TYPE_INT32, 1, &n_atm));
  }
  if (who.ocn) {
    int grid = -1, part = -1;
    CHECK_OK(ferry_coupler_def_grid(c, "ocn", "ogrid", NX, NY, &grid));
    CHECK_OK(ferry_layout_create_round_robin(N, who.ocn_size, who.ocn_rank, &ocn_layout));
    CHECK_OK(ferry_coupler_def_partition(c, grid, "cyclic", ocn_layout, &part));
    CHECK_OK(ferry_coupler_def_field(c, part, "t_ocn", FERRY_FIELD_IN, FERRY_TYPE_FLOAT64, 1, &t_ocn));
    CHECK_OK(ferry_coupler_def_field(c, part, "lev_ocn", FERRY_FIELD_IN, FERRY_TYPE_FLOAT64, LEVELS,
                                     &lev_ocn));
    CHECK_OK(ferry_coupler_def_field(c, part, "n_ocn", FERRY_FIELD_IN, FERRY_TYPE_INT32, 1, &n_ocn));
    int64_t values = -1;
    int type = -1;
    int64_t local = 0;
    CHECK_OK(ferry_layout_local_size(ocn_layout, &local));
    CHECK_OK(ferry_coupler_field_values(c, lev_ocn, &values));
    CHECK_OK(ferry_coupler_field_type(c, n_ocn, &type));
    CHECK(values == LEVELS * local, "lev_ocn has %lld values, expected %lld", (long long)values,
          (long long)(LEVELS * local));
    CHECK(type == FERRY_TYPE_INT32, "n_ocn has type %d, expected %d", type, FERRY_TYPE_INT32);
  }
  /* Puts are only allowed after enddef. */
  if (who.atm) {
    double v = 0.0;
    expect_error(ferry_coupler_put(c, t_atm, 0.0, &v, NULL), FERRY_ERR_STATE,
                 "ferry_coupler_put: only allowed between enddef and finalize", "put before enddef");
  }
  CHECK_OK(ferry_coupler_enddef(c));

  int64_t na = 0, no = 0;
  int64_t* atm_ids = who.atm ? layout_ids(atm_layout, &na) : NULL;
  int64_t* ocn_ids = who.ocn ? layout_ids(ocn_layout, &no) : NULL;
  double* t_out = malloc((size_t)(na + 1) * sizeof *t_out);
  double* lev_out = malloc((size_t)(LEVELS * na + 1) * sizeof *lev_out);
  int32_t* n_out = malloc((size_t)(na + 1) * sizeof *n_out);
  double* t_in = malloc((size_t)(no + 1) * sizeof *t_in);
  double* lev_in = malloc((size_t)(LEVELS * no + 1) * sizeof *lev_in);
  int32_t* n_in = malloc((size_t)(no + 1) * sizeof *n_in);

  for (int step = 0; step < 8; ++step) {
    const double t = 100.0 * step;
    const int every200 = step % 2 == 0;
    const int every400 = step % 4 == 0;
    if (who.atm) {
      for (int64_t i = 0; i < na; ++i) {
        t_out[i] = value_f64(atm_ids[i], t, 0);
        for (int l = 0; l < LEVELS; ++l) lev_out[LEVELS * i + l] = value_f64(atm_ids[i], t, l);
        n_out[i] = value_i32(atm_ids[i], t);
      }
      int status = -1;
      CHECK_OK(ferry_coupler_put(c, t_atm, t, t_out, &status));
      CHECK(status == (every200 ? FERRY_STATUS_SENT : FERRY_STATUS_NOTHING), "t_atm put at %g: status %d",
            t, status);
      CHECK_OK(ferry_coupler_put(c, lev_atm, t, lev_out, NULL));
      CHECK_OK(ferry_coupler_put(c, n_atm, t, n_out, &status));
      CHECK(status == (every400 ? FERRY_STATUS_SENT : FERRY_STATUS_NOTHING), "n_atm put at %g: status %d",
            t, status);
    }
    if (who.ocn) {
      for (int64_t i = 0; i < no; ++i) {
        t_in[i] = -1.0;
        n_in[i] = -1;
        for (int l = 0; l < LEVELS; ++l) lev_in[LEVELS * i + l] = -1.0;
      }
      int status = -1;
      CHECK_OK(ferry_coupler_get(c, t_ocn, t, t_in, &status));
      CHECK(status == (every200 ? FERRY_STATUS_RECEIVED : FERRY_STATUS_NOTHING), "t_ocn get at %g: status %d",
            t, status);
      CHECK_OK(ferry_coupler_get(c, lev_ocn, t, lev_in, &status));
      CHECK_OK(ferry_coupler_get(c, n_ocn, t, n_in, &status));
      CHECK(status == (every400 ? FERRY_STATUS_RECEIVED : FERRY_STATUS_NOTHING), "n_ocn get at %g: status %d",
            t, status);
      /* Between coupling times a get leaves the array alone. */
      for (int64_t i = 0; i < no; ++i) {
        const double t_want = every200 ? value_f64(ocn_ids[i], t, 0) : -1.0;
        CHECK(t_in[i] == t_want, "t_ocn at %g, id %lld: %g, expected %g", t, (long long)ocn_ids[i],
              t_in[i], t_want);
        for (int l = 0; l < LEVELS; ++l) {
          const double want = every200 ? value_f64(ocn_ids[i], t, l) : -1.0;
          CHECK(lev_in[LEVELS * i + l] == want, "lev_ocn at %g, id %lld, level %d: %g, expected %g", t,
                (long long)ocn_ids[i], l, lev_in[LEVELS * i + l], want);
        }
        const int32_t n_want = every400 ? value_i32(ocn_ids[i], t) : -1;
        CHECK(n_in[i] == n_want, "n_ocn at %g, id %lld: %d, expected %d", t, (long long)ocn_ids[i],
              (int)n_in[i], (int)n_want);
      }
    }
  }

  /* Local errors after enddef: the coupler stays usable. */
  if (who.atm) {
    expect_error(ferry_coupler_get(c, t_atm, 700.0, t_out, NULL), FERRY_ERR_ARG,
                 "ferry_coupler_get: field \"t_atm\" was declared Out", "get of an Out field");
    expect_error(ferry_coupler_put(c, t_atm, 600.0, t_out, NULL), FERRY_ERR_ARG,
                 "comes before the previous put", "time going backwards");
    int64_t values = 0;
    expect_error(ferry_coupler_field_values(c, 99, &values), FERRY_ERR_ARG,
                 "ferry_coupler_field_values: field id 99 was not returned by def_field", "unknown field id");
    MPI_Comm local = MPI_COMM_NULL;
    if (!who.ocn)
      expect_error(ferry_coupler_local_comm(c, "ocn", &local), FERRY_ERR_ARG,
                   "does not run component \"ocn\"", "local_comm of another component");
  }
  CHECK_OK(ferry_coupler_finalize(c));
  expect_error(ferry_coupler_enddef(c), FERRY_ERR_STATE, "ferry_coupler_enddef: only allowed before enddef",
               "enddef after finalize");
  CHECK_OK(ferry_coupler_destroy(&c));
  CHECK(c == NULL, "destroy did not reset the handle");

  ferry_layout_destroy(&atm_layout);
  ferry_layout_destroy(&ocn_layout);
  free(atm_ids);
  free(ocn_ids);
  free(t_out);
  free(lev_out);
  free(n_out);
  free(t_in);
  free(lev_in);
  free(n_in);
}

static void test_argument_errors(void) {
  const Roles who = roles();
  char path[512];
  run_config("run.yaml", kExchanges, path, sizeof path);

  int id = -1;
  double v = 0.0;
  expect_error(ferry_coupler_put(NULL, 0, 0.0, &v, NULL), FERRY_ERR_ARG,
               "ferry_coupler_put: coupler is NULL", "NULL coupler");
  expect_error(ferry_coupler_create(MPI_COMM_WORLD, 1, NULL, path, NULL), FERRY_ERR_ARG,
               "ferry_coupler_create: output pointer is NULL", "NULL output");

  const char* names[2] = {who.atm ? "atm" : "ocn", "ocn"};
  ferry_coupler* c = NULL;
  CHECK_OK(ferry_coupler_create(MPI_COMM_WORLD, who.atm && who.ocn ? 2 : 1, names, path, &c));
  if (c == NULL) return;
  const char* mine = names[0];
  const char* other = strcmp(mine, "atm") == 0 ? "ocn" : "atm";
  if (g_size > 1)
    expect_error(ferry_coupler_def_grid(c, other, "g", NX, NY, &id), FERRY_ERR_ARG,
                 "ferry_coupler_def_grid: rank", "grid of a component not run here");
  expect_error(ferry_coupler_def_grid(c, mine, "g", 0, NY, &id), FERRY_ERR_ARG,
               "must have nx, ny >= 1; got 0 x 5", "empty grid");
  int grid = -1, part = -1;
  ferry_layout* layout = NULL;
  ferry_layout* wrong = NULL;
  CHECK_OK(ferry_coupler_def_grid(c, mine, "g", NX, NY, &grid));
  CHECK_OK(ferry_layout_create_block(N, g_size, g_rank, &layout));
  CHECK_OK(ferry_layout_create_block(N + 1, g_size, g_rank, &wrong));
  expect_error(ferry_coupler_def_partition(c, grid, "p", wrong, &part), FERRY_ERR_ARG,
               "has a layout over 61 ids but grid \"g\" has 60 points", "layout of another size");
  expect_error(ferry_coupler_def_partition(c, grid, "p", NULL, &part), FERRY_ERR_ARG,
               "ferry_coupler_def_partition: layout is NULL", "NULL layout");
  CHECK_OK(ferry_coupler_def_partition(c, grid, "p", layout, &part));
  expect_error(ferry_coupler_def_field(c, part, "f", 5, FERRY_TYPE_FLOAT64, 1, &id), FERRY_ERR_ARG,
               "unknown direction 5", "bad direction");
  expect_error(ferry_coupler_def_field(c, part, "f", FERRY_FIELD_IN, 42, 1, &id), FERRY_ERR_ARG,
               "unknown type 42", "bad type");
  expect_error(ferry_coupler_def_field(c, part, "f", FERRY_FIELD_IN, FERRY_TYPE_INT64, 0, &id),
               FERRY_ERR_ARG, "needs bundle >= 1; got 0", "zero bundle");
  expect_error(ferry_coupler_def_field(c, part, NULL, FERRY_FIELD_IN, FERRY_TYPE_INT64, 1, &id),
               FERRY_ERR_ARG, "field name is NULL", "NULL name");
  expect_error(ferry_coupler_set_corners(c, part, 2, &v, &v), FERRY_ERR_ARG,
               "ferry_coupler_set_corners: a cell needs at least 3 corners; got 2", "two corners");
  expect_error(ferry_coupler_set_areas(c, part + 7, &v), FERRY_ERR_ARG,
               "was not returned by def_partition", "unknown partition");
  expect_error(ferry_coupler_partition_points(c, part + 7, NULL), FERRY_ERR_ARG,
               "ferry_coupler_partition_points", "NULL points");

  /* Collective: no rank declares the configured fields, so enddef fails on every
   * rank with the same code. */
  expect_error(ferry_coupler_enddef(c), FERRY_ERR_ARG, "does not declare the source field \"t_atm\"",
               "undeclared fields");
  CHECK_OK(ferry_coupler_destroy(&c));
  CHECK_OK(ferry_coupler_destroy(&c)); /* a NULL handle is fine */
  ferry_layout_destroy(&layout);
  ferry_layout_destroy(&wrong);
}

/* A time-series buffer from atm's field t (bands of rows) to ocn's t_in (columns).
 * Its source and target must run on disjoint ranks: on one rank enddef refuses it. */
enum { BUFFER_STEPS = 10, MAX_STEPS = 4 };

static double buffer_value(int64_t gid, int64_t step) { return 1000.0 * (double)gid + (double)step; }

static void test_buffers(void) {
  const Roles who = roles();
  char path[512];
  run_config("buffers.yaml",
             "buffers:\n"
             "  - name: history\n"
             "    source: {component: atm, field: t}\n"
             "    target: {component: ocn, field: t_in}\n"
             "    capacity: 3\n"
             "    mode: lossless\n",
             path, sizeof path);

  ferry_coupler* c = create_coupler(who, path);
  if (c == NULL) return;
  ferry_layout* layout = NULL;
  int grid = -1, part = -1, field = -1;
  if (who.atm) {
    CHECK_OK(ferry_coupler_def_grid(c, "atm", "agrid", NX, NY, &grid));
    CHECK_OK(ferry_layout_create_box(NX, NY, 1, who.atm_size, who.atm_rank, &layout));
    CHECK_OK(ferry_coupler_def_partition(c, grid, "rows", layout, &part));
    CHECK_OK(ferry_coupler_def_field(c, part, "t", FERRY_FIELD_OUT, FERRY_TYPE_FLOAT64, 1, &field));
  }
  if (who.ocn) {
    ferry_layout* columns = NULL;
    CHECK_OK(ferry_coupler_def_grid(c, "ocn", "ogrid", NX, NY, &grid));
    CHECK_OK(ferry_layout_create_box(NX, NY, who.ocn_size, 1, who.ocn_rank, &columns));
    CHECK_OK(ferry_coupler_def_partition(c, grid, "columns", columns, &part));
    CHECK_OK(ferry_coupler_def_field(c, part, "t_in", FERRY_FIELD_IN, FERRY_TYPE_FLOAT64, 1, &field));
    if (layout == NULL) layout = columns;
    else ferry_layout_destroy(&columns);
  }
  if (g_size == 1) {
    expect_error(ferry_coupler_enddef(c), FERRY_ERR_ARG,
                 "declare both the source field \"t\" of component \"atm\" and the target field "
                 "\"t_in\" of component \"ocn\"; a buffer's source and target run on disjoint ranks",
                 "buffer within one rank");
    ferry_coupler_destroy(&c);
    ferry_layout_destroy(&layout);
    return;
  }
  CHECK_OK(ferry_coupler_enddef(c));

  int64_t n = 0;
  int64_t* ids = layout_ids(layout, &n);
  int64_t values = -1;
  int type = -1;
  CHECK_OK(ferry_coupler_buffer_values(c, "history", &values));
  CHECK_OK(ferry_coupler_buffer_type(c, "history", &type));
  CHECK(values == n, "buffer_values gives %lld, expected the partition's %lld points",
        (long long)values, (long long)n);
  CHECK(type == FERRY_TYPE_FLOAT64, "buffer_type gives %d, expected %d", type, FERRY_TYPE_FLOAT64);
  expect_error(ferry_coupler_buffer_values(c, "histroy", &values), FERRY_ERR_ARG,
               "ferry_coupler_buffer_values: unknown buffer \"histroy\"; did you mean \"history\"?",
               "misspelt buffer");
  expect_error(ferry_coupler_load(c, NULL, ids, 0), FERRY_ERR_ARG,
               "ferry_coupler_load: buffer name is NULL", "NULL buffer name");

  double* data = malloc((size_t)(MAX_STEPS * n + 1) * sizeof *data);
  if (who.atm) {
    expect_error(ferry_coupler_read(c, "history", data, MAX_STEPS, NULL, NULL, NULL), FERRY_ERR_STATE,
                 "does not read buffer \"history\"; only the ranks that declare field \"t_in\"",
                 "read on a source rank");
    for (int64_t step = 0; step < BUFFER_STEPS; ++step) {
      for (int64_t i = 0; i < n; ++i) data[i] = buffer_value(ids[i], step);
      CHECK_OK(ferry_coupler_load(c, "history", data, step));
    }
    expect_error(ferry_coupler_load(c, "history", data, BUFFER_STEPS - 1), FERRY_ERR_ARG,
                 "strictly increase", "a step loaded twice");
  } else {
    expect_error(ferry_coupler_load(c, "history", data, 0), FERRY_ERR_STATE,
                 "ferry_coupler_load: rank", "load on a target rank");
    /* Collective over the target ranks: each fails alike, and the stream goes on. */
    expect_error(ferry_coupler_read(c, "history", NULL, MAX_STEPS, NULL, NULL, NULL), FERRY_ERR_ARG,
                 "out is NULL", "read into NULL");
    int64_t next = 0;
    while (next < BUFFER_STEPS) {
      int64_t first = -1, got = 0, lost = -1;
      int64_t steps[MAX_STEPS];
      CHECK_OK(ferry_coupler_read(c, "history", data, MAX_STEPS, &first, &got, &lost));
      if (got < 1 || got > MAX_STEPS) {
        CHECK(0, "read %lld steps, expected 1 to %d", (long long)got, MAX_STEPS);
        break;
      }
      CHECK(first == next && lost == 0, "read from step %lld with %lld lost, expected %lld and none",
            (long long)first, (long long)lost, (long long)next);
      CHECK_OK(ferry_coupler_read_steps(c, "history", MAX_STEPS, steps));
      for (int64_t s = 0; s < got; ++s) {
        CHECK(steps[s] == next + s, "step %lld of the read is %lld", (long long)s, (long long)steps[s]);
        for (int64_t i = 0; i < n; ++i)
          CHECK(data[s * n + i] == buffer_value(ids[i], next + s), "step %lld, id %lld: %g, expected %g",
                (long long)(next + s), (long long)ids[i], data[s * n + i], buffer_value(ids[i], next + s));
      }
      if (got > 1)
        expect_error(ferry_coupler_read_steps(c, "history", 1, steps), FERRY_ERR_ARG_SIZE,
                     "steps has room for 1 values, but the last read of buffer \"history\" returned",
                     "read_steps into a short array");
      next += got;
    }
    CHECK(next == BUFFER_STEPS, "read %lld steps, expected %d", (long long)next, BUFFER_STEPS);
  }
  CHECK_OK(ferry_coupler_finalize(c));
  expect_error(ferry_coupler_buffer_values(c, "history", &values), FERRY_ERR_STATE,
               "only allowed between enddef and finalize", "buffer_values after finalize");
  CHECK_OK(ferry_coupler_destroy(&c));
  ferry_layout_destroy(&layout);
  free(ids);
  free(data);
}

/* Collective errors of create: the same code on every rank. */
static void test_configuration_errors(void) {
  const char* names[1] = {"atm"};
  ferry_coupler* c = NULL;
  char path[512];
  char missing[600];
  snprintf(missing, sizeof missing, "%s/no_such_file.yaml", g_dir);
  expect_error(ferry_coupler_create(MPI_COMM_WORLD, 1, names, missing, &c), FERRY_ERR_IO,
               "cannot read the configuration file", "missing configuration");
  CHECK(c == NULL, "a failed create left a handle");

  write_config("typo.yaml",
               "version: 1\nrun: {length: 100}\nexchanges:\n"
               "  - source: {component: atm, field: a}\n"
               "    target: {component: ocn, field: b}\n"
               "    perod: 10\n",
               path, sizeof path);
  expect_error(ferry_coupler_create(MPI_COMM_WORLD, 1, names, path, &c), FERRY_ERR_ARG,
               "did you mean \"period\"", "misspelt key");
  expect_error(ferry_coupler_create(MPI_COMM_WORLD, 0, names, path, &c), FERRY_ERR_ARG,
               "names no component", "no component");
}

int main(int argc, char** argv) {
  start_checks(&argc, &argv);

  /* A fresh scratch directory made by rank 0 and known to every rank. */
  char dir[256] = "/tmp/ferry_capi_coupler_XXXXXX";
  if (g_rank == 0 && mkdtemp(dir) == NULL) dir[0] = '\0';
  MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
  g_dir = dir;
  CHECK(dir[0] != '\0', "cannot make a scratch directory");

  if (dir[0] != '\0') {
    test_run();
    test_argument_errors();
    test_buffers();
    test_configuration_errors();
  }

  return finish_checks();
}
