/* ferry C API: regridding outside the coupler. Remapping weights read from SCRIP or
 * ESMF files, given as links, or computed from grid coordinates (ferry::Weights and
 * ferry/online_weights.hpp), and applied to fields in parallel (ferry::Remap). See
 * docs/user/regrid.md.
 *
 * Same conventions as ferry.h: every function returns FERRY_SUCCESS or a FERRY_ERR_*
 * code, ferry_last_error_message() gives the text, destroy functions set the handle
 * to NULL. Point ids are 0-based global ids. The collective functions agree on their
 * errors: when one rank's arguments are wrong, every rank returns the same code and
 * message (that of the lowest failing rank).
 *
 * One grid's data on this rank are given by a layout and arrays in layout order:
 * lon and lat (degrees) of each point, or `corners` corner longitudes and latitudes
 * of each cell (cell i: corner_lon[i * corners + c]); mask: NULL (every point valid)
 * or one int per point, 1 = valid, 0 = masked. Every array has the layout's local
 * size (times corners); it may be NULL only when that is 0.
 *
 * A remap's lifecycle, as for an exchange: ferry_remap_create (not collective),
 * ferry_remap_add_field and the ferry_remap_set_* calls (the same calls on every rank,
 * except set_dst_mask), ferry_remap_setup (collective: routes the rows of the weights
 * and builds the exchanges), then ferry_remap_apply or begin/end as often as wanted,
 * then close (collective) and destroy. The weights may be destroyed after setup. */
#ifndef FERRY_REGRID_H
#define FERRY_REGRID_H

#include <mpi.h>
#include <stdint.h>

#include "ferry/ferry.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where the sparse product runs; the same numbers as ferry::MapOn. */
enum {
  FERRY_MAP_ON_SRC = 0, /* on the source ranks; the results move to the destination */
  FERRY_MAP_ON_DST = 1  /* on the destination ranks (the default) */
};

/* How the sums of a row are formed; the same numbers as ferry::RemapMode. */
enum {
  FERRY_REMAP_BFB = 0, /* each row summed whole in its links' order: the same bits for any
                          process count, layout, engine and map_on (the default) */
  FERRY_REMAP_SUM = 1  /* map_on src: partial sums per source rank move (fewer bytes) */
};

/* How the k nearest source points share a destination point's value. */
enum {
  FERRY_WEIGHTING_INVERSE_DISTANCE = 0, /* OASIS DISTWGT, CDO gendis */
  FERRY_WEIGHTING_GAUSSIAN = 1          /* OASIS GAUSWGT */
};

/* Which spacing sets the width of the Gaussian (ferry::GaussianScale). */
enum {
  FERRY_GAUSSIAN_SCALE_SOURCE = 0,    /* the mean spacing of the source grid */
  FERRY_GAUSSIAN_SCALE_NEIGHBOURS = 1 /* each destination point's neighbours' mean spacing
                                         (OASIS GAUSWGT) */
};

/* Which source points the k nearest are taken from (ferry::MaskedNeighbours). */
enum {
  FERRY_MASKED_NEIGHBOURS_SKIP = 0,        /* the k nearest valid source points */
  FERRY_MASKED_NEIGHBOURS_DROP = 1,        /* the k nearest, masked or not, the masked ones
                                              dropped; all masked: the nearest valid one
                                              (OASIS DISTWGT, GAUSWGT) */
  FERRY_MASKED_NEIGHBOURS_DROP_NO_FILL = 2 /* as DROP; all masked: no links (OASIS
                                              DISTWGTNF, GAUSWGTNF) */
};

/* What the conservative weights of a destination cell add up to (SCRIP's names). */
enum {
  FERRY_NORMALISATION_FRACAREA = 0, /* a constant stays that constant (CDO gencon) */
  FERRY_NORMALISATION_DESTAREA = 1  /* the fraction of the cell covered */
};

