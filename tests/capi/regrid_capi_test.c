/* The regridding C API from C. A source grid of 12 x 6 points (no pole points, so no
 * two points coincide) held round robin by all ranks but the last (when there are 3
 * or more), and a destination grid of 8 x 5 points held by blocks in reverse rank
 * order, rank 0 also asking for destination point 0 (two ranks want it).
 *
 * - Weights given as links by a formula (row r: source points (3 r + j) mod 72,
 *   weights (j + 1) / 6, j = 0, 1, 2), applied with map_on src and dst: every value
 *   of a float64 field and a float32 field of 2 components equals the links summed in
 *   order in double, bit for bit; mode sum agrees to rounding. The same links passed
 *   without orders, in file order split anywhere, give the same matrix.
 * - A SCRIP write and read gives the same matrix bit for bit.
 * - Nearest neighbour (k = 1) between identical points copies every value; bilinear
 *   and conservative weights keep a constant; a destination mask gets the fill value.
 * - Conservative weights give the remap both grids' cell areas, and ferry_conserve
 *   with them restores the source's integral of a perturbed remapped field.
 * - Error codes, two of them from a wrong argument on one rank only, which every rank
 *   must report alike.
 * Run with --engine=NAME; every rank returns the same exit code. */
#include <ferry/conservation.h>
#include <ferry/regrid.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_checks.h"

enum { SRC_NX = 12, SRC_NY = 6, SRC_SIZE = SRC_NX * SRC_NY, DST_NX = 8, DST_NY = 5 };
enum { DST_SIZE = DST_NX * DST_NY, LINKS_PER_ROW = 3, COMPONENTS = 2 };

static const char* g_engine = NULL; /* --engine=NAME */

static double src_value(int64_t point) { return 1000.0 * (double)point + 0.5; }
static float src_value32(int64_t point, int c) { return (float)point + 0.25f * (float)c; }
static int64_t link_col(int64_t row, int j) { return (3 * row + j) % SRC_SIZE; }
static double link_weight(int j) { return (j + 1) / 6.0; }

/* The layouts of the header comment, and each grid's coordinates at this rank's points. */
typedef struct {
  ferry_layout* layout;
  int64_t n;
  int64_t* ids;
  double *lon, *lat;
} Points;

static Points make_points(ferry_layout* layout, int nx, double lon0, double dlon, double lat0,
                          double dlat) {
  Points p = {layout, 0, NULL, NULL, NULL};
  CHECK_OK(ferry_layout_local_size(layout, &p.n));
  size_t n = (size_t)p.n + 1; /* never malloc(0) */
  p.ids = malloc(n * sizeof *p.ids);
  p.lon = malloc(n * sizeof *p.lon);
  p.lat = malloc(n * sizeof *p.lat);
  CHECK_OK(ferry_layout_get_ids(layout, p.ids));
  for (int64_t i = 0; i < p.n; ++i) {
    p.lon[i] = lon0 + dlon * (double)(p.ids[i] % nx);
    p.lat[i] = lat0 + dlat * (double)(p.ids[i] / nx);
  }
  return p;
}

static void free_points(Points* p) {
  CHECK_OK(ferry_layout_destroy(&p->layout));
  free(p->ids);
  free(p->lon);
  free(p->lat);
}

static Points source_points(void) {
  int holders = g_size >= 3 ? g_size - 1 : g_size;
  ferry_layout* layout = NULL;
  if (g_rank < holders)
    CHECK_OK(ferry_layout_create_round_robin(SRC_SIZE, holders, g_rank, &layout));
  else
    CHECK_OK(ferry_layout_create_none(SRC_SIZE, &layout));
  return make_points(layout, SRC_NX, 15.0, 30.0, -75.0, 30.0);
}

