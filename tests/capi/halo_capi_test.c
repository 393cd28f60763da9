/* The halo C API from C: a geodesic mesh of 162 cells, partitioned at random over the
 * ranks; each rank builds its own cell graph and a halo of depth 1 and 2 with two
 * fields, a float64 field of 3 levels (cells x levels) and an int32 field of 2 x 4
 * values per cell (cells x levels x bins). Owned values are a function of (global
 * cell, component); after the exchange every ghost must hold its owner's value
 * exactly. Then the error paths. Run with --engine=NAME; every rank returns the same
 * exit code. */
#include <ferry/halo.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "capi_checks.h"

enum { FREQUENCY = 4, LEVELS = 3, BINS = 2 * 4 /* levels x bins */ };

static const char* g_engine = NULL; /* --engine=NAME */

static double level_value(int64_t cell, int level) { return 1000.0 * (double)cell + level + 0.25; }
static int32_t bin_value(int64_t cell, int bin) { return (int32_t)(100 * cell + bin); }

/* This rank's part of the mesh: its cells and their neighbour lists (CSR). */
typedef struct {
  int64_t global_cells, ncells;
  int64_t *cells, *offsets, *neighbours;
} Graph;

static Graph my_graph(void) {
  Graph g = {0, 0, NULL, NULL, NULL};
  ferry_geodesic_mesh* mesh = NULL;
  CHECK_OK(ferry_geodesic_mesh_create(FREQUENCY, &mesh));
  int64_t entries = 0;
  CHECK_OK(ferry_geodesic_mesh_cell_count(mesh, &g.global_cells));
  CHECK_OK(ferry_geodesic_mesh_neighbour_count(mesh, &entries));
  CHECK(g.global_cells == 10 * FREQUENCY * FREQUENCY + 2, "%lld cells", (long long)g.global_cells);
  int64_t* offsets = malloc((size_t)(g.global_cells + 1) * sizeof *offsets);
  int64_t* neighbours = malloc((size_t)entries * sizeof *neighbours);
  int* owner = malloc((size_t)g.global_cells * sizeof *owner);
  CHECK_OK(ferry_geodesic_mesh_get_graph(mesh, offsets, neighbours));
  CHECK_OK(ferry_partition_cells(g.global_cells, offsets, neighbours, g_size,
                                 FERRY_PARTITION_RANDOM, 7, owner));
  g.cells = malloc((size_t)g.global_cells * sizeof *g.cells);
  g.offsets = malloc((size_t)(g.global_cells + 1) * sizeof *g.offsets);
  g.neighbours = malloc((size_t)entries * sizeof *g.neighbours);
  g.offsets[0] = 0;
  for (int64_t c = 0; c < g.global_cells; ++c) {
    if (owner[c] != g_rank) continue;
    int64_t n = g.offsets[g.ncells];
    for (int64_t k = offsets[c]; k < offsets[c + 1]; ++k) g.neighbours[n++] = neighbours[k];
    g.cells[g.ncells++] = c;
    g.offsets[g.ncells] = n;
  }
  free(owner);
  free(neighbours);
  free(offsets);
  CHECK_OK(ferry_geodesic_mesh_destroy(&mesh));
  return g;
}

