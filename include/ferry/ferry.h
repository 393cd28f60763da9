/* ferry C API: layouts and exchanges behind opaque handles.
 *
 * Every function returns FERRY_SUCCESS or an error code (FERRY_ERR_*); the text
 * of the last error on this thread is ferry_last_error_message(). No function
 * ever terminates the process. Handles are created by ferry_*_create* and freed
 * by ferry_*_destroy(&handle), which sets the handle to NULL.
 *
 * Destroy never waits for another rank (it is safe on an error path of one rank):
 * what only every rank together can free (the rma engine's windows, a buffer's
 * window) is freed by the collective ferry_*_close (ferry_buffer_free,
 * ferry_coupler_finalize) before destroy, or else stays until MPI_Finalize. See
 * docs/user/failures.md. */
#ifndef FERRY_FERRY_H
#define FERRY_FERRY_H

#include <mpi.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Error codes; the same numbers as ferry::Errc. */
enum {
  FERRY_SUCCESS = 0,
  FERRY_ERR_ARG = 1,
  FERRY_ERR_ARG_SIZE = 2,
  FERRY_ERR_ARG_RANGE = 3,
  FERRY_ERR_DUPLICATE = 4,
  FERRY_ERR_MISSING = 5,
  FERRY_ERR_OVERFLOW = 6,
  FERRY_ERR_STATE = 7,
  FERRY_ERR_MPI = 8,
  FERRY_ERR_UNSUPPORTED = 9,
  FERRY_ERR_NO_MEMORY = 10,
  FERRY_ERR_IO = 11,
  FERRY_ERR_INTERNAL = 12
};

/* Element types; the same numbers as ferry::Datatype. */
enum {
  FERRY_TYPE_FLOAT64 = 0,
  FERRY_TYPE_FLOAT32 = 1,
  FERRY_TYPE_INT32 = 2,
  FERRY_TYPE_INT64 = 3
};

typedef struct ferry_layout ferry_layout;
typedef struct ferry_exchange ferry_exchange;

/* Text of the last error raised on this thread ("" if none). Not collective. */
const char* ferry_last_error_message(void);
/* Generic text for an error code. Not collective. */
const char* ferry_error_string(int code);
/* Version of the library, e.g. "0.1.0". */
const char* ferry_version(void);

/* Layout constructors (not collective; see ferry::Layout). */
int ferry_layout_create_block(int64_t global_size, int parts, int part, ferry_layout** layout);
int ferry_layout_create_box(int64_t nx, int64_t ny, int px, int py, int part, ferry_layout** layout);
int ferry_layout_create_orange(int64_t nx, int64_t ny, int parts, int part, ferry_layout** layout);
int ferry_layout_create_round_robin(int64_t global_size, int parts, int part, ferry_layout** layout);
int ferry_layout_create_points(int64_t global_size, int64_t count, const int64_t* ids,
                               ferry_layout** layout);
int ferry_layout_create_random(int64_t global_size, int parts, int part, uint64_t seed,
                               ferry_layout** layout);
int ferry_layout_create_none(int64_t global_size, ferry_layout** layout);
int ferry_layout_local_size(const ferry_layout* layout, int64_t* local_size);
int ferry_layout_global_size(const ferry_layout* layout, int64_t* global_size);
/* Copies the layout's ids into ids[0 .. local_size-1]. */
int ferry_layout_get_ids(const ferry_layout* layout, int64_t* ids);
int ferry_layout_destroy(ferry_layout** layout);

/* Exchange lifecycle: create (not collective; keeps copies of the layouts), add
 * fields and set options (logically collective: same calls in the same order on
 * every rank), setup (collective over comm, which must stay valid until then:
 * duplicates it, builds the plan and sets up the engine), then execute or
 * begin/end any number of times, then close (collective) and destroy.
 * engine: a registered name, "auto", or NULL / "default" for $FERRY_ENGINE or p2p. */
int ferry_exchange_create(MPI_Comm comm, const ferry_layout* src, const ferry_layout* dst,
                          const char* engine, ferry_exchange** exchange);
/* Adds a field of `type` with `components` values per point; *field_index gets its
 * position (0, 1, ...) in the src/dst arrays of execute. */
int ferry_exchange_add_field(ferry_exchange* exchange, int type, int components, int* field_index);
/* Sets an engine option, e.g. ("reorder", "true") for neighbor. Before setup. */
int ferry_exchange_set_option(ferry_exchange* exchange, const char* key, const char* value);
int ferry_exchange_setup(ferry_exchange* exchange);
/* src[f], dst[f]: field f's local data; mask: NULL or one int per field, non-zero = move. */
int ferry_exchange_execute(ferry_exchange* exchange, const void* const* src, void* const* dst,
                           const int* mask);
