/* Global sums and conservation from C. A grid of 61 source points held by blocks by
 * all ranks but the last (when there are 3 or more, so one rank holds none) and a grid
 * of 37 destination points held by blocks in reverse rank order.
 *
 * - ferry_global_sums of terms that cancel (1e16, 1, -1e16, ...): REPROSUM gives the
 *   exact sum and GATHER the sum in ascending id order, bit for bit on every rank and
 *   rank count; LSUM8, LSUM16 and DDPDD are within rounding of it.
 * - ferry_conserve by each method, with masks, fractions and two components: areas
 *   are multiples of 1/8 and values of 1/4, so every integral is exact in double and
 *   the corrected values equal those computed here by ferry::conserve's formula, bit
 *   for bit, whatever the number of ranks.
 * - Error codes, six of them from a wrong argument on one rank only (NULL arrays, a
 *   NaN, counts that differ), which every rank must report alike. */
#include <ferry/conservation.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>

#include "capi_checks.h"

enum { SRC_SIZE = 61, DST_SIZE = 37, TERMS = 3, COMPONENTS = 2 };

/* Term j of point id: the first three cancel but for 1 in double; then quarters. */
static double term(int64_t id, int j) {
  if (j == 0 && id < 3) return id == 0 ? 1e16 : id == 1 ? 1.0 : -1e16;
  return 0.25 * (double)((id * (j + 3)) % 17) - 2.0;
}

static double src_area(int64_t id) { return 1.0 + 0.125 * (double)(id % 7); }
static double dst_area(int64_t id) { return 0.5 + 0.125 * (double)(id % 5); }
static double dst_frac(int64_t id) { return 0.25 * (double)(1 + id % 4); }
static int src_active(int64_t id) { return id % 9 != 4; }
static int dst_active(int64_t id) { return id % 6 != 1; }
static double src_field(int64_t id, int c) { return 0.25 * (double)((id + 5 * c) % 13) - 1.0; }
static double dst_field(int64_t id, int c) { return 0.25 * (double)((id + 3 * c) % 11) + 0.5; }

/* This rank's points of one grid, with its areas, fractions, masks and values. */
typedef struct {
  ferry_layout* layout;
  int64_t n;
  int64_t* ids;
  double *area, *frac, *values;
  int* mask;
} Grid;

static Grid make_grid(int is_src) {
  Grid g = {NULL, 0, NULL, NULL, NULL, NULL, NULL};
  if (is_src) {
    int holders = g_size >= 3 ? g_size - 1 : g_size;
    if (g_rank < holders)
      CHECK_OK(ferry_layout_create_block(SRC_SIZE, holders, g_rank, &g.layout));
    else
      CHECK_OK(ferry_layout_create_none(SRC_SIZE, &g.layout));
  } else {
    CHECK_OK(ferry_layout_create_block(DST_SIZE, g_size, g_size - 1 - g_rank, &g.layout));
  }
  CHECK_OK(ferry_layout_local_size(g.layout, &g.n));
  size_t n = (size_t)g.n + 1; /* never malloc(0) */
  g.ids = malloc(n * sizeof *g.ids);
  g.area = malloc(n * sizeof *g.area);
  g.frac = malloc(n * sizeof *g.frac);
  g.mask = malloc(n * sizeof *g.mask);
  g.values = malloc(n * COMPONENTS * sizeof *g.values);
  CHECK_OK(ferry_layout_get_ids(g.layout, g.ids));
  for (int64_t i = 0; i < g.n; ++i) {
    int64_t id = g.ids[i];
    g.area[i] = is_src ? src_area(id) : dst_area(id);
    g.frac[i] = is_src ? 1.0 : dst_frac(id);
    g.mask[i] = is_src ? src_active(id) : dst_active(id);
  }
  return g;
}

static void fill_values(Grid* g, int is_src) {
  for (int64_t i = 0; i < g->n; ++i)
    for (int c = 0; c < COMPONENTS; ++c)
      g->values[i * COMPONENTS + c] = is_src ? src_field(g->ids[i], c) : dst_field(g->ids[i], c);
}

