/* ferry C API: the time-series buffer (see ferry::TimeSeriesBuffer and docs/user/buffer.md).
 *
 * A requester component loads one box of a global array per time step into a ring
 * of slots in an MPI window; worker groups read the sub-boxes they want, many
 * steps per call. Same conventions as ferry.h: every function returns
 * FERRY_SUCCESS or a FERRY_ERR_* code, ferry_last_error_message() gives the text,
 * and destroy functions set the handle to NULL.
 *
 * Lifecycle: every rank of a parent communicator calls ferry_buffer_expose
 * (requester ranks) or ferry_buffer_connect (worker ranks) collectively. Requester
 * ranks then ferry_buffer_load each step and ferry_buffer_close at the end; each
 * worker group calls ferry_buffer_attach once over its own communicator and
 * ferry_buffer_reader_read until it returns zero steps, then
 * ferry_buffer_reader_done. Finally every rank of the parent calls
 * ferry_buffer_free (collective: the window is freed) and destroys its handles.
 *
 * Arrays are in C order (the last dimension varies fastest); a box is the
 * half-open range start[d] <= i < end[d] in each of the ndims (1 to 3) dimensions. */
#ifndef FERRY_BUFFER_H
#define FERRY_BUFFER_H

#include <mpi.h>
#include <stdint.h>

#include "ferry/ferry.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What happens when a ring is full; the same numbers as ferry::BufferMode. */
enum {
  FERRY_BUFFER_LOSSLESS = 0, /* the requester waits for the slowest worker group */
  FERRY_BUFFER_LOSSY = 1     /* the requester never waits; late readers lose steps */
};

/* Unit of a capacity: slots per requester rank, or bytes per requester rank. */
enum { FERRY_BUFFER_STEPS = 0, FERRY_BUFFER_BYTES = 1 };

typedef struct ferry_buffer ferry_buffer;
typedef struct ferry_buffer_reader ferry_buffer_reader;

/* Collective over parent (requester half). shape: ndims extents; start/end: this
 * rank's box (may be empty; boxes of requester ranks must not overlap); type:
 * FERRY_TYPE_*; capacity in capacity_unit (FERRY_BUFFER_STEPS or _BYTES); mode:
 * FERRY_BUFFER_LOSSLESS or _LOSSY. shape, type, capacity and mode are the same on
 * every requester rank. Errors are the same on every rank of parent. */
int ferry_buffer_expose(MPI_Comm parent, int ndims, const int64_t* shape, const int64_t* start,
                        const int64_t* end, int type, int capacity_unit, int64_t capacity,
                        int mode, ferry_buffer** buffer);
/* Collective over parent (worker half): group is 0, 1, ..., the same on every rank
 * of one worker group. */
int ferry_buffer_connect(MPI_Comm parent, int group, ferry_buffer** buffer);

/* Requester ranks, not collective: copies this rank's box of `step` (steps strictly
 * increase, the same on every requester rank). Lossless mode may wait for readers. */
int ferry_buffer_load(ferry_buffer* buffer, const void* data, int64_t step);
/* Collective over the requester ranks: no more steps. */
int ferry_buffer_close(ferry_buffer* buffer);
/* Slots of every requester rank's ring. Not collective. */
int ferry_buffer_get_capacity(const ferry_buffer* buffer, int64_t* steps);
/* The FERRY_TYPE_* of the values, on requester and worker ranks. Not collective. */
int ferry_buffer_get_type(const ferry_buffer* buffer, int* type);

/* Collective over worker_comm, which holds exactly the ranks of one worker group:
 * start/end (ndims values each, ndims as the requester's shape) name the box this
 * rank reads. Errors are the same on every rank of the group. */
int ferry_buffer_attach(ferry_buffer* buffer, MPI_Comm worker_comm, int ndims,
                        const int64_t* start, const int64_t* end, ferry_buffer_reader** reader);
/* Collective over the group, same max_steps (>= 1) on every rank. Waits for new
 * steps, then writes up to max_steps of them to out (room for max_steps x
 * values-per-step values, shape (steps, box) in C order). *n_steps == 0 means the
 * stream ended. *first_step gets the first step read, *lost_steps the steps skipped
 * (lossy mode). Any of the three outputs may be NULL. */
int ferry_buffer_reader_read(ferry_buffer_reader* reader, void* out, int64_t max_steps,
                             int64_t* first_step, int64_t* n_steps, int64_t* lost_steps);
/* Copies the steps of the last read (n_steps values) into steps. Not collective. */
int ferry_buffer_reader_get_steps(const ferry_buffer_reader* reader, int64_t* steps);
/* Values of one step of this rank's box. Not collective. */
int ferry_buffer_reader_values_per_step(const ferry_buffer_reader* reader, int64_t* values);
/* Collective over the group: detaches; a lossless requester stops waiting for it. */
int ferry_buffer_reader_done(ferry_buffer_reader* reader);
/* Frees the reader and sets *reader to NULL. Not collective, never waits. */
int ferry_buffer_reader_destroy(ferry_buffer_reader** reader);
/* Collective over parent, idempotent: frees the buffer's window once every rank is
 * done with it (the requester closes first if it has not); call
 * ferry_buffer_reader_done before. Afterwards only destroy. */
int ferry_buffer_free(ferry_buffer* buffer);
/* Frees the buffer and sets *buffer to NULL. Not collective, never waits: a buffer
 * not freed with ferry_buffer_free leaves its window to MPI_Finalize. */
int ferry_buffer_destroy(ferry_buffer** buffer);

#ifdef __cplusplus
}
#endif

#endif /* FERRY_BUFFER_H */
