/* ferry C API: halo (ghost-cell) exchange on unstructured meshes (see ferry::Halo and
 * docs/user/halo.md), and the test meshes and partitions that go with it.
 *
 * Same conventions as ferry.h: every function returns FERRY_SUCCESS or a FERRY_ERR_*
 * code, ferry_last_error_message() gives the text, destroy functions set the handle
 * to NULL. Cell ids are 0-based global ids.
 *
 * Lifecycle, as for an exchange: ferry_halo_create (not collective; copies this
 * rank's cell graph), ferry_halo_add_field and ferry_halo_set_option (the same calls
 * on every rank), ferry_halo_setup (collective: finds the ghost cells and plans the
 * exchange), then ferry_halo_execute or begin/end every time step, then close
 * (collective) and destroy.
 *
 * A field's local array holds local_count x components values, cell-major
 * (value[cell * components + c]): the owned cells in the order given to create,
 * then the ghost cells, ring 1 first, each ring by ascending global id. */
#ifndef FERRY_HALO_H
#define FERRY_HALO_H

#include <mpi.h>
#include <stdint.h>

#include "ferry/ferry.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How ferry_partition_cells deals cells out; the same numbers as ferry::PartitionMethod. */
enum {
  FERRY_PARTITION_BLOCK = 0,  /* contiguous id ranges */
  FERRY_PARTITION_RANDOM = 1, /* a seeded random permutation cut into equal blocks */
  FERRY_PARTITION_METIS = 2   /* METIS_PartGraphKway; only in builds with METIS */
};

typedef struct ferry_halo ferry_halo;
typedef struct ferry_geodesic_mesh ferry_geodesic_mesh;

/* Not collective. This rank owns the ncells cells cells[0 .. ncells-1] (global ids,
 * in its storage order) of a mesh of global_cells cells; cell cells[i]'s neighbours
 * are neighbours[offsets[i] .. offsets[i+1]) (offsets: ncells + 1 values from 0).
 * The arrays are copied. depth: ghost rings (>= 1). engine: a registered name,
 * "auto", or NULL / "default". comm must stay valid until setup. Without
 * ferry_halo_add_field, the halo moves one float64 value per cell. */
int ferry_halo_create(MPI_Comm comm, int64_t global_cells, int64_t ncells, const int64_t* cells,
                      const int64_t* offsets, const int64_t* neighbours, int depth,
                      const char* engine, ferry_halo** halo);
/* Adds a field of `type` (FERRY_TYPE_*) with `components` values per cell (levels x
 * bins); *field_index (may be NULL) gets its position 0, 1, ... in the fields array
 * of execute. Before setup. */
int ferry_halo_add_field(ferry_halo* halo, int type, int components, int* field_index);
/* Sets an engine option, e.g. ("reorder", "true") for neighbor. Before setup. */
int ferry_halo_set_option(ferry_halo* halo, const char* key, const char* value);
/* Collective over comm: checks the cell graphs (errors are the same on every rank),
 * finds the ghost rings and sets up the exchange. */
int ferry_halo_setup(ferry_halo* halo);

/* Collective: copies every owned value into every ghost copy of it. fields[f]: field
 * f's local array; mask: NULL or one int per field, non-zero = move. */
int ferry_halo_execute(ferry_halo* halo, void* const* fields, const int* mask);
/* Collective, split phase: begin starts execute; until end, do not write the owned
 * part of the arrays nor touch their ghost part. */
int ferry_halo_begin(ferry_halo* halo, void* const* fields, const int* mask);
int ferry_halo_end(ferry_halo* halo);

/* After setup, not collective. owned: cells this rank owns; local: owned + ghosts
 * (the length in cells of a field's array). ring_end(r): local cells within r steps
 * of the owned ones, 0 <= r <= depth (ring_end(0) = owned, ring_end(depth) = local). */
int ferry_halo_owned_count(const ferry_halo* halo, int64_t* owned);
int ferry_halo_local_count(const ferry_halo* halo, int64_t* local);
int ferry_halo_ring_end(const ferry_halo* halo, int ring, int64_t* end);
/* Copies the global ids of the local cells (local_count values) into cells. */
int ferry_halo_get_cells(const ferry_halo* halo, int64_t* cells);
/* Neighbours as local indices (0-based) for the cells [0, ring_end(depth - 1)), whose
 * neighbours are all local: *count gets the number of entries; get_neighbours copies
 * ring_end(depth - 1) + 1 offsets and count neighbours (CSR, as at create). */
int ferry_halo_neighbour_count(const ferry_halo* halo, int64_t* count);
int ferry_halo_get_neighbours(const ferry_halo* halo, int64_t* offsets, int64_t* neighbours);
/* The engine actually used (valid until destroy). */
int ferry_halo_get_engine(const ferry_halo* halo, const char** engine);
/* Collective, idempotent: closes the halo's exchange (ferry_exchange_close); afterwards
 * only the queries and destroy. Does nothing on a halo never set up. */
int ferry_halo_close(ferry_halo* halo);
/* Not collective, never waits (see ferry.h). */
int ferry_halo_destroy(ferry_halo** halo);

/* A test mesh (ferry::GeodesicMesh, not collective): the Voronoi dual of an
 * icosahedron with edges cut into `frequency` parts, 10 f^2 + 2 cells (12 pentagons,
 * the rest hexagons) on the unit sphere. The whole mesh lives on this rank. */
int ferry_geodesic_mesh_create(int frequency, ferry_geodesic_mesh** mesh);
int ferry_geodesic_mesh_cell_count(const ferry_geodesic_mesh* mesh, int64_t* cells);
/* Entries of the neighbour list (the length of get_graph's neighbours). */
int ferry_geodesic_mesh_neighbour_count(const ferry_geodesic_mesh* mesh, int64_t* count);
/* Cells-on-cell in CSR form: cell_count + 1 offsets and neighbour_count neighbours,
 * counterclockwise seen from outside the sphere. */
int ferry_geodesic_mesh_get_graph(const ferry_geodesic_mesh* mesh, int64_t* offsets,
                                  int64_t* neighbours);
/* Cell centres, unit vectors: xyz[3 * c + k]. */
int ferry_geodesic_mesh_get_centres(const ferry_geodesic_mesh* mesh, double* xyz);
int ferry_geodesic_mesh_destroy(ferry_geodesic_mesh** mesh);

/* Not collective: the owner (0 .. parts-1) of each of the ncells cells of a CSR graph
 * (offsets: ncells + 1 values), written to owner[0 .. ncells-1]. method:
 * FERRY_PARTITION_*; seed for RANDOM. The same input gives the same partition on every
 * rank. FERRY_ERR_UNSUPPORTED for METIS in a build without it. */
int ferry_partition_cells(int64_t ncells, const int64_t* offsets, const int64_t* neighbours,
                          int parts, int method, uint64_t seed, int* owner);

#ifdef __cplusplus
}
#endif

#endif /* FERRY_HALO_H */
