/* The C functions mod_oasis (the Fortran module) and oasis_c.h call: OASIS3-MCT's API over
   ferry's Coupler. One coupled component per process, as in OASIS3-MCT 4.0. Every
   function returns 0 (OASIS_Ok) or, on an error, OASIS_Error (-10) after writing
   the message to stderr, prefixed with the OASIS routine's name; the message stays
   available from ferry_oasis_last_error(). Communicators are Fortran handles
   (MPI_Fint); names are NUL-terminated strings without trailing blanks. */
#ifndef FERRY_OASIS_H
#define FERRY_OASIS_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { FERRY_OASIS_OK = 0, FERRY_OASIS_ERROR = -10 };

int ferry_oasis_init_comp(int* compid, const char* name, int coupled, int has_world, MPI_Fint world);
int ferry_oasis_get_localcomm(MPI_Fint* local);
int ferry_oasis_create_couplcomm(int icpl, MPI_Fint local, MPI_Fint* coupl);
int ferry_oasis_set_couplcomm(MPI_Fint coupl);
int ferry_oasis_get_intracomm(MPI_Fint* comm, const char* other);
int ferry_oasis_get_intercomm(MPI_Fint* comm, const char* other);
/* Collective over the processes of the `count` components `names` (this one among
   them; empty names are skipped): a communicator of all their processes, components
   in compid order; root_ranks[k] is the rank in it of component names[k]'s first
   process (-1 for an empty name). */
int ferry_oasis_get_multi_intracomm(MPI_Fint* comm, int count, const char* const* names,
                                    int* root_ranks);
int ferry_oasis_def_partition(int* part_id, const int* ig_paral, int length, int isize,
                              const char* name);
int ferry_oasis_def_var(int* var_id, const char* name, int part_id, int bundle, int kinout,
                        int var_type);
int ferry_oasis_enddef(void);
/* Points of the partition of var_id on this rank (the length of a put's or get's array
   per bundle member), and its bundle size. */
int ferry_oasis_var_shape(int var_id, long long* points, int* bundle);
/* fields: nfields arrays (fld1 to fld5) of points x bundle doubles (Fortran order:
   point fastest): the field, then the gradients OASIS's BICUBIC (3) and CONSERV
   SECOND (2) take from the model (Coupler's PutExtras::gradients); with fld1 alone
   ferry computes them from the field. */
int ferry_oasis_put(int var_id, int date, const double* const* fields, int nfields, int write_restart,
                    int* kinfo);
int ferry_oasis_get(int var_id, int date, double* field, int* kinfo);
int ferry_oasis_put_inquire(int var_id, int date, int* kinfo);
int ferry_oasis_get_ncpl(int var_id, int* ncpl);
int ferry_oasis_get_freqs(int var_id, int mop, int ncpl, int* freqs);
int ferry_oasis_get_debug(int* level);
int ferry_oasis_set_debug(int level);
int ferry_oasis_start_grids_writing(int* flag);
/* kind: 0 lon/lat (a, b), 1 corners (a, b with nc), 2 mask (ints), 3 area, 4 frac,
   5 angle. values: the whole grid, or with part_id > 0 this rank's points of it. */
int ferry_oasis_write_grid_data(const char* grid, int nx, int ny, int kind, int nc,
                                const double* a, const double* b, const int* mask,
                                long long count, int part_id);
int ferry_oasis_terminate_grids_writing(void);
int ferry_oasis_terminate(void);
void ferry_oasis_abort(int compid, const char* routine, const char* message, int rcode);
const char* ferry_oasis_last_error(void);

#ifdef __cplusplus
}
#endif

#endif
