// NetcdfFile: one open NetCDF file, closed on destruction, every NetCDF call checked.
#pragma once

#include <netcdf.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ferry::io {

/// A NetCDF file opened by this process through the NetCDF-C API. Not collective.
/// Every failing call raises ferry::Error naming the caller (e.g. "FieldFile::read"),
/// the file, what was being done and NetCDF's own text: Errc::Io, or Errc::Arg for a
/// name NetCDF refuses. The destructor closes the file without checking (it runs
/// while an error unwinds); call close() to see a failure to flush.
class NetcdfFile {
 public:
  enum class Mode {
    Read,    ///< an existing file, read-only
    Write,   ///< an existing file, read-write
    Create,  ///< a new NetCDF-4 file, replacing any file of that name; in define mode
    /// A new CDF-5 file (NetCDF classic with 64-bit sizes and types), as Create; laid
    /// out as ParallelNetcdfFile lays it out, so both write the same bytes.
    CreateCdf5,
  };

  NetcdfFile(std::string caller, std::string path, Mode mode);
  ~NetcdfFile();
  NetcdfFile(const NetcdfFile&) = delete;
  NetcdfFile& operator=(const NetcdfFile&) = delete;

  const std::string& caller() const noexcept { return caller_; }
  const std::string& path() const noexcept { return path_; }

  /// Raises the error for a NetCDF status unless it is NC_NOERR; `action` says
  /// what was being done ("reading attribute \"grid\" of variable \"sst\"").
  void check(int status, const std::string& action) const;
  /// Leaves define mode (after defining dimensions, variables and attributes).
  void end_define();
  /// Enters define mode again (to add to an existing file); no-op if already in it.
  void redefine();
  /// Closes the file, raising Errc::Io if the data cannot be flushed.
  void close();

  // Definitions (in define mode; NetCDF-4 files enter it by themselves).
  int define_dim(const std::string& name, std::size_t length);
  int define_var(const std::string& name, nc_type type, const std::vector<int>& dims);
  void put_text_att(int varid, const std::string& name, const std::string& value);
  void put_double_att(int varid, const std::string& name, double value);
  void put_int_att(int varid, const std::string& name, int value);
  void put_int64_att(int varid, const std::string& name, std::int64_t value);

  // Inquiries. varid NC_GLOBAL means the file's own attributes.
  std::optional<int> find_var(const std::string& name) const;
  std::optional<int> find_dim(const std::string& name) const;
  /// Names of every variable, in definition order.
  std::vector<std::string> var_names() const;
  nc_type var_type(int varid) const;
  /// NetCDF's name of a type ("double", "short", ...).
  std::string type_name(nc_type type) const;
  std::vector<int> var_dims(int varid) const;
  std::size_t dim_length(int dimid) const;
  bool dim_is_unlimited(int dimid) const;
  /// Names of the attributes of a variable, in definition order.
  std::vector<std::string> att_names(int varid) const;
  /// The attribute's type and length, or nullopt if the variable has no such attribute.
  std::optional<std::pair<nc_type, std::size_t>> att_shape(int varid,
                                                           const std::string& name) const;
  std::string get_text_att(int varid, const std::string& name) const;
  double get_double_att(int varid, const std::string& name) const;
  std::int64_t get_int64_att(int varid, const std::string& name) const;

  // Data, in the variable's own type (no conversion).
  void put_vara(int varid, const std::vector<std::size_t>& start,
                const std::vector<std::size_t>& count, const void* values);
  void get_vara(int varid, const std::vector<std::size_t>& start,
                const std::vector<std::size_t>& count, void* values) const;

 private:
  /// "variable \"sst\"" or "the file" (for NC_GLOBAL), for messages.
  std::string var_label(int varid) const;

  std::string caller_;
  std::string path_;
  int id_ = -1;
};

}  // namespace ferry::io
