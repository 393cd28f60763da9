# Builds under SimGrid's SMPI (CMAKE_CXX_COMPILER=smpicxx), which runs ferry on a
# simulated cluster; see docs/benchmarks/scale.md. Sets FERRY_MPI_IS_SMPI and, for
# the compiler, FERRY_SMPI (code working around SMPI's limits tests it).
include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_LIBRARIES MPI::MPI_CXX)
# SMPI_SAMPLE_LOCAL marks SMPI's mpi.h.
check_cxx_source_compiles([=[
#include <mpi.h>
#ifndef SMPI_SAMPLE_LOCAL
#error not SMPI
#endif
int main() { return 0; }]=] FERRY_MPI_IS_SMPI)
unset(CMAKE_REQUIRED_LIBRARIES)

if(FERRY_MPI_IS_SMPI)
  # smpicxx force-includes smpi_helpers.h, whose malloc/free macros break system
  # headers declaring them (<malloc.h>); ferry needs no SMPI_SHARED_MALLOC interception.
  add_compile_definitions(SMPI_NO_OVERRIDE_MALLOC FERRY_SMPI)
  if(BUILD_SHARED_LIBS)
    message(WARNING "SMPI privatizes the globals of the simulated program, not those of "
      "shared libraries: configure with -DBUILD_SHARED_LIBS=OFF")
  endif()
endif()
