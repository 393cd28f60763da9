// Checked MPI calls and checked integer conversions for MPI counts.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <limits>
#include <string>

#include "ferry/error.hpp"
#include "util/format.hpp"

namespace ferry::detail {

/// Throws Errc::Mpi with the MPI library's text for `code`, naming the call.
[[noreturn]] void throw_mpi_error(int code, const char* call, const char* file, int line);

/// `value` as an MPI count of type T; Errc::Overflow instead of truncating.
template <class T, class V>
T mpi_count(V value, const char* what) {
  if (value < 0 || static_cast<std::uint64_t>(value) >
                       static_cast<std::uint64_t>(std::numeric_limits<T>::max())) {
    throw Error(Errc::Overflow,
                cat(what, ": ", value, " does not fit the MPI count type (max ",
                    std::numeric_limits<T>::max(),
                    "). Split the exchange into smaller fields or use more ranks"));
  }
  return static_cast<T>(value);
}

}  // namespace ferry::detail

/// Calls an MPI function and raises Errc::Mpi if it does not return MPI_SUCCESS.
#define FERRY_CALL_MPI(call)                                                   \
  do {                                                                         \
    int ferry_mpi_rc_ = (call);                                                \
    if (ferry_mpi_rc_ != MPI_SUCCESS)                                          \
      ::ferry::detail::throw_mpi_error(ferry_mpi_rc_, #call, __FILE__, __LINE__); \
  } while (0)