static Points destination_points(void) {
  int64_t per = (DST_SIZE + g_size - 1) / g_size;
  int64_t first = per * (g_size - 1 - g_rank);
  int64_t last = first + per < DST_SIZE ? first + per : DST_SIZE;
  int64_t ids[DST_SIZE + 1];
  int64_t n = 0;
  if (g_rank == 0 && first > 0) ids[n++] = 0;
  for (int64_t id = first; id < last; ++id) ids[n++] = id;
  ferry_layout* layout = NULL;
  CHECK_OK(ferry_layout_create_points(DST_SIZE, n, ids, &layout));
  return make_points(layout, DST_NX, 22.5, 45.0, -60.0, 30.0);
}

/* The formula's links: those of rows r with r mod P = rank, with orders j. */
static ferry_weights* formula_weights(void) {
  int64_t rows[DST_SIZE * LINKS_PER_ROW], cols[DST_SIZE * LINKS_PER_ROW];
  int64_t order[DST_SIZE * LINKS_PER_ROW];
  double values[DST_SIZE * LINKS_PER_ROW];
  int64_t n = 0;
  for (int64_t r = g_rank; r < DST_SIZE; r += g_size)
    for (int j = 0; j < LINKS_PER_ROW; ++j, ++n) {
      rows[n] = r;
      cols[n] = link_col(r, j);
      values[n] = link_weight(j);
      order[n] = j;
    }
  ferry_weights* w = NULL;
  CHECK_OK(ferry_weights_from_links(MPI_COMM_WORLD, SRC_SIZE, DST_SIZE, n, rows, cols, values,
                                    order, &w));
  return w;
}

/* The same links in file order (row by row, j ascending), without orders: rank p
 * passes the p-th of P contiguous slices of that list. */
static ferry_weights* file_order_weights(void) {
  enum { LINKS = DST_SIZE * LINKS_PER_ROW };
  int64_t first = LINKS * g_rank / g_size, last = LINKS * (g_rank + 1) / g_size;
  int64_t rows[LINKS], cols[LINKS];
  double values[LINKS];
  for (int64_t k = first; k < last; ++k) {
    rows[k - first] = k / LINKS_PER_ROW;
    cols[k - first] = link_col(k / LINKS_PER_ROW, (int)(k % LINKS_PER_ROW));
    values[k - first] = link_weight((int)(k % LINKS_PER_ROW));
  }
  ferry_weights* w = NULL;
  CHECK_OK(ferry_weights_from_links(MPI_COMM_WORLD, SRC_SIZE, DST_SIZE, last - first, rows, cols,
                                    values, NULL, &w));
  return w;
}

/* This rank's rows of two matrices are the same, bit for bit. */
static void expect_same_matrix(const ferry_weights* a, const ferry_weights* b, const char* what) {
  int64_t sizes_a[3], sizes_b[3], rows_a[3], rows_b[3];
  CHECK_OK(ferry_weights_get_sizes(a, &sizes_a[0], &sizes_a[1], &sizes_a[2]));
  CHECK_OK(ferry_weights_get_sizes(b, &sizes_b[0], &sizes_b[1], &sizes_b[2]));
  CHECK(memcmp(sizes_a, sizes_b, sizeof sizes_a) == 0, "%s: sizes differ", what);
  CHECK(sizes_a[0] == SRC_SIZE && sizes_a[1] == DST_SIZE &&
            sizes_a[2] == DST_SIZE * LINKS_PER_ROW,
        "%s: sizes %lld, %lld, %lld", what, (long long)sizes_a[0], (long long)sizes_a[1],
        (long long)sizes_a[2]);
  CHECK_OK(ferry_weights_get_local_rows(a, &rows_a[0], &rows_a[1], &rows_a[2]));
  CHECK_OK(ferry_weights_get_local_rows(b, &rows_b[0], &rows_b[1], &rows_b[2]));
  CHECK(memcmp(rows_a, rows_b, sizeof rows_a) == 0, "%s: local rows differ", what);
  size_t rows = (size_t)rows_a[1] + 1, links = (size_t)rows_a[2] + 1;
  int64_t *start_a = malloc(rows * sizeof(int64_t)), *start_b = malloc(rows * sizeof(int64_t));
  int64_t *cols_a = malloc(links * sizeof(int64_t)), *cols_b = malloc(links * sizeof(int64_t));
  double *values_a = malloc(links * sizeof(double)), *values_b = malloc(links * sizeof(double));
  CHECK_OK(ferry_weights_get_links(a, start_a, cols_a, values_a));
  CHECK_OK(ferry_weights_get_links(b, start_b, cols_b, values_b));
  links -= 1;
  CHECK(memcmp(start_a, start_b, rows * sizeof(int64_t)) == 0 &&
            memcmp(cols_a, cols_b, links * sizeof(int64_t)) == 0 &&
            memcmp(values_a, values_b, links * sizeof(double)) == 0,
        "%s: links differ", what);
  /* The formula, row by row: links in order j. */
  for (int64_t i = 0; i < rows_a[1]; ++i)
    for (int j = 0; j < LINKS_PER_ROW; ++j) {
      int64_t k = start_a[i] + j, row = rows_a[0] + i;
      CHECK(cols_a[k] == link_col(row, j) && values_a[k] == link_weight(j),
            "%s: row %lld link %d: col %lld, weight %.17g", what, (long long)row, j,
            (long long)cols_a[k], values_a[k]);
    }
  free(start_a), free(start_b), free(cols_a), free(cols_b), free(values_a), free(values_b);
}