int ferry_exchange_begin(ferry_exchange* exchange, const void* const* src, void* const* dst,
                         const int* mask);
int ferry_exchange_end(ferry_exchange* exchange);
/* Not collective; after setup. *memory gets memory the engine allocated for field
 * `field`'s received values on this rank (local destination size x components values
 * of the field's type, laid out as your own array), or NULL: the rma engine, and
 * "auto" for the exchanges it makes with rma, offer it to ranks with a source on the
 * same node, which then write each value straight into it (one copy per value).
 * Pass it as dst[field] to the next execute or begin; ask again before each exchange
 * (two areas take turns), and do not write it before that exchange: node sources may
 * be filling it. Its values stay until the end of the next exchange; the memory lives
 * until close. FERRY_ERR_ARG_RANGE for a field index out of range. */
int ferry_exchange_destination_field(ferry_exchange* exchange, int field, void** memory);
/* The engine actually used (valid until destroy). */
int ferry_exchange_get_engine(const ferry_exchange* exchange, const char** engine);
/* Collective, idempotent: frees what only every rank together can free (the rma
 * engine's windows); afterwards only get_engine and destroy. Does nothing on an
 * exchange never set up. */
int ferry_exchange_close(ferry_exchange* exchange);
/* Not collective, never waits (see the top of this file). */
int ferry_exchange_destroy(ferry_exchange** exchange);

/* ---- Coupler (see ferry::Coupler and docs/user/coupler-c.md) ----
 *
 * Lifecycle: ferry_coupler_create (collective over every rank of the run), then
 * def_grid / def_partition / set_* / def_field on the ranks that hold data, then
 * ferry_coupler_enddef (collective), put / get (and load / read of the buffers) as
 * the model steps, ferry_coupler_finalize (collective), and ferry_coupler_destroy before
 * MPI_Finalize. Grids, partitions and fields are named by the int ids the def_*
 * calls return (-1 when they fail); they are valid for that coupler on this rank only. */

/* Direction of a field, seen by the component that declares it (ferry::FieldDirection). */
enum { FERRY_FIELD_OUT = 0, FERRY_FIELD_IN = 1 };

/* What a put or get did: bit flags, the same as ferry::CouplingStatus. */
enum {
  FERRY_STATUS_NOTHING = 0,       /* not a coupling time: nothing moved or accumulated */
  FERRY_STATUS_TRANSFORMED = 1,   /* put: the values fed the time transform only */
  FERRY_STATUS_SENT = 2,          /* put: the period's value was sent (or kept for the restart) */
  FERRY_STATUS_RECEIVED = 4,      /* get: values received */
  FERRY_STATUS_FROM_RESTART = 8,  /* get: a lagged value put before the run started */
  FERRY_STATUS_OUTPUT = 16,       /* the values were also written to the output file */
  FERRY_STATUS_TO_RESTART = 32,   /* put (with SENT): kept for the restart file */
  FERRY_STATUS_WAIT_GROUP = 64    /* put (with SENT): the entry's other fields are not put yet */
};

typedef struct ferry_coupler ferry_coupler;

/* Collective over comm, which holds every rank of the coupled run. This rank runs
 * the ncomponents names in components; every rank passes the same configuration
 * file (YAML, docs/user/config.md). Errors (FERRY_ERR_ARG with file:line:col for
 * the configuration, FERRY_ERR_IO for an unreadable file) are the same on every rank. */
int ferry_coupler_create(MPI_Comm comm, int ncomponents, const char* const* components,
                         const char* config_path, ferry_coupler** coupler);
/* The ranks of a component this rank runs; owned by the coupler (do not free).
 * Not collective. */
int ferry_coupler_local_comm(const ferry_coupler* coupler, const char* component, MPI_Comm* comm);
/* Declares a grid of nx x ny points (ny = 1 for unstructured grids). Not collective. */
int ferry_coupler_def_grid(ferry_coupler* coupler, const char* component, const char* name,
                           int64_t nx, int64_t ny, int* grid);
/* Declares the points of `grid` this rank holds (the coupler keeps a copy of the
 * layout). Not collective. */
int ferry_coupler_def_partition(ferry_coupler* coupler, int grid, const char* name,
                                const ferry_layout* layout, int* partition);
/* Optional metadata of this rank's points of a partition, one value per point in
 * layout order (ncorner per point for corners): centres and corners in degrees,
 * cell areas, mask (1 valid, 0 masked). Not collective; before enddef. */
int ferry_coupler_set_coordinates(ferry_coupler* coupler, int partition, const double* lon,
                                  const double* lat);
