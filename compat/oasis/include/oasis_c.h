/* OASIS3-MCT 5's C API (oasis_c.h) over ferry's coupler: C and C++ models written for
   OASIS's C interface compile against this header unchanged and link ferry::oasis.
   Communicators are C MPI_Comm; POINTS partitions give 0-based indices; put and get
   take 2-D (x, y) arrays with a bundle dimension, of floats (OASIS_Real) or doubles
   (OASIS_Double), in row-major (C) or column-major (Fortran) storage. Every function
   returns OASIS_Ok, or OASIS_Error with the message on standard error. */
#ifndef FERRY_OASIS_C_API_H
#define FERRY_OASIS_C_API_H

#include <mpi.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  OASIS_Real = 4, OASIS_REAL = 4, OASIS_Double = 8, OASIS_DOUBLE = 8,
  OASIS_ROW_MAJOR = 0, OASIS_COL_MAJOR = 1,
  OASIS_Out = 20, OASIS_OUT = 20, OASIS_In = 21, OASIS_IN = 21,
  OASIS_Coupled = 1, OASIS_COUPLED = 1, OASIS_Not_Coupled = 0, OASIS_NOT_COUPLED = 0,
  OASIS_Write_Restart = 1, OASIS_WRITE_RESTART = 1, OASIS_No_Restart = 0, OASIS_NO_RESTART = 0,
  OASIS_No_Part = -1, OASIS_NO_PART = -1
};

/* ig_paral / kparal: the form first, then its numbers (see the Fortran API). */
enum {
  OASIS_Serial = 0, OASIS_Apple = 1, OASIS_Box = 2, OASIS_Orange = 3, OASIS_Points = 4,
  OASIS_Strategy = 0, OASIS_Segments = 1, OASIS_Npoints = 1, OASIS_Offset = 1, OASIS_Length = 2,
  OASIS_SizeX = 2, OASIS_SizeY = 3, OASIS_LdX = 4,
  OASIS_Serial_Params = 3, OASIS_Apple_Params = 3, OASIS_Box_Params = 5, OASIS_No_Gsize = 0
};
#define OASIS_Orange_Params(n_segments) (2 + 2 * (n_segments))
#define OASIS_Points_Params(n_points) (2 + (n_points))
#define OASIS_No_Name ""
#define OASIS_No_Companion "NULL-STRING"

enum {
  OASIS_Ok = 0, OASIS_Success = 0, OASIS_Error = -10, OASIS_NotDef = -2, OASIS_Var_Uncpl = -1,
  OASIS_InOut = 2, OASIS_Recvd = 3, OASIS_Sent = 4, OASIS_LocTrans = 5, OASIS_ToRest = 6,
  OASIS_Output = 7, OASIS_SentOut = 8, OASIS_ToRestOut = 9, OASIS_FromRest = 10,
  OASIS_Input = 11, OASIS_RecvOut = 12, OASIS_FromRestOut = 13, OASIS_Waitgroup = 14
};

int oasis_c_init_comp(int* compid, const char* name, const bool coupled);
int oasis_c_init_comp_with_comm(int* compid, const char* name, const bool coupled,
                                const MPI_Comm commworld);
int oasis_c_get_localcomm(MPI_Comm* localcomm);
int oasis_c_create_couplcomm(const int icpl, const MPI_Comm allcomm, MPI_Comm* cplcomm);
int oasis_c_set_couplcomm(const MPI_Comm cplcomm);
int oasis_c_get_intercomm(MPI_Comm* new_comm, char* other);
int oasis_c_get_intracomm(MPI_Comm* new_comm, char* other);
/* An intracommunicator of the processes of the cdnam_size components cdnam (this one
   among them; empty names are skipped), in component order; root_ranks[k]: the rank
   in it of component cdnam[k]'s first process (-1 for an empty name). */
int oasis_c_get_multi_intracomm(MPI_Comm* new_comm, const int cdnam_size, char* cdnam[],
                                int* root_ranks);
int oasis_c_def_partition(int* part_id, const int kparal_size, const int* kparal,
                          const int ig_size, const char* name);
int oasis_c_def_var(int* var_id, const char* name, const int part_id, const int bundle_size,
                    const int kinout, const int ktype);
int oasis_c_enddef(void);
int oasis_c_put(const int var_id, const int kstep, const int x_size, const int y_size,
                const int bundle_size, const int fkind, const int storage, const void* fld1,
                const bool write_restart, int* kinfo);
int oasis_c_get(const int var_id, const int kstep, const int x_size, const int y_size,
                const int bundle_size, const int fkind, const int storage, void* fld1, int* kinfo);
int oasis_c_put_inquire(int var_id, int kstep, int* kinfo);
int oasis_c_get_ncpl(const int var_id, int* ncpl);
int oasis_c_get_freqs(const int var_id, const int mop, const int ncpl, int* cpl_freqs);
int oasis_c_set_debug(const int debug);
int oasis_c_get_debug(int* debug);
int oasis_c_start_grids_writing(void);
int oasis_c_write_grid(const char* cgrid, const int nx, const int ny, const int nx_loc,
                       const int ny_loc, const double* lon, const double* lat, const int partid);
int oasis_c_write_corner(const char* cgrid, const int nx, const int ny, const int nc,
                         const int nx_loc, const int ny_loc, const double* clo, const double* cla,
                         const int partid);
int oasis_c_write_mask(const char* cgrid, const int nx, const int ny, const int nx_loc,
                       const int ny_loc, const int* mask, const int partid, const char* companion);
int oasis_c_write_frac(const char* cgrid, const int nx, const int ny, const int nx_loc,
                       const int ny_loc, const double* frac, const int partid, const char* companion);
int oasis_c_write_area(const char* cgrid, const int nx, const int ny, const int nx_loc,
                       const int ny_loc, const double* area, const int partid);
int oasis_c_write_angle(const char* cgrid, const int nx, const int ny, const int nx_loc,
                        const int ny_loc, const double* angle, const int partid);
int oasis_c_terminate_grids_writing(void);
int oasis_c_terminate(void);
int oasis_c_abort(const int compid, const char* routine, const char* message, const char* file,
                  const int line);

#ifdef __cplusplus
}
#endif

#endif