/* How the edges of a grid's cells run (ferry::CellEdges). */
enum {
  FERRY_CELL_EDGES_AUTO = 0,         /* lon-lat if every valid cell is a lon-lat rectangle */
  FERRY_CELL_EDGES_GREAT_CIRCLE = 1, /* curvilinear, unstructured, icosahedral grids */
  FERRY_CELL_EDGES_LONLAT = 2        /* meridians and parallels: every valid cell a rectangle */
};

/* What a valid destination point no valid source point or cell covers receives
 * (ferry::Unmapped). */
enum {
  FERRY_UNMAPPED_FILL = 0,        /* no links: the remap's fill value (OASIS's NF methods) */
  FERRY_UNMAPPED_NEAREST = 1,     /* one link of weight 1 from the nearest valid source
                                     point (OASIS's FRACNNEI and DESTNNEI for CONSERV) */
  FERRY_UNMAPPED_FOUR_NEAREST = 2 /* bilinear and bicubic: inverse-distance weights of the
                                     valid ones of the 4 nearest source points, else the
                                     nearest valid one (OASIS's BILINEAR and BICUBIC) */
};

/* The kinds of grid file ferry_grid_read knows (ferry::GridFormat). */
enum {
  FERRY_GRID_FORMAT_AUTO = 0,        /* from the variables */
  FERRY_GRID_FORMAT_OASIS = 1,       /* grids.nc, with masks.nc and areas.nc */
  FERRY_GRID_FORMAT_SCRIP = 2,       /* a SCRIP grid file */
  FERRY_GRID_FORMAT_UNSTRUCTURED = 3 /* a CDO/ICON unstructured grid file */
};

/* Which grid of a remap (ferry_remap_get_point_data). */
enum { FERRY_GRID_SRC = 0, FERRY_GRID_DST = 1 };

/* What the weights give of a grid's points, as flags (ferry_remap_get_point_data). */
enum { FERRY_POINT_AREA = 1, FERRY_POINT_FRAC = 2, FERRY_POINT_MASK = 4 };

typedef struct ferry_weights ferry_weights;
typedef struct ferry_remap ferry_remap;
typedef struct ferry_grid ferry_grid;

/* Collective over comm. Reads a SCRIP remapping file (src_address, dst_address,
 * remap_matrix) or an ESMF one (row, col, S), with the grids' areas, fractions and
 * masks when present; each rank keeps a block of the rows (ferry::Weights::read).
 * FERRY_ERR_IO names the file and variable, FERRY_ERR_ARG_RANGE the first address
 * outside its grid, FERRY_ERR_ARG the first weight that is not finite. */
int ferry_weights_read(MPI_Comm comm, const char* path, ferry_weights** weights);

/* Collective over comm. A matrix of dst_size rows and src_size columns from `count`
 * links held here (any share of them, in any order): destination point rows[i]
 * receives values[i] times source point cols[i]. order: where each link is summed
 * within its row (ascending, unique within a row), or NULL, on every rank or on none:
 * NULL numbers the links by their position over all ranks, rank 0's first, so a
 * file's links keep the file's order whatever share each rank reads.
 * FERRY_ERR_ARG_RANGE for a row or column outside the grid, FERRY_ERR_ARG for a
 * weight that is not finite or an order given twice in a row. */
int ferry_weights_from_links(MPI_Comm comm, int64_t src_size, int64_t dst_size, int64_t count,
                             const int64_t* rows, const int64_t* cols, const double* values,
                             const int64_t* order, ferry_weights** weights);

/* Collective over comm, the communicator the weights were made on. Writes a SCRIP
 * remapping file that reads back to the same matrix bit for bit (written as
 * "<path>.partial", renamed when complete). */
int ferry_weights_write_scrip(MPI_Comm comm, const ferry_weights* weights, const char* path);
/* Collective over comm: the same as an ESMF file (col, row, S, area_a/b, frac_a/b,
 * mask_a/b), which ferry_weights_read reads back bit for bit. */
int ferry_weights_write_esmf(MPI_Comm comm, const ferry_weights* weights, const char* path);

