// The C entry points that only the Fortran module ferry_conservation_mod calls: global
// sums and conservation with Fortran's integer communicator handle (MPI_Fint). The
// conversion cannot fail and the C functions never throw, so no firewall is needed.
#include <mpi.h>

#include "ferry/conservation.h"

extern "C" {

int ferry_global_sums_f(MPI_Fint comm, int method, int count, int64_t points,
                        const double* values, const int64_t* ids, double* sums) {
  return ferry_global_sums(MPI_Comm_f2c(comm), method, count, points, values, ids, sums);
}

int ferry_conserve_f(MPI_Fint comm, int method, int sum, int components, const ferry_layout* src,
                     const double* src_area, const double* src_frac, const int* src_mask,
                     const double* src_values, const ferry_layout* dst, const double* dst_area,
                     const double* dst_frac, const int* dst_mask, double* dst_values) {
  return ferry_conserve(MPI_Comm_f2c(comm), method, sum, components, src, src_area, src_frac,
                        src_mask, src_values, dst, dst_area, dst_frac, dst_mask, dst_values);
}

}  // extern "C"