static void free_grid(Grid* g) {
  CHECK_OK(ferry_layout_destroy(&g->layout));
  free(g->ids), free(g->area), free(g->frac), free(g->mask), free(g->values);
}

static void test_global_sums(void) {
  ferry_layout* blocks = NULL;
  /* Uneven blocks of SRC_SIZE ids; rank order reversed so rank 0 does not hold id 0. */
  CHECK_OK(ferry_layout_create_block(SRC_SIZE, g_size, g_size - 1 - g_rank, &blocks));
  int64_t n = 0;
  CHECK_OK(ferry_layout_local_size(blocks, &n));
  int64_t* ids = malloc(((size_t)n + 1) * sizeof *ids);
  double* values = malloc(((size_t)n + 1) * TERMS * sizeof *values);
  CHECK_OK(ferry_layout_get_ids(blocks, ids));
  for (int64_t i = 0; i < n; ++i)
    for (int j = 0; j < TERMS; ++j) values[i * TERMS + j] = term(ids[i], j);

  /* Expected: the exact sum (1e16 and -1e16 cancel, the rest are quarters) and the sum
   * in ascending id order, where 1e16 + 1 rounds to 1e16 and the 1 is lost. */
  double exact[TERMS], in_order[TERMS];
  for (int j = 0; j < TERMS; ++j) {
    exact[j] = j == 0 ? 1.0 : 0.0;
    in_order[j] = 0.0;
    for (int64_t id = 0; id < SRC_SIZE; ++id) {
      if (j != 0 || id >= 3) exact[j] += term(id, j);
      in_order[j] += term(id, j);
    }
  }
  CHECK(exact[0] != in_order[0], "the terms must make the order matter");

  for (int method = FERRY_SUM_GATHER; method <= FERRY_SUM_REPROSUM; ++method) {
    double sums[TERMS] = {-1, -1, -1};
    CHECK_OK(ferry_global_sums(MPI_COMM_WORLD, method, TERMS, n, values, ids, sums));
    for (int j = 0; j < TERMS; ++j) {
      if (method == FERRY_SUM_REPROSUM)
        CHECK(sums[j] == exact[j], "reprosum: sum %d is %.17g, exact %.17g", j, sums[j],
              exact[j]);
      else if (method == FERRY_SUM_GATHER)
        CHECK(sums[j] == in_order[j], "gather: sum %d is %.17g, in id order %.17g", j, sums[j],
              in_order[j]);
      else /* lsum8 may lose the 1 next to 1e16 (an ulp of 2e16) like gather */
        CHECK(fabs(sums[j] - exact[j]) <= 4.0, "method %d: sum %d is %.17g, exact %.17g",
              method, j, sums[j], exact[j]);
    }
  }

  double sums[TERMS];
  expect_error(ferry_global_sums(MPI_COMM_WORLD, 5, TERMS, n, values, ids, sums), FERRY_ERR_ARG,
               "unknown method 5", "unknown method");
  expect_error(ferry_global_sums(MPI_COMM_WORLD, FERRY_SUM_LSUM8, 0, n, values, ids, sums),
               FERRY_ERR_ARG, "count is 0", "no sums");
  /* One rank only: values NULL, then ids NULL for gather, then a NaN for reprosum. */
  int last = g_rank == g_size - 1 && n > 0;
  expect_error(ferry_global_sums(MPI_COMM_WORLD, FERRY_SUM_LSUM8, TERMS, n,
                                 last ? NULL : values, ids, sums),
               FERRY_ERR_ARG, "values is NULL", "NULL values on one rank");
  expect_error(ferry_global_sums(MPI_COMM_WORLD, FERRY_SUM_GATHER, TERMS, n, values,
                                 last ? NULL : ids, sums),
               FERRY_ERR_ARG, "needs them", "NULL ids with gather on one rank");
  if (g_size > 1) {
    expect_error(ferry_global_sums(MPI_COMM_WORLD, FERRY_SUM_LSUM8,
                                   g_rank == g_size - 1 ? TERMS - 1 : TERMS, n, values, ids, sums),
                 FERRY_ERR_ARG, "the ranks pass different count (from 2 to 3)",
                 "count differs on one rank");
    expect_error(ferry_global_sums(MPI_COMM_WORLD,
                                   g_rank == g_size - 1 ? FERRY_SUM_REPROSUM : FERRY_SUM_LSUM8,
                                   TERMS, n, values, ids, sums),
                 FERRY_ERR_ARG, "the ranks pass different method (from lsum8 to reprosum)",
                 "method differs on one rank");
  }
  if (last) values[0] = NAN;
  expect_error(ferry_global_sums(MPI_COMM_WORLD, FERRY_SUM_REPROSUM, TERMS, n, values, ids, sums),
               FERRY_ERR_ARG, "needs finite terms", "NaN on one rank with reprosum");
  free(ids), free(values);
  CHECK_OK(ferry_layout_destroy(&blocks));
}