/* Collective over comm: the k = `neighbours` nearest valid source points of every
 * valid destination point on the unit sphere, weighted by `weighting`
 * (FERRY_WEIGHTING_*; gaussian_variance in units of the mean source spacing squared,
 * read for FERRY_WEIGHTING_GAUSSIAN only). Rows are ordered nearest first; the same
 * bits for any number of ranks and layouts (ferry::nearest_neighbour_weights). */
int ferry_weights_nearest_neighbour(MPI_Comm comm, const ferry_layout* src, const double* src_lon,
                                    const double* src_lat, const int* src_mask,
                                    const ferry_layout* dst, const double* dst_lon,
                                    const double* dst_lat, const int* dst_mask, int neighbours,
                                    int weighting, double gaussian_variance,
                                    ferry_weights** weights);

/* Collective over comm: ferry_weights_nearest_neighbour with the choice of the
 * Gaussian's spacing, `gaussian_scale` (FERRY_GAUSSIAN_SCALE_*, read for
 * FERRY_WEIGHTING_GAUSSIAN only), and of what masked source points do,
 * `masked_neighbours` (FERRY_MASKED_NEIGHBOURS_*; DROP and DROP_NO_FILL take
 * inverse-distance weighting or a Gaussian of FERRY_GAUSSIAN_SCALE_NEIGHBOURS).
 * ferry_weights_nearest_neighbour is this call with SOURCE and SKIP. */
int ferry_weights_nearest_neighbour_with_options(
    MPI_Comm comm, const ferry_layout* src, const double* src_lon, const double* src_lat,
    const int* src_mask, const ferry_layout* dst, const double* dst_lon, const double* dst_lat,
    const int* dst_mask, int neighbours, int weighting, double gaussian_variance,
    int gaussian_scale, int masked_neighbours, ferry_weights** weights);

/* Collective over comm: bilinear weights (SCRIP's algorithm, CDO genbil) from a
 * logically rectangular source grid of nx columns (point (i, j) has id j * nx + i);
 * periodic non-zero: column nx - 1 neighbours column 0 (ferry::bilinear_weights). */
int ferry_weights_bilinear(MPI_Comm comm, const ferry_layout* src, const double* src_lon,
                           const double* src_lat, const int* src_mask, const ferry_layout* dst,
                           const double* dst_lon, const double* dst_lat, const int* dst_mask,
                           int64_t nx, int periodic, ferry_weights** weights);

/* Collective over comm: first-order conservative weights (CDO gencon) between grids of
 * cells with `corners` corners each, their edges as FERRY_CELL_EDGES_AUTO picks, normalised
 * by `normalisation` (FERRY_NORMALISATION_*), with both grids' cell areas, fractions
 * and masks (ferry::conservative_weights). */
int ferry_weights_conservative(MPI_Comm comm, const ferry_layout* src, int src_corners,
                               const double* src_corner_lon, const double* src_corner_lat,
                               const int* src_mask, const ferry_layout* dst, int dst_corners,
                               const double* dst_corner_lon, const double* dst_corner_lat,
                               const int* dst_mask, int normalisation, ferry_weights** weights);

/* Collective over comm: ferry_weights_conservative for cells of any convex polygons
 * (ferry::conservative_weights): each grid also gives the corners of each cell
 * (src_corner_counts: one per layout cell, at most src_corners; NULL: every cell has
 * src_corners, repeated corners allowed) and how its edges run (FERRY_CELL_EDGES_*). */
int ferry_weights_conservative_polygons(
    MPI_Comm comm, const ferry_layout* src, int src_corners, const int* src_corner_counts,
    const double* src_corner_lon, const double* src_corner_lat, const int* src_mask, int src_edges,
    const ferry_layout* dst, int dst_corners, const int* dst_corner_counts,
    const double* dst_corner_lon, const double* dst_corner_lat, const int* dst_mask, int dst_edges,
    int normalisation, ferry_weights** weights);

/* Collective over comm: ferry_weights_bilinear with the choice of what destination
 * points in no source cell (or in a cell with a masked corner) receive: `unmapped`
 * FERRY_UNMAPPED_FILL (no links), FERRY_UNMAPPED_NEAREST or FERRY_UNMAPPED_FOUR_NEAREST
 * (ferry::bilinear_weights). */