/* A remap of a float64 and a float32 (2 components) field with the given settings. */
static ferry_remap* make_remap(const ferry_weights* w, const Points* src, const Points* dst,
                               int map_on, int mode, const int* dst_mask) {
  ferry_remap* remap = NULL;
  int index = -1;
  CHECK_OK(ferry_remap_create(MPI_COMM_WORLD, w, src->layout, dst->layout, g_engine, &remap));
  CHECK_OK(ferry_remap_add_field(remap, FERRY_TYPE_FLOAT64, 1, &index));
  CHECK(index == 0, "first field index %d", index);
  CHECK_OK(ferry_remap_add_field(remap, FERRY_TYPE_FLOAT32, COMPONENTS, &index));
  CHECK(index == 1, "second field index %d", index);
  CHECK_OK(ferry_remap_set_map_on(remap, map_on));
  CHECK_OK(ferry_remap_set_mode(remap, mode));
  CHECK_OK(ferry_remap_set_fill_value(remap, -999.0));
  if (dst_mask) CHECK_OK(ferry_remap_set_dst_mask(remap, dst_mask));
  CHECK_OK(ferry_remap_setup(remap));
  return remap;
}

/* Applies the formula's weights and checks every destination value: exactly the
 * links summed in order in double (bfb), or to rounding (sum). Masked points: fill. */
static void check_formula_remap(const ferry_weights* w, const Points* src, const Points* dst,
                                int map_on, int mode, const int* dst_mask, int split_phase) {
  ferry_remap* remap = make_remap(w, src, dst, map_on, mode, dst_mask);
  size_t ns = (size_t)src->n + 1, nd = (size_t)dst->n + 1;
  double* in64 = malloc(ns * sizeof *in64);
  float* in32 = malloc(ns * COMPONENTS * sizeof *in32);
  double* out64 = malloc(nd * sizeof *out64);
  float* out32 = malloc(nd * COMPONENTS * sizeof *out32);
  for (int64_t i = 0; i < src->n; ++i) {
    in64[i] = src_value(src->ids[i]);
    for (int c = 0; c < COMPONENTS; ++c) in32[i * COMPONENTS + c] = src_value32(src->ids[i], c);
  }
  const void* in[2] = {in64, in32};
  void* out[2] = {out64, out32};
  if (split_phase) {
    CHECK_OK(ferry_remap_begin(remap, in, out));
    CHECK_OK(ferry_remap_end(remap));
  } else {
    CHECK_OK(ferry_remap_apply(remap, in, out));
  }
  for (int64_t i = 0; i < dst->n; ++i) {
    int64_t row = dst->ids[i];
    double expected = 0, expected32[COMPONENTS] = {0, 0};
    for (int j = 0; j < LINKS_PER_ROW; ++j) {
      expected += link_weight(j) * src_value(link_col(row, j));
      for (int c = 0; c < COMPONENTS; ++c)
        expected32[c] += link_weight(j) * (double)src_value32(link_col(row, j), c);
    }
    if (dst_mask && dst_mask[i]) expected = expected32[0] = expected32[1] = -999.0;
    if (mode == FERRY_REMAP_BFB)
      CHECK(out64[i] == expected, "map_on %d: point %lld: %.17g, expected %.17g", map_on,
            (long long)row, out64[i], expected);
    else
      CHECK(fabs(out64[i] - expected) <= 1e-12 * fabs(expected), "sum: point %lld: %.17g vs %.17g",
            (long long)row, out64[i], expected);
    for (int c = 0; c < COMPONENTS; ++c)
      CHECK(out32[i * COMPONENTS + c] == (float)expected32[c] || mode != FERRY_REMAP_BFB,
            "map_on %d: point %lld component %d: %.9g, expected %.9g", map_on, (long long)row,
            c, out32[i * COMPONENTS + c], (float)expected32[c]);
  }
  int64_t messages = -1, bytes = -1;
  CHECK_OK(ferry_remap_get_traffic(remap, &messages, &bytes));
  CHECK(messages >= 0 && bytes >= 0, "traffic %lld messages, %lld bytes", (long long)messages,
        (long long)bytes);
  free(in64), free(in32), free(out64), free(out32);
  CHECK_OK(ferry_remap_destroy(&remap));
  CHECK(remap == NULL, "destroy left the handle");
}