/* ferry::conserve's formula, serially over the whole grids: the integrals of one
 * component (S[c]) and the weight (W) over the active points of a grid. */
static void integrals(int is_src, int basin, double* s, double* w) {
  int64_t size = is_src ? SRC_SIZE : DST_SIZE;
  for (int c = 0; c < COMPONENTS; ++c) s[c] = 0.0;
  *w = 0.0;
  for (int64_t id = 0; id < size; ++id) {
    if (!(is_src ? src_active(id) : dst_active(id))) continue;
    double weight = is_src ? src_area(id) : dst_area(id) * (basin ? dst_frac(id) : 1.0);
    for (int c = 0; c < COMPONENTS; ++c)
      s[c] += weight * (is_src ? src_field(id, c) : dst_field(id, c));
    *w += weight;
  }
}

static double expected(int method, int64_t id, int c) {
  double value = dst_field(id, c);
  if (!dst_active(id)) return value;
  int basin = method == FERRY_CONSERVE_BASIN_BALANCE || method == FERRY_CONSERVE_BASIN_POSITIVE;
  int scale = method == FERRY_CONSERVE_GLOBAL_POSITIVE || method == FERRY_CONSERVE_BASIN_POSITIVE;
  double s[COMPONENTS], d[COMPONENTS], w_src, w_dst;
  integrals(1, basin, s, &w_src);
  integrals(0, basin, d, &w_dst);
  double target = s[c] * (basin ? w_dst / w_src : 1.0);
  return scale ? value * (target / d[c]) : value + (target - d[c]) / w_dst;
}