int ferry_weights_bilinear_with_options(MPI_Comm comm, const ferry_layout* src,
                                        const double* src_lon, const double* src_lat,
                                        const int* src_mask, const ferry_layout* dst,
                                        const double* dst_lon, const double* dst_lat,
                                        const int* dst_mask, int64_t nx, int periodic,
                                        int unmapped, ferry_weights** weights);

/* Collective over comm: bicubic weights (SCRIP's algorithm, CDO genbic) with the
 * gradients made from the field itself, folded into one matrix (up to 16 links per
 * row); arguments as ferry_weights_bilinear_with_options (ferry::bicubic_weights). */
int ferry_weights_bicubic(MPI_Comm comm, const ferry_layout* src, const double* src_lon,
                          const double* src_lat, const int* src_mask, const ferry_layout* dst,
                          const double* dst_lon, const double* dst_lat, const int* dst_mask,
                          int64_t nx, int periodic, int unmapped, ferry_weights** weights);

/* Collective over comm: bicubic weights for gradients the caller gives, as four
 * matrices with the same links: dst = value f + i_gradient df/di + j_gradient df/dj +
 * ij_gradient d2f/didj, derivatives along the source grid's index directions per index
 * step (OASIS's fld2..fld4; ferry::bicubic_gradient_weights). On error all four are NULL. */
int ferry_weights_bicubic_gradients(MPI_Comm comm, const ferry_layout* src, const double* src_lon,
                                    const double* src_lat, const int* src_mask,
                                    const ferry_layout* dst, const double* dst_lon,
                                    const double* dst_lat, const int* dst_mask, int64_t nx,
                                    int periodic, int unmapped, ferry_weights** value,
                                    ferry_weights** i_gradient, ferry_weights** j_gradient,
                                    ferry_weights** ij_gradient);

/* Collective over comm: ferry_weights_conservative_polygons with every option of
 * ferry::ConservativeOptions: `unmapped` (FERRY_UNMAPPED_*: FERRY_UNMAPPED_NEAREST makes
 * FRACAREA into OASIS's FRACNNEI and DESTAREA into DESTNNEI) and `order` (1, or 2 for
 * second order with the gradients made from the field itself, as CDO gencon2). */
int ferry_weights_conservative_with_options(
    MPI_Comm comm, const ferry_layout* src, int src_corners, const int* src_corner_counts,
    const double* src_corner_lon, const double* src_corner_lat, const int* src_mask, int src_edges,
    const ferry_layout* dst, int dst_corners, const int* dst_corner_counts,
    const double* dst_corner_lon, const double* dst_corner_lat, const int* dst_mask, int dst_edges,
    int normalisation, int unmapped, int order, ferry_weights** weights);

/* Collective over comm: ferry_weights_conservative_with_options for a logically
 * rectangular source grid of nx columns (cell (i, j) has id j * nx + i, as
 * ferry_grid_get_sizes gives nx for OASIS and SCRIP grids; periodic non-zero: column
 * nx - 1 neighbours column 0). With order 2 the source gradients are then SCRIP's and
 * CDO's centred differences along i and j instead of least squares (ConservativeOptions
 * nx and periodic); nx 0 is ferry_weights_conservative_with_options. FERRY_ERR_ARG on
 * every rank for an nx of 1 or below 0, or one that does not divide the source size. */
int ferry_weights_conservative_rectangular(
    MPI_Comm comm, const ferry_layout* src, int src_corners, const int* src_corner_counts,
    const double* src_corner_lon, const double* src_corner_lat, const int* src_mask, int src_edges,
    const ferry_layout* dst, int dst_corners, const int* dst_corner_counts,
    const double* dst_corner_lon, const double* dst_corner_lat, const int* dst_mask, int dst_edges,
    int normalisation, int unmapped, int order, int64_t nx, int periodic,
    ferry_weights** weights);