static void test_links_and_files(const Points* src, const Points* dst) {
  ferry_weights* w = formula_weights();
  ferry_weights* unordered = file_order_weights();
  expect_same_matrix(w, unordered, "links without orders");
  CHECK_OK(ferry_weights_destroy(&unordered));

  check_formula_remap(w, src, dst, FERRY_MAP_ON_DST, FERRY_REMAP_BFB, NULL, 0);
  check_formula_remap(w, src, dst, FERRY_MAP_ON_SRC, FERRY_REMAP_BFB, NULL, 1);
  check_formula_remap(w, src, dst, FERRY_MAP_ON_SRC, FERRY_REMAP_SUM, NULL, 0);
  int* mask = malloc(((size_t)dst->n + 1) * sizeof *mask);
  for (int64_t i = 0; i < dst->n; ++i) mask[i] = dst->ids[i] % 5 == 0;
  check_formula_remap(w, src, dst, FERRY_MAP_ON_DST, FERRY_REMAP_BFB, mask, 0);
  free(mask);

  char path[64];
  snprintf(path, sizeof path, "regrid_capi_test_np%d_%s.nc", g_size, g_engine);
  CHECK_OK(ferry_weights_write_scrip(MPI_COMM_WORLD, w, path));
  ferry_weights* back = NULL;
  CHECK_OK(ferry_weights_read(MPI_COMM_WORLD, path, &back));
  expect_same_matrix(w, back, "SCRIP write and read");
  const char* method = NULL;
  CHECK_OK(ferry_weights_get_method(back, &method));
  CHECK(method != NULL, "no method");
  CHECK_OK(ferry_weights_destroy(&back));
  MPI_Barrier(MPI_COMM_WORLD);
  if (g_rank == 0) remove(path);
  CHECK_OK(ferry_weights_destroy(&w));
  CHECK(w == NULL, "destroy left the handle");
}

/* Remaps one float64 field of src_value (or of 1 when constant) with w; out has dst->n. */
static void remap_values(const ferry_weights* w, const Points* src, const Points* dst,
                         int constant, double* out) {
  ferry_remap* remap = NULL;
  CHECK_OK(ferry_remap_create(MPI_COMM_WORLD, w, src->layout, dst->layout, g_engine, &remap));
  CHECK_OK(ferry_remap_set_fill_value(remap, -999.0));
  CHECK_OK(ferry_remap_setup(remap)); /* no field added: one float64 value per point */
  double* in = malloc(((size_t)src->n + 1) * sizeof *in);
  for (int64_t i = 0; i < src->n; ++i) in[i] = constant ? 1.0 : src_value(src->ids[i]);
  const void* in_fields[1] = {in};
  void* out_fields[1] = {out};
  CHECK_OK(ferry_remap_apply(remap, in_fields, out_fields));
  free(in);
  CHECK_OK(ferry_remap_destroy(&remap));
}

