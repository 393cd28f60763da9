#include "ferry/error.hpp"

#include "util/mpi.hpp"

namespace ferry {

const char* errc_name(Errc code) noexcept {
  switch (code) {
    case Errc::Success: return "success";
    case Errc::Arg: return "invalid argument";
    case Errc::ArgSize: return "size mismatch";
    case Errc::ArgRange: return "index out of range";
    case Errc::Duplicate: return "id owned twice";
    case Errc::Missing: return "id not owned by any source";
    case Errc::Overflow: return "integer overflow";
    case Errc::State: return "call in the wrong state";
    case Errc::Mpi: return "MPI error";
    case Errc::Unsupported: return "not supported by this build";
    case Errc::NoMemory: return "out of memory";
    case Errc::Io: return "I/O error";
    case Errc::Internal: return "internal error (a bug in ferry)";
  }
  return "unknown error code";
}

namespace detail {

void throw_mpi_error(int code, const char* call, const char* file, int line) {
  char text[MPI_MAX_ERROR_STRING] = {0};
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) text[0] = '\0';
  throw Error(Errc::Mpi, cat(call, " failed (", file, ":", line, "): ", text,
                             ". Check the MPI installation and the arguments given to ferry"));
}

}  // namespace detail
}  // namespace ferry