/* Collective over comm: second-order conservative weights for gradients the caller
 * gives (OASIS's fld2 and fld3), as three matrices with the same links: dst = value src
 * + lat_gradient g_lat + lon_gradient g_lon, g_lat and g_lon the northward and eastward
 * gradients per radian of arc at the source cells' centroids
 * (ferry::conservative_gradient_weights). On error all three are NULL. */
int ferry_weights_conservative_gradients(
    MPI_Comm comm, const ferry_layout* src, int src_corners, const int* src_corner_counts,
    const double* src_corner_lon, const double* src_corner_lat, const int* src_mask, int src_edges,
    const ferry_layout* dst, int dst_corners, const int* dst_corner_counts,
    const double* dst_corner_lon, const double* dst_corner_lat, const int* dst_mask, int dst_edges,
    int normalisation, int unmapped, ferry_weights** value, ferry_weights** lat_gradient,
    ferry_weights** lon_gradient);

/* Not collective. Any output pointer may be NULL. src_size: columns; dst_size: rows;
 * global_links: links over all ranks. */
int ferry_weights_get_sizes(const ferry_weights* weights, int64_t* src_size, int64_t* dst_size,
                            int64_t* global_links);
/* Not collective: the rows held here, first_row .. first_row + row_count - 1, and
 * their links (any output pointer may be NULL). */
int ferry_weights_get_local_rows(const ferry_weights* weights, int64_t* first_row,
                                 int64_t* row_count, int64_t* link_count);
/* Not collective: copies the local rows in CSR form, row_count + 1 offsets from 0
 * (row first_row + i has links row_start[i] .. row_start[i + 1] - 1) and link_count
 * source points and weights, each row's links in summation order. */
int ferry_weights_get_links(const ferry_weights* weights, int64_t* row_start, int64_t* cols,
                            double* values);
/* Not collective: the file's map_method attribute, "" if none (valid until destroy). */
int ferry_weights_get_method(const ferry_weights* weights, const char** method);
int ferry_weights_destroy(ferry_weights** weights);

/* Collective over comm: reads a grid (ferry::read_grid), each rank a block of its
 * cells (ferry_layout_create_block(size, ranks, rank)): an OASIS grids.nc (`name`: the
 * grid's prefix, "torc"; masks, areas: masks.nc and areas.nc, or NULL or ""), a SCRIP
 * grid file or a CDO/ICON unstructured grid file; `format` FERRY_GRID_FORMAT_*. name
 * may be NULL for the other formats (it names the grid in messages). FERRY_ERR_IO names
 * the file and the variable. */
int ferry_grid_read(MPI_Comm comm, const char* path, int format, const char* name,
                    const char* masks, const char* areas, ferry_grid** grid);
/* Not collective; any output pointer may be NULL. size: cells of the grid; first,
 * count: this rank's block, global ids first .. first + count - 1; corners: corner
 * slots per cell; nx: cells per row of a logically rectangular grid (OASIS, SCRIP of
 * rank 2), else 0; has_corners, has_area: 1 if this rank holds the file's corners, its
 * cell areas (0 on a rank without cells). */
int ferry_grid_get_sizes(const ferry_grid* grid, int64_t* size, int64_t* first, int64_t* count,
                         int* corners, int64_t* nx, int* has_corners, int* has_area);
/* Not collective: a new layout handle of this rank's cells (destroy it). */
int ferry_grid_get_layout(const ferry_grid* grid, ferry_layout** layout);
/* Not collective: copies this rank's `count` cell centres (degrees) and mask (1 =
 * valid, whatever the file's convention; all 1 without a mask). Any may be NULL. */
int ferry_grid_get_points(const ferry_grid* grid, double* lon, double* lat, int* mask);
/* Not collective: copies this rank's corners, count x corners each (cell i: corner_lon[i
 * * corners + c], degrees), as the conservative functions take them. Any may be NULL;
 * FERRY_ERR_ARG when the file has no corners. */
int ferry_grid_get_corners(const ferry_grid* grid, double* corner_lon, double* corner_lat);
/* Not collective: copies this rank's `count` cell areas as the file gives them (OASIS
 * areas.nc in m^2, SCRIP grid_area); FERRY_ERR_ARG when the file has none. */