static void test_online_weights(const Points* src) {
  /* Nearest neighbour onto the source points themselves, held by blocks. */
  ferry_layout* blocks = NULL;
  CHECK_OK(ferry_layout_create_block(SRC_SIZE, g_size, g_rank, &blocks));
  Points same = make_points(blocks, SRC_NX, 15.0, 30.0, -75.0, 30.0);
  /* Weights computed from grids take each point once: the destination by blocks. */
  CHECK_OK(ferry_layout_create_block(DST_SIZE, g_size, g_rank, &blocks));
  Points dst = make_points(blocks, DST_NX, 22.5, 45.0, -60.0, 30.0);
  ferry_weights* w = NULL;
  CHECK_OK(ferry_weights_nearest_neighbour(MPI_COMM_WORLD, src->layout, src->lon, src->lat, NULL,
                                           same.layout, same.lon, same.lat, NULL, 1,
                                           FERRY_WEIGHTING_INVERSE_DISTANCE, 0.1, &w));
  double* out = malloc(((size_t)same.n + (size_t)dst.n + 1) * sizeof *out);
  remap_values(w, src, &same, 0, out);
  for (int64_t i = 0; i < same.n; ++i)
    CHECK(out[i] == src_value(same.ids[i]), "nearest: point %lld: %.17g",
          (long long)same.ids[i], out[i]);
  CHECK_OK(ferry_weights_destroy(&w));
  free_points(&same);

  /* Bilinear onto destination points inside the source rows: a constant stays. */
  CHECK_OK(ferry_weights_bilinear(MPI_COMM_WORLD, src->layout, src->lon, src->lat, NULL,
                                  dst.layout, dst.lon, dst.lat, NULL, SRC_NX, 1, &w));
  remap_values(w, src, &dst, 1, out);
  for (int64_t i = 0; i < dst.n; ++i)
    CHECK(fabs(out[i] - 1.0) <= 1e-13, "bilinear: point %lld: %.17g", (long long)dst.ids[i],
          out[i]);
  CHECK_OK(ferry_weights_destroy(&w));
  free(out);
  free_points(&dst);
}

/* The corners of this rank's cells of an nx x ny longitude-latitude grid of the globe. */
static void cell_corners(const ferry_layout* layout, int nx, int ny, double* lon, double* lat) {
  int64_t n = 0;
  CHECK_OK(ferry_layout_local_size(layout, &n));
  int64_t* ids = malloc(((size_t)n + 1) * sizeof *ids);
  CHECK_OK(ferry_layout_get_ids(layout, ids));
  for (int64_t k = 0; k < n; ++k) {
    double west = 360.0 / nx * (double)(ids[k] % nx), east = west + 360.0 / nx;
    double south = -90.0 + 180.0 / ny * (double)(ids[k] / nx), north = south + 180.0 / ny;
    double corner_lon[4] = {west, east, east, west}, corner_lat[4] = {south, south, north, north};
    memcpy(lon + 4 * k, corner_lon, sizeof corner_lon);
    memcpy(lat + 4 * k, corner_lat, sizeof corner_lat);
  }
  free(ids);
}

/* The area of cell id of an nx x ny longitude-latitude grid on the unit sphere. */
static double cell_area(int64_t id, int nx, int ny) {
  const double pi = 3.14159265358979323846, dlat = pi / ny;
  double south = -pi / 2 + dlat * (double)(id / nx);
  return 2 * pi / nx * (sin(south + dlat) - sin(south));
}

/* Conservative weights carry both grids' areas, fractions and masks. A remapped
 * field, shifted so it no longer conserves, regains the source's integral with
 * ferry_conserve and the areas the remap gives. dst: cells of an 8 x 4 grid. */
