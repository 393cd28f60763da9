// ParallelNetcdfFile: a new CDF-5 file written collectively by PnetCDF (built only
// when FERRY_HAVE_PNETCDF).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>
#include <vector>

#include "ferry/comm.hpp"

namespace ferry::io {

/// Every call is collective over the communicator the file was created on, with the
/// same definitions on every rank; a failed call raises Errc::Io naming `caller` and
/// the file. The header and the variables are laid out as NetCDF-C lays out a CDF-5
/// file (NetcdfFile::Mode::CreateCdf5: no fill, 4-byte alignment), so the same
/// definitions and values give the same bytes.
class ParallelNetcdfFile {
 public:
  /// Creates `path`, replacing any file of that name; in define mode.
  ParallelNetcdfFile(const Comm& comm, std::string caller, std::string path);
  /// Does not close: closing is collective, and a destructor must not wait for
  /// ranks that may be gone. Call close() on every rank.
  ~ParallelNetcdfFile() = default;
  ParallelNetcdfFile(const ParallelNetcdfFile&) = delete;
  ParallelNetcdfFile& operator=(const ParallelNetcdfFile&) = delete;

  const std::string& caller() const noexcept { return caller_; }
  const std::string& path() const noexcept { return path_; }

  int define_dim(const std::string& name, std::size_t length);
  /// `type` is a NetCDF type (NC_INT, NC_INT64, NC_DOUBLE).
  int define_var(const std::string& name, int type, const std::vector<int>& dims);
  void put_text_att(int varid, const std::string& name, const std::string& value);
  void end_define();
  /// The id of the variable `name` (Errc::Io if there is none). Not collective.
  int varid(const std::string& name) const;
  /// How many dimensions variable `varid` has. Not collective.
  int var_dim_count(int varid) const;
  /// This rank's `count` values from `start` of variable `varid`, of MPI type `type`
  /// (the variable's); a rank with nothing to write gives zero counts.
  void put_vara_all(int varid, const std::vector<std::size_t>& start,
                    const std::vector<std::size_t>& count, const void* values,
                    MPI_Datatype type);
  void close();

 private:
  void check(int status, const std::string& action) const;

  std::string caller_;
  std::string path_;
  int id_ = -1;
};

}  // namespace ferry::io