int ferry_coupler_set_corners(ferry_coupler* coupler, int partition, int ncorner,
                              const double* lon, const double* lat);
int ferry_coupler_set_areas(ferry_coupler* coupler, int partition, const double* area);
int ferry_coupler_set_mask(ferry_coupler* coupler, int partition, const int32_t* mask);
/* This rank's number of points of a partition: the length of the arrays above (times
 * ncorner for corners). Not collective. */
int ferry_coupler_partition_points(const ferry_coupler* coupler, int partition, int64_t* points);
/* Declares a field on a partition: direction FERRY_FIELD_OUT or FERRY_FIELD_IN, a
 * FERRY_TYPE_*, and `bundle` values per point (levels or members, the fastest index:
 * value[point * bundle + b]). Not collective. */
int ferry_coupler_def_field(ferry_coupler* coupler, int partition, const char* name,
                            int direction, int type, int bundle, int* field);
/* This rank's number of values of a field (local points x bundle) and its type:
 * what put reads and get writes. Not collective. */
int ferry_coupler_field_values(const ferry_coupler* coupler, int field, int64_t* values);
int ferry_coupler_field_type(const ferry_coupler* coupler, int field, int* type);
/* Collective over the run: checks the declarations against the configuration and
 * builds every exchange; an error is the same on every rank. */
int ferry_coupler_enddef(ferry_coupler* coupler);
/* Not collective. Puts this rank's values of an Out field at model time `time`
 * (seconds since the run start); *status (may be NULL) gets FERRY_STATUS_* flags. */
int ferry_coupler_put(ferry_coupler* coupler, int field, double time, const void* data,
                      int* status);
/* Not collective. Gets this rank's values of an In field at model time `time`; blocks
 * until they are there, or fails with FERRY_ERR_STATE when the watchdog fires. data is
 * written only when *status has FERRY_STATUS_RECEIVED. */
int ferry_coupler_get(ferry_coupler* coupler, int field, double time, void* data, int* status);
/* Time-series buffers (the `buffers:` entries of the configuration; docs/user/coupler.md).
 * Not collective. Loads this rank's values of the source field of `buffer` as step
 * `step` (steps strictly increase, the same on every rank that declares the source
 * field); lossless buffers may wait for the target to read. */
int ferry_coupler_load(ferry_coupler* coupler, const char* buffer, const void* data, int64_t step);
/* Collective over the ranks that declare the target field, the same max_steps (>= 1)
 * on each: waits for new steps, then writes up to max_steps of them to out, this
 * rank's values of the target field step after step (room for max_steps x
 * ferry_coupler_buffer_values). *n_steps == 0 means the stream ended; *first_step gets
 * the first step read, *lost_steps the steps skipped (lossy mode). Any of the three
 * outputs may be NULL. */
int ferry_coupler_read(ferry_coupler* coupler, const char* buffer, void* out, int64_t max_steps,
                       int64_t* first_step, int64_t* n_steps, int64_t* lost_steps);
/* Not collective. Copies the steps of this rank's last read of `buffer` (n_steps
 * values) into steps, which has room for `size` values: FERRY_ERR_ARG_SIZE if fewer. */
int ferry_coupler_read_steps(ferry_coupler* coupler, const char* buffer, int64_t size,
                             int64_t* steps);
/* Not collective. This rank's number of values of one step of `buffer` (0 on ranks
 * that neither load nor read it) and the buffer's FERRY_TYPE_*: what load reads and
 * read writes per step. */
int ferry_coupler_buffer_values(const ferry_coupler* coupler, const char* buffer, int64_t* values);
int ferry_coupler_buffer_type(const ferry_coupler* coupler, const char* buffer, int* type);
/* Collective over the run: completes pending puts, closes the buffers (steps not read
 * by then are dropped), writes restarts and timers. */
int ferry_coupler_finalize(ferry_coupler* coupler);
/* Not collective, never waits: this rank gives up on the run (its own code failed).
 * Every other rank's current or next coupler call fails with FERRY_ERR_STATE naming
 * this rank, its component(s), its last coupler call and `reason`. Does nothing after
 * finalize or a failure. See docs/user/failures.md. */
int ferry_coupler_abandon(ferry_coupler* coupler, const char* reason);
/* Frees the coupler and sets *coupler to NULL; not collective, never waits. Call it
 * on every rank before MPI_Finalize. Destroying a coupler that was not finalized
 * (an error path) tells the other ranks, as ferry_coupler_abandon does. */
int ferry_coupler_destroy(ferry_coupler** coupler);

#ifdef __cplusplus
}
#endif

/* The other parts of the C API, each in its own header (each includes this one). */
#include "ferry/buffer.h"
#include "ferry/halo.h"

#endif /* FERRY_FERRY_H */