static void test_conserve_remapped(const ferry_weights* w, const Points* src, const Points* dst,
                                   double* out) {
  ferry_remap* remap = NULL;
  CHECK_OK(ferry_remap_create(MPI_COMM_WORLD, w, src->layout, dst->layout, g_engine, &remap));
  int present = -1;
  expect_error(ferry_remap_get_point_data(remap, FERRY_GRID_SRC, NULL, NULL, NULL, &present),
               FERRY_ERR_STATE, "not set up", "point data before setup");
  CHECK_OK(ferry_remap_setup(remap));
  expect_error(ferry_remap_get_point_data(remap, 2, NULL, NULL, NULL, &present), FERRY_ERR_ARG,
               "unknown grid 2", "unknown grid");
  double* area[2] = {malloc(((size_t)src->n + 1) * sizeof(double)),
                     malloc(((size_t)dst->n + 1) * sizeof(double))};
  double* frac = malloc(((size_t)dst->n + 1) * sizeof *frac);
  int* mask = malloc(((size_t)dst->n + 1) * sizeof *mask);
  CHECK_OK(ferry_remap_get_point_data(remap, FERRY_GRID_SRC, area[0], NULL, NULL, &present));
  CHECK(present == (FERRY_POINT_AREA | FERRY_POINT_FRAC | FERRY_POINT_MASK), "present %d",
        present);
  CHECK_OK(ferry_remap_get_point_data(remap, FERRY_GRID_DST, area[1], frac, mask, NULL));
  for (int64_t i = 0; i < src->n; ++i) {
    double want = cell_area(src->ids[i], SRC_NX, SRC_NY);
    CHECK(fabs(area[0][i] - want) <= 1e-12 * want, "source cell %lld: area %.17g, expected %.17g",
          (long long)src->ids[i], area[0][i], want);
  }
  for (int64_t i = 0; i < dst->n; ++i) {
    double want = cell_area(dst->ids[i], 8, 4);
    CHECK(fabs(area[1][i] - want) <= 1e-12 * want && fabs(frac[i] - 1.0) <= 1e-12 && mask[i] == 1,
          "destination cell %lld: area %.17g (expected %.17g), frac %.17g, mask %d",
          (long long)dst->ids[i], area[1][i], want, frac[i], mask[i]);
  }

  double* in = malloc(((size_t)src->n + 1) * sizeof *in);
  for (int64_t i = 0; i < src->n; ++i) in[i] = src_value(src->ids[i]);
  const void* in_fields[1] = {in};
  void* out_fields[1] = {out};
  CHECK_OK(ferry_remap_apply(remap, in_fields, out_fields));
  for (int64_t i = 0; i < dst->n; ++i) out[i] += 1.0;
  CHECK_OK(ferry_conserve(MPI_COMM_WORLD, FERRY_CONSERVE_GLOBAL, FERRY_SUM_REPROSUM, 1,
                          src->layout, area[0], NULL, NULL, in, dst->layout, area[1], NULL, NULL,
                          out));
  double integral[2];
  const Points* grid[2] = {src, dst};
  const double* values[2] = {in, out};
  for (int side = 0; side < 2; ++side) {
    double* terms = malloc(((size_t)grid[side]->n + 1) * sizeof *terms);
    for (int64_t i = 0; i < grid[side]->n; ++i) terms[i] = area[side][i] * values[side][i];
    CHECK_OK(ferry_global_sums(MPI_COMM_WORLD, FERRY_SUM_REPROSUM, 1, grid[side]->n, terms,
                               NULL, &integral[side]));
    free(terms);
  }
  CHECK(fabs(integral[1] - integral[0]) <= 1e-13 * fabs(integral[0]),
        "conserved: destination integral %.17g, source %.17g", integral[1], integral[0]);
  free(in), free(area[0]), free(area[1]), free(frac), free(mask);
  CHECK_OK(ferry_remap_destroy(&remap));
}

