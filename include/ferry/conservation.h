/* ferry C API: global sums that give the same bits on any number of ranks, and the
 * correction that makes a remapped field conserve the source's area integral (OASIS
 * CONSERV), for programs that remap outside the coupler (ferry/regrid.h). See
 * docs/user/conservation.md.
 *
 * Same conventions as ferry.h and regrid.h: every function returns FERRY_SUCCESS or a
 * FERRY_ERR_* code, ferry_last_error_message() gives the text, point ids are 0-based
 * global ids, and the collective functions agree on their errors: when one rank's
 * arguments are wrong, every rank returns the same code and message. */
#ifndef FERRY_CONSERVATION_H
#define FERRY_CONSERVATION_H

#include <mpi.h>
#include <stdint.h>

#include "ferry/ferry.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a global sum is formed; the same numbers as ferry::SumMethod. */
enum {
  FERRY_SUM_GATHER = 0,  /* rank 0 adds by ascending id: the same bits everywhere; slow */
  FERRY_SUM_LSUM8 = 1,   /* MPI_Allreduce of local double sums: fast, last bits vary */
  FERRY_SUM_LSUM16 = 2,  /* the same in quadruple precision */
  FERRY_SUM_DDPDD = 3,   /* double-double, about 106 bits */
  FERRY_SUM_REPROSUM = 4 /* exact integer sums: correctly rounded, the same bits everywhere */
};

/* How ferry_conserve corrects the destination; the same numbers as ferry::Conserve. */
enum {
  FERRY_CONSERVE_GLOBAL = 0,          /* OASIS GLOBAL: add the residual per unit area */
  FERRY_CONSERVE_GLOBAL_POSITIVE = 1, /* OASIS GLBPOS: scale, keeping every sign */
  FERRY_CONSERVE_BASIN_BALANCE = 2,   /* OASIS BASBAL: same mean per unmasked area, added */
  FERRY_CONSERVE_BASIN_POSITIVE = 3   /* OASIS BASPOS: the same, scaled */
};

/* Collective over comm; method and count the same on every rank. sums[j] (count
 * values, the same on every rank) = the sum over all ranks of values[p * count + j]
 * for the `points` points p held here. ids: the global id of each point, each id on
 * one rank only; FERRY_SUM_GATHER adds in ascending id order and needs them, the
 * other methods ignore them (NULL is fine). FERRY_ERR_ARG for a term that is not
 * finite with FERRY_SUM_REPROSUM, FERRY_ERR_DUPLICATE for an id held twice with
 * FERRY_SUM_GATHER. */
int ferry_global_sums(MPI_Comm comm, int method, int count, int64_t points, const double* values,
                      const int64_t* ids, double* sums);

/* Collective over comm; method, sum and components the same on every rank. Corrects
 * the remapped field dst_values in place (each of its `components` values per point
 * separately) so that its area integral matches that of src_values, by `method`
 * (FERRY_CONSERVE_*) with global sums by `sum` (FERRY_SUM_*). Each grid's points on
 * this rank are given by a layout (each point on one rank only, else it counts
 * twice) and arrays in layout order: area (required), frac (NULL: 1) and mask (NULL:
 * every point active; else 1 = active, 0 = masked, left unchanged); values hold
 * value[point * components + c]. Every array may be NULL when the layout is empty.
 * A component whose divisor is 0 is left unchanged (ferry::conserve). The areas,
 * fractions and masks of a weight file: ferry_remap_get_point_data. */
int ferry_conserve(MPI_Comm comm, int method, int sum, int components, const ferry_layout* src,
                   const double* src_area, const double* src_frac, const int* src_mask,
                   const double* src_values, const ferry_layout* dst, const double* dst_area,
                   const double* dst_frac, const int* dst_mask, double* dst_values);

#ifdef __cplusplus
}
#endif

#endif /* FERRY_CONSERVATION_H */
