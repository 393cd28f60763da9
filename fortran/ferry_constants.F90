! module ferry_constants: the numeric constants of the C API headers as Fortran
! parameters: FERRY_SUCCESS, FERRY_ERR_*, FERRY_TYPE_*, FERRY_FIELD_*, FERRY_STATUS_*
! and those of buffer.h, halo.h, regrid.h, conservation.h and collectives.h
! (FERRY_BUFFER_*, FERRY_PARTITION_*, FERRY_MAP_ON_*, FERRY_REMAP_*, FERRY_WEIGHTING_*,
! FERRY_NORMALISATION_*, FERRY_GRID_*, FERRY_POINT_*, FERRY_SUM_*, FERRY_CONSERVE_*,
! FERRY_ALLTOALLV_*, FERRY_ALLREDUCE_*). CMake generates them from the C headers
! (fortran/CMakeLists.txt), so that the numbers have one source.
module ferry_constants
  use, intrinsic :: iso_c_binding, only: c_int
  implicit none
  private

#include "ferry_constants.inc"

end module ferry_constants
