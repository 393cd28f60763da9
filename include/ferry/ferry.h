/* ferry C API: layouts and exchanges behind opaque handles.
 *
 * Every function returns FERRY_SUCCESS or an error code (FERRY_ERR_*); the text
 * of the last error on this thread is ferry_last_error_message(). No function
 * ever terminates the process. Handles are created by ferry_*_create* and freed
 * by ferry_*_destroy(&handle), which sets the handle to NULL. */
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
 * begin/end any number of times, then destroy.
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
/* The engine actually used (valid until destroy). */
int ferry_exchange_get_engine(const ferry_exchange* exchange, const char** engine);
int ferry_exchange_destroy(ferry_exchange** exchange);

#ifdef __cplusplus
}
#endif

#endif /* FERRY_FERRY_H */
