// How a ferry field file stores a field: a NetCDF variable with its dimensions and attributes.
#pragma once

#include <cstdint>
#include <string>

#include "coupling/field_file.hpp"
#include "io/netcdf_file.hpp"

namespace ferry::coupling {

/// Format version written into every field file; files of another version are refused.
inline constexpr const char* kFieldFormatVersion = "ferry-fields-1";
/// Name of the unlimited dimension and of the coordinate variable of output files.
inline constexpr const char* kTimeName = "time";

/// Raises Errc::Arg if `name` cannot be an extra number of a record: it would
/// collide with an attribute ferry writes itself, or with NetCDF's own ("_...").
void check_number_name(const std::string& caller, const std::string& field,
                       const std::string& name);

/// Writes the file's global attributes (format version, writer). In define mode.
void define_file_attributes(io::NetcdfFile& file);
/// Raises Errc::Io unless the file carries ferry's format version `kFieldFormatVersion`.
void check_format_version(const io::NetcdfFile& file);

/// Defines the variable of `record` with dimensions (<name>_points[, <name>_components]),
/// preceded by `time_dim` when it is not -1, and its attributes (grid, global_size,
/// components, numbers; time unless it is a time series). In define mode.
int define_field(io::NetcdfFile& file, const FieldRecord& record, int time_dim);

/// A field variable as found in a file.
struct StoredField {
  int varid = -1;
  bool time_series = false;  ///< the first dimension is the unlimited time dimension
  std::int64_t slices = 0;   ///< time slices written so far (time series only)
  FieldRecord record;        ///< attributes; `time` is 0 for a time series
};

/// Reads variable `name` and its attributes, checking that its shape agrees with
/// them. Raises Errc::Io if it is missing or malformed; `what` names the file for
/// messages ("restart file \"sst.nc\""), `expected` (if not empty) describes the field
/// wanted in the message for a missing one.
StoredField read_field(const io::NetcdfFile& file, const std::string& what, const std::string& name,
                       const std::string& expected = "");

/// Raises Errc::Arg naming the first difference in grid, global size, components or
/// type between the field stored in a file and the one expected, ending with `fix`.
/// `what` names the file ("restart file \"sst.nc\""). Time and numbers are not compared.
void check_same_field(const std::string& caller, const std::string& what, const FieldRecord& stored,
                      const FieldRecord& expected, const std::string& fix);

/// A model time for messages, as short as round-trips exactly ("86400", "0.1").
std::string time_text(double seconds);

}  // namespace ferry::coupling
