# Probes the MPI library for the features optional engines need and records
# the answers in ferry/config.hpp (FERRY_HAVE_*).
include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_LIBRARIES MPI::MPI_CXX)

# SimGrid's SMPI declares these calls but aborts when they run ("Not yet
# implemented"), which no compile probe can see; SMPI_SAMPLE_LOCAL marks its mpi.h.
check_cxx_source_compiles([=[
#include <mpi.h>
#ifdef SMPI_SAMPLE_LOCAL
#error SMPI does not implement MPI_Dist_graph_create_adjacent
#endif
int main() {
  MPI_Comm g; int r = 0;
  MPI_Dist_graph_create_adjacent(MPI_COMM_SELF, 1, &r, MPI_UNWEIGHTED, 1, &r,
                                 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g);
  MPI_Neighbor_alltoallv(nullptr, &r, &r, MPI_BYTE, nullptr, &r, &r, MPI_BYTE, g);
  return 0;
}]=] FERRY_HAVE_MPI_NEIGHBOR)

check_cxx_source_compiles([=[
#include <mpi.h>
int main() {
  MPI_Win w; void* p = nullptr; MPI_Aint s = 0; int d = 0;
  MPI_Win_allocate_shared(8, 1, MPI_INFO_NULL, MPI_COMM_SELF, &p, &w);
  MPI_Win_shared_query(w, 0, &s, &d, &p);
  MPI_Comm c; MPI_Comm_split_type(MPI_COMM_SELF, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c);
  return 0;
}]=] FERRY_HAVE_MPI_SHARED_WINDOW)

unset(CMAKE_REQUIRED_LIBRARIES)
foreach(flag FERRY_HAVE_MPI_NEIGHBOR FERRY_HAVE_MPI_SHARED_WINDOW)
  if(${flag})
    set(${flag}_VALUE 1)
  else()
    set(${flag}_VALUE 0)
  endif()
endforeach()