static void test_conservative(const Points* src) {
  enum { NX = 8, NY = 4 };
  ferry_layout* cells = NULL;
  CHECK_OK(ferry_layout_create_block(NX * NY, g_size, g_rank, &cells));
  Points dst = make_points(cells, NX, 0.0, 0.0, 0.0, 0.0); /* ids only */
  size_t ns = 4 * ((size_t)src->n + 1), nd = 4 * ((size_t)dst.n + 1);
  double *src_lon = malloc(ns * sizeof(double)), *src_lat = malloc(ns * sizeof(double));
  double *dst_lon = malloc(nd * sizeof(double)), *dst_lat = malloc(nd * sizeof(double));
  cell_corners(src->layout, SRC_NX, SRC_NY, src_lon, src_lat);
  cell_corners(dst.layout, NX, NY, dst_lon, dst_lat);
  ferry_weights* w = NULL;
  CHECK_OK(ferry_weights_conservative(MPI_COMM_WORLD, src->layout, 4, src_lon, src_lat, NULL,
                                      dst.layout, 4, dst_lon, dst_lat, NULL,
                                      FERRY_NORMALISATION_FRACAREA, &w));
  double* out = malloc(((size_t)dst.n + 1) * sizeof *out);
  remap_values(w, src, &dst, 1, out);
  for (int64_t i = 0; i < dst.n; ++i)
    CHECK(fabs(out[i] - 1.0) <= 1e-13, "conservative: cell %lld: %.17g", (long long)dst.ids[i],
          out[i]);
  test_conserve_remapped(w, src, &dst, out);
  CHECK_OK(ferry_weights_destroy(&w));

  /* The same cells as great-circle polygons with explicit corner counts: still exact. */
  int* counts = malloc(((size_t)src->n + 1) * sizeof *counts);
  for (int64_t i = 0; i < src->n; ++i) counts[i] = 4;
  CHECK_OK(ferry_weights_conservative_polygons(
      MPI_COMM_WORLD, src->layout, 4, counts, src_lon, src_lat, NULL,
      FERRY_CELL_EDGES_GREAT_CIRCLE, dst.layout, 4, NULL, dst_lon, dst_lat, NULL,
      FERRY_CELL_EDGES_AUTO, FERRY_NORMALISATION_FRACAREA, &w));
  remap_values(w, src, &dst, 1, out);
  for (int64_t i = 0; i < dst.n; ++i)
    CHECK(fabs(out[i] - 1.0) <= 1e-13, "conservative polygons: cell %lld: %.17g",
          (long long)dst.ids[i], out[i]);
  CHECK_OK(ferry_weights_destroy(&w));
  /* A bad edges value fails on every rank. */
  CHECK(ferry_weights_conservative_polygons(MPI_COMM_WORLD, src->layout, 4, counts, src_lon,
                                            src_lat, NULL, 7, dst.layout, 4, NULL, dst_lon,
                                            dst_lat, NULL, FERRY_CELL_EDGES_AUTO,
                                            FERRY_NORMALISATION_FRACAREA, &w) == FERRY_ERR_ARG,
        "conservative polygons: edges 7 accepted");
  free(out), free(counts), free(src_lon), free(src_lat), free(dst_lon), free(dst_lat);
  free_points(&dst);
}

