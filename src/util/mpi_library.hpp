// Which MPI library this process runs on: for tuning-cache keys, reports and `ferry info`.
#pragma once

#include <string>

namespace ferry::detail {

/// Not collective: the first line of MPI_Get_library_version, trailing blanks removed
/// (e.g. "Open MPI v4.1.4, package: Debian OpenMPI, ...").
std::string mpi_library_version();

/// Not collective: the MPI standard version the library implements, e.g. "3.1".
std::string mpi_standard_version();

}  // namespace ferry::detail
