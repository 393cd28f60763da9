// Which MPI library a run used, for reports and `ferry info`.
#pragma once

#include <string>

namespace ferry::bench {

/// Not collective: the first line of MPI_Get_library_version (e.g. "Open MPI v4.1.5, ...").
std::string mpi_library_version();

/// Not collective: the MPI standard version the library implements, e.g. "3.1".
std::string mpi_standard_version();

}  // namespace ferry::bench