static void test_conserve(void) {
  Grid src = make_grid(1), dst = make_grid(0);
  fill_values(&src, 1);
  for (int method = FERRY_CONSERVE_GLOBAL; method <= FERRY_CONSERVE_BASIN_POSITIVE; ++method)
    for (int sum = FERRY_SUM_GATHER; sum <= FERRY_SUM_REPROSUM; sum += FERRY_SUM_REPROSUM) {
      fill_values(&dst, 0);
      CHECK_OK(ferry_conserve(MPI_COMM_WORLD, method, sum, COMPONENTS, src.layout, src.area,
                              NULL, src.mask, src.values, dst.layout, dst.area, dst.frac,
                              dst.mask, dst.values));
      for (int64_t i = 0; i < dst.n; ++i)
        for (int c = 0; c < COMPONENTS; ++c) {
          double want = expected(method, dst.ids[i], c);
          CHECK(dst.values[i * COMPONENTS + c] == want,
                "method %d, sum %d: point %lld component %d is %.17g, expected %.17g", method,
                sum, (long long)dst.ids[i], c, dst.values[i * COMPONENTS + c], want);
        }
    }

  /* Without fractions and masks, GLOBAL makes the destination integral the source's. */
  fill_values(&dst, 0);
  CHECK_OK(ferry_conserve(MPI_COMM_WORLD, FERRY_CONSERVE_GLOBAL, FERRY_SUM_REPROSUM, COMPONENTS,
                          src.layout, src.area, NULL, NULL, src.values, dst.layout, dst.area,
                          NULL, NULL, dst.values));
  double* terms = malloc(((size_t)src.n + (size_t)dst.n + 1) * COMPONENTS * sizeof *terms);
  double integral[2][COMPONENTS];
  for (int side = 0; side < 2; ++side) {
    Grid* g = side == 0 ? &src : &dst;
    for (int64_t i = 0; i < g->n * COMPONENTS; ++i)
      terms[i] = g->area[i / COMPONENTS] * g->values[i];
    CHECK_OK(ferry_global_sums(MPI_COMM_WORLD, FERRY_SUM_REPROSUM, COMPONENTS, g->n, terms,
                               g->ids, integral[side]));
  }
  for (int c = 0; c < COMPONENTS; ++c)
    CHECK(fabs(integral[1][c] - integral[0][c]) <= 1e-13 * fabs(integral[0][c]),
          "component %d: destination integral %.17g, source %.17g", c, integral[1][c],
          integral[0][c]);
  free(terms);

  expect_error(ferry_conserve(MPI_COMM_WORLD, 4, FERRY_SUM_REPROSUM, 1, src.layout, src.area,
                              NULL, NULL, src.values, dst.layout, dst.area, NULL, NULL,
                              dst.values),
               FERRY_ERR_ARG, "unknown method 4", "unknown method");
  expect_error(ferry_conserve(MPI_COMM_WORLD, FERRY_CONSERVE_GLOBAL, -1, 1, src.layout,
                              src.area, NULL, NULL, src.values, dst.layout, dst.area, NULL,
                              NULL, dst.values),
               FERRY_ERR_ARG, "unknown sum -1", "unknown sum");
  expect_error(ferry_conserve(MPI_COMM_WORLD, FERRY_CONSERVE_GLOBAL, FERRY_SUM_REPROSUM, 0,
                              src.layout, src.area, NULL, NULL, src.values, dst.layout, dst.area,
                              NULL, NULL, dst.values),
               FERRY_ERR_ARG, "components is 0", "no components");
  if (g_size > 1)
    expect_error(ferry_conserve(MPI_COMM_WORLD, FERRY_CONSERVE_GLOBAL, FERRY_SUM_REPROSUM,
                                g_rank == 0 ? 1 : COMPONENTS, src.layout, src.area, NULL, NULL,
                                src.values, dst.layout, dst.area, NULL, NULL, dst.values),
                 FERRY_ERR_ARG, "the ranks pass different components (from 1 to 2)",
                 "components differ on one rank");
  int method = g_rank == 0 ? FERRY_CONSERVE_GLOBAL_POSITIVE : FERRY_CONSERVE_GLOBAL;
  if (g_size > 1)
    expect_error(ferry_conserve(MPI_COMM_WORLD, method, FERRY_SUM_REPROSUM, 1, src.layout,
                                src.area, NULL, NULL, src.values, dst.layout, dst.area, NULL,
                                NULL, dst.values),
                 FERRY_ERR_ARG, "the ranks pass different method (from GLOBAL to GLBPOS)",
                 "method differs on one rank");
  /* Every rank holds destination points: the last one forgets its areas. */
  expect_error(ferry_conserve(MPI_COMM_WORLD, FERRY_CONSERVE_GLOBAL, FERRY_SUM_REPROSUM, 1,
                              src.layout, src.area, NULL, NULL, src.values, dst.layout,
                              g_rank == g_size - 1 ? NULL : dst.area, NULL, NULL, dst.values),
               FERRY_ERR_ARG, "dst_area is NULL", "NULL areas on one rank");
  free_grid(&src);
  free_grid(&dst);
}

int main(int argc, char** argv) {
  start_checks(&argc, &argv);
  test_global_sums();
  test_conserve();
  return finish_checks();
}