static void test_errors(const Points* src, const Points* dst) {
  ferry_weights* w = formula_weights();
  ferry_remap* remap = NULL;
  CHECK_OK(ferry_remap_create(MPI_COMM_WORLD, w, src->layout, dst->layout, g_engine, &remap));
  expect_error(ferry_remap_set_map_on(remap, 7), FERRY_ERR_ARG, "unknown map_on 7", "map_on");
  expect_error(ferry_remap_set_mode(remap, -1), FERRY_ERR_ARG, "unknown mode -1", "mode");
  expect_error(ferry_remap_add_field(remap, FERRY_TYPE_INT32, 1, NULL), FERRY_ERR_ARG,
               "FERRY_TYPE_FLOAT64 or FERRY_TYPE_FLOAT32", "integer field");
  expect_error(ferry_remap_add_field(remap, FERRY_TYPE_FLOAT64, 0, NULL), FERRY_ERR_ARG,
               "components must be >= 1", "no components");
  double value = 0;
  const void* in[1] = {&value};
  void* out[1] = {&value};
  expect_error(ferry_remap_apply(remap, in, out), FERRY_ERR_STATE, "not set up",
               "apply before setup");
  CHECK_OK(ferry_remap_setup(remap));
  expect_error(ferry_remap_set_fill_value(remap, 1.0), FERRY_ERR_STATE, "already set up",
               "option after setup");
  expect_error(ferry_remap_apply(remap, NULL, out), FERRY_ERR_ARG, "src or dst is NULL",
               "NULL field array");
  int present = -1;
  CHECK_OK(ferry_remap_get_point_data(remap, FERRY_GRID_DST, NULL, NULL, NULL, &present));
  CHECK(present == 0, "weights from links: point data %d, expected none", present);
  CHECK_OK(ferry_remap_destroy(&remap));

  /* map_on differs on the last rank: every rank's setup fails alike. */
  CHECK_OK(ferry_remap_create(MPI_COMM_WORLD, w, src->layout, dst->layout, g_engine, &remap));
  if (g_size > 1 && g_rank == g_size - 1)
    CHECK_OK(ferry_remap_set_map_on(remap, FERRY_MAP_ON_SRC));
  if (g_size > 1)
    expect_error(ferry_remap_setup(remap), FERRY_ERR_ARG,
                 "the ranks pass different map_on (from src to dst)",
                 "map_on differs between ranks");
  CHECK_OK(ferry_remap_destroy(&remap));

  /* A source layout of the wrong size: the remap's setup fails on every rank. */
  ferry_layout* wrong = NULL;
  CHECK_OK(ferry_layout_create_none(SRC_SIZE + 1, &wrong));
  CHECK_OK(ferry_remap_create(MPI_COMM_WORLD, w, wrong, dst->layout, g_engine, &remap));
  int got = ferry_remap_setup(remap);
  CHECK(got != FERRY_SUCCESS, "setup with a source layout of %d points succeeded", SRC_SIZE + 1);
  CHECK_OK(ferry_remap_destroy(&remap));
  CHECK_OK(ferry_layout_destroy(&wrong));
  CHECK_OK(ferry_weights_destroy(&w));

  ferry_weights* none = NULL;
  expect_error(ferry_weights_read(MPI_COMM_WORLD, "no_such_weights.nc", &none), FERRY_ERR_IO,
               "no_such_weights.nc", "missing file");
  CHECK(none == NULL, "failed read left a handle");

  /* Wrong on the last rank only: every rank fails with that rank's error. */
  int last = g_rank == g_size - 1;
  expect_error(ferry_weights_nearest_neighbour(
                   MPI_COMM_WORLD, src->layout, src->lon, src->lat, NULL, dst->layout,
                   last && dst->n > 0 ? NULL : dst->lon, dst->lat, NULL, 1,
                   FERRY_WEIGHTING_INVERSE_DISTANCE, 0.1, &none),
               FERRY_ERR_ARG, "destination lon is NULL", "NULL lon on the last rank");
  int64_t row = last ? DST_SIZE : 0, col = 0;
  double weight = 1.0;
  expect_error(ferry_weights_from_links(MPI_COMM_WORLD, SRC_SIZE, DST_SIZE, 1, &row, &col,
                                        &weight, NULL, &none),
               FERRY_ERR_ARG_RANGE, "40", "row outside the grid on the last rank");
  expect_error(ferry_weights_nearest_neighbour(
                   MPI_COMM_WORLD, src->layout, src->lon, src->lat, NULL, dst->layout, dst->lon,
                   dst->lat, NULL, 1, last ? 5 : FERRY_WEIGHTING_GAUSSIAN, 0.1, &none),
               FERRY_ERR_ARG, "unknown weighting 5", "bad weighting on the last rank");
  CHECK(none == NULL, "failed call left a handle");
}

int main(int argc, char** argv) {
  g_engine = start_checks(&argc, &argv);
  Points src = source_points();
  Points dst = destination_points();
  test_links_and_files(&src, &dst);
  test_online_weights(&src);
  test_conservative(&src);
  test_errors(&src, &dst);
  free_points(&src);
  free_points(&dst);
  return finish_checks();
}