static void run_halo(const Graph* g, int depth) {
  ferry_halo* halo = NULL;
  CHECK_OK(ferry_halo_create(MPI_COMM_WORLD, g->global_cells, g->ncells, g->cells, g->offsets,
                             g->neighbours, depth, g_engine, &halo));
  int levels_field = -1, bins_field = -1;
  CHECK_OK(ferry_halo_add_field(halo, FERRY_TYPE_FLOAT64, LEVELS, &levels_field));
  CHECK_OK(ferry_halo_add_field(halo, FERRY_TYPE_INT32, BINS, &bins_field));
  CHECK(levels_field == 0 && bins_field == 1, "field indices %d %d", levels_field, bins_field);
  CHECK_OK(ferry_halo_setup(halo));

  int64_t owned = -1, local = -1, ring_end = -1;
  CHECK_OK(ferry_halo_owned_count(halo, &owned));
  CHECK_OK(ferry_halo_local_count(halo, &local));
  CHECK_OK(ferry_halo_ring_end(halo, depth, &ring_end));
  CHECK(owned == g->ncells && ring_end == local, "owned %lld local %lld ring_end %lld",
        (long long)owned, (long long)local, (long long)ring_end);
  const char* engine = NULL;
  CHECK_OK(ferry_halo_get_engine(halo, &engine));
  CHECK(engine != NULL && strcmp(engine, g_engine) == 0, "engine %s", engine ? engine : "(null)");

  int64_t* cells = malloc((size_t)(local + 1) * sizeof *cells);
  double* levels = malloc((size_t)(local * LEVELS + 1) * sizeof *levels);
  int32_t* bins = malloc((size_t)(local * BINS + 1) * sizeof *bins);
  CHECK_OK(ferry_halo_get_cells(halo, cells));
  for (int64_t i = 0; i < local; ++i) {
    const int mine = i < owned;
    for (int l = 0; l < LEVELS; ++l) levels[i * LEVELS + l] = mine ? level_value(cells[i], l) : -1;
    for (int b = 0; b < BINS; ++b) bins[i * BINS + b] = mine ? bin_value(cells[i], b) : -1;
  }
  void* fields[2] = {levels, bins};
  CHECK_OK(ferry_halo_execute(halo, fields, NULL));
  for (int64_t i = 0; i < local; ++i) {
    for (int l = 0; l < LEVELS; ++l)
      CHECK(levels[i * LEVELS + l] == level_value(cells[i], l), "depth %d cell %lld level %d: %g",
            depth, (long long)cells[i], l, levels[i * LEVELS + l]);
    for (int b = 0; b < BINS; ++b)
      CHECK(bins[i * BINS + b] == bin_value(cells[i], b), "depth %d cell %lld bin %d: %d", depth,
            (long long)cells[i], b, (int)bins[i * BINS + b]);
  }

  /* Split phase with a mask: only the int32 field moves. */
  for (int64_t i = owned; i < local; ++i) {
    for (int l = 0; l < LEVELS; ++l) levels[i * LEVELS + l] = -2;
    for (int b = 0; b < BINS; ++b) bins[i * BINS + b] = -2;
  }
  const int mask[2] = {0, 1};
  CHECK_OK(ferry_halo_begin(halo, fields, mask));
  CHECK_OK(ferry_halo_end(halo));
  for (int64_t i = owned; i < local; ++i) {
    CHECK(levels[i * LEVELS] == -2, "masked field moved at cell %lld", (long long)cells[i]);
    CHECK(bins[i * BINS + BINS - 1] == bin_value(cells[i], BINS - 1), "split phase cell %lld",
          (long long)cells[i]);
  }

  /* Neighbour lists in local indices: every cell within depth-1 rings sees its global
   * neighbours, in the order given at create for owned cells. */
  int64_t inner = -1, entries = -1;
  CHECK_OK(ferry_halo_ring_end(halo, depth - 1, &inner));
  CHECK_OK(ferry_halo_neighbour_count(halo, &entries));
  int64_t* offsets = malloc((size_t)(inner + 1) * sizeof *offsets);
  int64_t* neighbours = malloc((size_t)(entries + 1) * sizeof *neighbours);
  CHECK_OK(ferry_halo_get_neighbours(halo, offsets, neighbours));
  for (int64_t i = 0; i < owned; ++i) {
    CHECK(offsets[i + 1] - offsets[i] == g->offsets[i + 1] - g->offsets[i], "degree of %lld",
          (long long)cells[i]);
    for (int64_t k = 0; k < offsets[i + 1] - offsets[i]; ++k)
      CHECK(cells[neighbours[offsets[i] + k]] == g->neighbours[g->offsets[i] + k],
            "neighbour %lld of cell %lld", (long long)k, (long long)cells[i]);
  }
  free(neighbours);
  free(offsets);
  free(bins);
  free(levels);
  free(cells);
  CHECK_OK(ferry_halo_destroy(&halo));
  CHECK(halo == NULL, "destroy did not clear the handle");
}

static void run_errors(const Graph* g) {
  ferry_halo* halo = NULL;
  expect_error(ferry_halo_create(MPI_COMM_WORLD, g->global_cells, g->ncells, g->cells, NULL,
                                 g->neighbours, 1, g_engine, &halo),
               FERRY_ERR_ARG, "ferry_halo_create: offsets is NULL", "NULL offsets");
  CHECK(halo == NULL, "failed create left a handle");
  /* A neighbour outside the mesh on rank 0 only: every rank fails at setup. */
  int64_t saved = g->ncells > 0 ? g->neighbours[0] : 0;
  if (g_rank == 0 && g->ncells > 0) g->neighbours[0] = g->global_cells + 5;
  CHECK_OK(ferry_halo_create(MPI_COMM_WORLD, g->global_cells, g->ncells, g->cells, g->offsets,
                             g->neighbours, 1, g_engine, &halo));
  if (g->ncells > 0) g->neighbours[0] = saved;
  int64_t local = 0;
  expect_error(ferry_halo_local_count(halo, &local), FERRY_ERR_STATE, "not set up",
               "count before setup");
  expect_error(ferry_halo_add_field(halo, 42, 1, NULL), FERRY_ERR_ARG, "unknown type 42",
               "bad type");
  if (g_rank == 0 && g->ncells > 0)
    expect_error(ferry_halo_setup(halo), FERRY_ERR_ARG_RANGE, "outside", "neighbour outside");
  else
    CHECK(ferry_halo_setup(halo) == FERRY_ERR_ARG_RANGE, "agreed error: %s",
          ferry_last_error_message());
  CHECK_OK(ferry_halo_destroy(&halo));

  CHECK_OK(ferry_halo_create(MPI_COMM_WORLD, g->global_cells, g->ncells, g->cells, g->offsets,
                             g->neighbours, 1, "neighbour", &halo));
  expect_error(ferry_halo_setup(halo), FERRY_ERR_ARG, "unknown engine", "misspelt engine");
  CHECK_OK(ferry_halo_destroy(&halo));
}

int main(int argc, char** argv) {
  g_engine = start_checks(&argc, &argv);
  Graph g = my_graph();
  run_halo(&g, 1);
  run_halo(&g, 2);
  run_errors(&g);
  free(g.cells);
  free(g.offsets);
  free(g.neighbours);
  return finish_checks();
}
