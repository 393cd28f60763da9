#include "util/mpi_library.hpp"

#include <mpi.h>

#include "util/format.hpp"
#include "util/mpi.hpp"

namespace ferry::detail {

std::string mpi_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
  int length = 0;
  FERRY_CALL_MPI(MPI_Get_library_version(text, &length));
  std::string version(text, static_cast<std::size_t>(length));
  version = version.substr(0, version.find('\n'));
  while (!version.empty() && (version.back() == ' ' || version.back() == '\0'))
    version.pop_back();
  return version;
}

std::string mpi_standard_version() {
  int major = 0;
  int minor = 0;
  FERRY_CALL_MPI(MPI_Get_version(&major, &minor));
  return cat(major, ".", minor);
}

}  // namespace ferry::detail
