// ferry::Error and its codes: how every failure in ferry is reported.
#pragma once

#include <stdexcept>
#include <string>

namespace ferry {

/// Stable error codes; the C API returns the same numbers (FERRY_ERR_*).
enum class Errc : int {
  Success = 0,
  Arg = 1,          ///< an argument has a wrong value
  ArgSize = 2,      ///< a size or count does not match
  ArgRange = 3,     ///< an index or id lies outside its range
  Duplicate = 4,    ///< an id is owned by more than one source rank
  Missing = 5,      ///< a destination id has no source
  Overflow = 6,     ///< a size or count does not fit its integer type
  State = 7,        ///< a call in the wrong order, or on a failed object
  Mpi = 8,          ///< the MPI library returned an error
  Unsupported = 9,  ///< the feature is not available in this build or MPI library
  NoMemory = 10,    ///< an allocation failed
  Io = 11,          ///< reading or writing a file failed
  Internal = 12,    ///< a bug in ferry: please report it
};

/// Generic text for an error code (the same as ferry_error_string()).
const char* errc_name(Errc code) noexcept;

/// The exception ferry throws. The code is the stable contract; the message
/// says what was wrong, the values, and how to fix it.
class Error : public std::runtime_error {
 public:
  Error(Errc code, const std::string& message, int rank = -1)
      : std::runtime_error(message), code_(code), rank_(rank) {}
  Errc code() const noexcept { return code_; }
  /// Rank (in the communicator of the failing call) that found the problem, or -1.
  int rank() const noexcept { return rank_; }

 private:
  Errc code_;
  int rank_;
};

}  // namespace ferry
