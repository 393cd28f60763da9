# What the halo module (src/halo) can use on this machine:
# - METIS, for minimum-edge-cut mesh partitions (PartitionMethod::Metis). Optional:
#   FERRY_HAVE_METIS is ON when FERRY_ENABLE_METIS is on and METIS is found.
# - MPI-4 persistent neighbourhood collectives (MPI_Neighbor_alltoallv_init), which
#   would let a halo's neighbourhood exchange be set up once like p2p's persistent
#   requests. Open MPI 4.1 and MPICH 3 lack them; `ferry bench halo` reports the
#   answer (FERRY_HAVE_MPI_NEIGHBOR_PERSISTENT) next to its neighbor timings.
set(FERRY_HAVE_METIS OFF)
if(FERRY_ENABLE_METIS)
  find_package(METIS)
  if(METIS_FOUND)
    set(FERRY_HAVE_METIS ON)
    message(STATUS "ferry halo partitions: block, random, metis (METIS ${METIS_VERSION}, "
                   "${METIS_IDX_WIDTH}-bit idx_t)")
  else()
    message(STATUS "ferry halo partitions: block, random (METIS not found: install "
                   "libmetis-dev or set METIS_ROOT for the metis partition)")
  endif()
else()
  message(STATUS "ferry halo partitions: block, random (FERRY_ENABLE_METIS is OFF)")
endif()

include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_LIBRARIES MPI::MPI_CXX)
check_cxx_source_compiles([=[
#include <mpi.h>
int main() {
  MPI_Comm g = MPI_COMM_NULL; MPI_Request r; int n = 0;
  MPI_Neighbor_alltoallv_init(nullptr, &n, &n, MPI_BYTE, nullptr, &n, &n, MPI_BYTE, g,
                              MPI_INFO_NULL, &r);
  return 0;
}]=] FERRY_HAVE_MPI_NEIGHBOR_PERSISTENT)
unset(CMAKE_REQUIRED_LIBRARIES)
if(FERRY_HAVE_MPI_NEIGHBOR_PERSISTENT)
  message(STATUS "MPI persistent neighbourhood collectives (MPI_Neighbor_alltoallv_init): yes")
else()
  message(STATUS "MPI persistent neighbourhood collectives (MPI_Neighbor_alltoallv_init): no, "
                 "this MPI library lacks the MPI-4 call")
endif()