int ferry_grid_get_area(const ferry_grid* grid, double* area);
int ferry_grid_destroy(ferry_grid** grid);

/* Not collective. Applies `weights` from the source layout (the points this rank
 * holds source values of; an empty layout if none) to the destination layout (the
 * points it wants; any points, several ranks may want the same). The layouts are
 * copied; weights and comm must stay valid until setup. engine: a registered name,
 * "auto", or NULL / "default" for $FERRY_ENGINE or p2p; it moves every value. */
int ferry_remap_create(MPI_Comm comm, const ferry_weights* weights, const ferry_layout* src,
                       const ferry_layout* dst, const char* engine, ferry_remap** remap);
/* Adds a field of FERRY_TYPE_FLOAT64 or FLOAT32 with `components` values per point
 * (value[point * components + c]); *field_index (may be NULL) gets its position 0, 1,
 * ... in the arrays of apply. Sums run in double. Before setup; without it the remap
 * moves one float64 value per point. */
int ferry_remap_add_field(ferry_remap* remap, int type, int components, int* field_index);
/* FERRY_MAP_ON_SRC or FERRY_MAP_ON_DST. Before setup. */
int ferry_remap_set_map_on(ferry_remap* remap, int map_on);
/* FERRY_REMAP_BFB or FERRY_REMAP_SUM. Before setup. */
int ferry_remap_set_mode(ferry_remap* remap, int mode);
/* The value of destination points that receive nothing: rows without links and the
 * points of the destination mask (default 0). Before setup. */
int ferry_remap_set_fill_value(ferry_remap* remap, double fill_value);
/* One int per point of this rank's destination layout (copied): non-zero keeps the
 * fill value there whatever the weights say (unlike a grid's mask, where 1 means
 * valid). Before setup; may differ between ranks. */
int ferry_remap_set_dst_mask(ferry_remap* remap, const int* mask);
/* Sets an option of the engine, e.g. ("shared_memory", "false") for rma. Before setup. */
int ferry_remap_set_option(ferry_remap* remap, const char* key, const char* value);
/* Collective over comm: checks the layouts against the weights (errors are the same
 * on every rank), routes each needed row to the rank that applies it and builds the
 * exchanges. */
int ferry_remap_setup(ferry_remap* remap);

/* Collective: dst[f] = W src[f] for every field f. src[f]: field f at this rank's
 * source points; dst[f]: room for it at its destination points; either may be NULL
 * on a rank without such points. */
int ferry_remap_apply(ferry_remap* remap, const void* const* src, void* const* dst);
/* Collective, split phase: begin starts apply; until end, do not touch src or dst. */
int ferry_remap_begin(ferry_remap* remap, const void* const* src, void* const* dst);
int ferry_remap_end(ferry_remap* remap);
/* After setup, not collective: what one apply of every field sends from this rank. */
int ferry_remap_get_traffic(const ferry_remap* remap, int64_t* messages, int64_t* bytes);
/* After setup, not collective: what the weights (a file's *_grid_area, *_grid_frac,
 * *_grid_imask; the conservative weight functions' areas, fractions and masks) give of
 * `grid` (FERRY_GRID_SRC or FERRY_GRID_DST) at the points of this rank's layout of
 * that grid, in layout order: cell areas, fractions, masks (1 = active, 0 = masked).
 * *present (may be NULL) gets the FERRY_POINT_* flags of those the weights have, the
 * same on every rank; only those are written. Any output pointer may be NULL. For
 * ferry_conserve (ferry/conservation.h). */
int ferry_remap_get_point_data(const ferry_remap* remap, int grid, double* area, double* frac,
                               int* mask, int* present);
/* Collective, idempotent: closes the remap's exchanges (ferry_exchange_close);
 * afterwards only the queries and destroy. Does nothing on a remap never set up. */
int ferry_remap_close(ferry_remap* remap);
/* Not collective, never waits (see ferry.h). */
int ferry_remap_destroy(ferry_remap** remap);

#ifdef __cplusplus
}
#endif

#endif /* FERRY_REGRID_H */
