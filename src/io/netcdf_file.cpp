#include "io/netcdf_file.hpp"

#include <cerrno>
#include <utility>

#include "util/check.hpp"

namespace ferry::io {

using ferry::detail::cat;

namespace {

// What to do about a file that cannot be opened or created, by the reason NetCDF gives.
std::string open_hint(int status, bool creating) {
  if (creating)
    return "Check that the directory exists and is writable, and that the disk is not full";
  if (status == ENOENT) return "Check the path and the working directory";
  if (status == EACCES) return "Check the file's permissions";
  if (status == NC_ENOTNC) return "The file is not a NetCDF file; check the path";
  return "Check that the file is a complete NetCDF file (an interrupted run may leave a "
         "damaged one)";
}

}  // namespace

NetcdfFile::NetcdfFile(std::string caller, std::string path, Mode mode)
    : caller_(std::move(caller)), path_(std::move(path)) {
  int status = NC_NOERR;
  const bool create = mode == Mode::Create || mode == Mode::CreateCdf5;
  if (create) {
    status = nc_create(path_.c_str(),
                       (mode == Mode::Create ? NC_NETCDF4 : NC_64BIT_DATA) | NC_CLOBBER, &id_);
  } else {
    status = nc_open(path_.c_str(), mode == Mode::Write ? NC_WRITE : NC_NOWRITE, &id_);
  }
  if (status != NC_NOERR) {
    id_ = -1;
    throw Error(Errc::Io, cat(caller_, ": cannot ", create ? "create" : "open", " \"", path_,
                              "\": ", nc_strerror(status), ". ", open_hint(status, create)));
  }
  if (create) {
    // Every value of a new file is written by ferry: skip writing fill values first.
    int old_mode = 0;
    check(nc_set_fill(id_, NC_NOFILL, &old_mode), "setting no-fill mode for");
  }
}

NetcdfFile::~NetcdfFile() {
  if (id_ >= 0) nc_close(id_);
}

void NetcdfFile::check(int status, const std::string& action) const {
  if (status == NC_NOERR) return;
  if (status == NC_EBADNAME || status == NC_EMAXNAME) {
    throw Error(Errc::Arg, cat(caller_, ": ", action, " \"", path_, "\" failed: ",
                               nc_strerror(status),
                               ". Name fields and numbers with letters, digits and "
                               "underscores (at most ",
                               NC_MAX_NAME, " characters)"));
  }
  throw Error(Errc::Io, cat(caller_, ": ", action, " \"", path_, "\" failed: ",
                            nc_strerror(status), ". Check the file system (space, quota, "
                                                 "permissions) and that the file is not damaged"));
}

void NetcdfFile::end_define() { check(nc_enddef(id_), "finishing the definitions of"); }

void NetcdfFile::redefine() {
  const int status = nc_redef(id_);
  if (status != NC_EINDEFINE) check(status, "entering define mode of");
}

std::optional<int> NetcdfFile::find_dim(const std::string& name) const {
  int dimid = -1;
  const int status = nc_inq_dimid(id_, name.c_str(), &dimid);
  if (status == NC_EBADDIM) return std::nullopt;
  check(status, cat("looking up dimension \"", name, "\" in"));
  return dimid;
}

void NetcdfFile::close() {
  const int id = std::exchange(id_, -1);
  check(nc_close(id), "closing");
}

int NetcdfFile::define_dim(const std::string& name, std::size_t length) {
  int dimid = -1;
  check(nc_def_dim(id_, name.c_str(), length, &dimid), cat("defining dimension \"", name, "\" in"));
  return dimid;
}

int NetcdfFile::define_var(const std::string& name, nc_type type, const std::vector<int>& dims) {
  int varid = -1;
  check(nc_def_var(id_, name.c_str(), type, static_cast<int>(dims.size()), dims.data(), &varid),
        cat("defining variable \"", name, "\" in"));
  return varid;
}

void NetcdfFile::put_text_att(int varid, const std::string& name, const std::string& value) {
  check(nc_put_att_text(id_, varid, name.c_str(), value.size(), value.data()),
        cat("writing attribute \"", name, "\" of ", var_label(varid), " in"));
}

void NetcdfFile::put_double_att(int varid, const std::string& name, double value) {
  check(nc_put_att_double(id_, varid, name.c_str(), NC_DOUBLE, 1, &value),
        cat("writing attribute \"", name, "\" of ", var_label(varid), " in"));
}

void NetcdfFile::put_int_att(int varid, const std::string& name, int value) {
  check(nc_put_att_int(id_, varid, name.c_str(), NC_INT, 1, &value),
        cat("writing attribute \"", name, "\" of ", var_label(varid), " in"));
}

void NetcdfFile::put_int64_att(int varid, const std::string& name, std::int64_t value) {
  const auto v = static_cast<long long>(value);
  check(nc_put_att_longlong(id_, varid, name.c_str(), NC_INT64, 1, &v),
        cat("writing attribute \"", name, "\" of ", var_label(varid), " in"));
}

std::optional<int> NetcdfFile::find_var(const std::string& name) const {
  int varid = -1;
  const int status = nc_inq_varid(id_, name.c_str(), &varid);
  if (status == NC_ENOTVAR) return std::nullopt;
  check(status, cat("looking up variable \"", name, "\" in"));
  return varid;
}

std::vector<std::string> NetcdfFile::var_names() const {
  int count = 0;
  check(nc_inq_nvars(id_, &count), "listing the variables of");
  std::vector<std::string> names;
  for (int varid = 0; varid < count; ++varid) {
    char name[NC_MAX_NAME + 1] = {};
    check(nc_inq_varname(id_, varid, name), "listing the variables of");
    names.emplace_back(name);
  }
  return names;
}

nc_type NetcdfFile::var_type(int varid) const {
  nc_type type = NC_NAT;
  check(nc_inq_vartype(id_, varid, &type), cat("reading the type of ", var_label(varid), " in"));
  return type;
}

std::string NetcdfFile::type_name(nc_type type) const {
  char name[NC_MAX_NAME + 1] = {};
  if (nc_inq_type(id_, type, name, nullptr) != NC_NOERR) return cat("#", type);
  return name;
}

std::vector<int> NetcdfFile::var_dims(int varid) const {
  int ndims = 0;
  check(nc_inq_varndims(id_, varid, &ndims), cat("reading the shape of ", var_label(varid), " in"));
  std::vector<int> dims(static_cast<std::size_t>(ndims));
  check(nc_inq_vardimid(id_, varid, dims.data()),
        cat("reading the shape of ", var_label(varid), " in"));
  return dims;
}

std::size_t NetcdfFile::dim_length(int dimid) const {
  std::size_t length = 0;
  check(nc_inq_dimlen(id_, dimid, &length), "reading a dimension of");
  return length;
}

bool NetcdfFile::dim_is_unlimited(int dimid) const {
  int count = 0;
  check(nc_inq_unlimdims(id_, &count, nullptr), "looking up the unlimited dimensions of");
  std::vector<int> unlimited(static_cast<std::size_t>(count));
  check(nc_inq_unlimdims(id_, &count, unlimited.data()), "looking up the unlimited dimensions of");
  for (int u : unlimited)
    if (u == dimid) return true;
  return false;
}

std::vector<std::string> NetcdfFile::att_names(int varid) const {
  int count = 0;
  check(nc_inq_varnatts(id_, varid, &count),
        cat("listing the attributes of ", var_label(varid), " in"));
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) {
    char name[NC_MAX_NAME + 1] = {};
    check(nc_inq_attname(id_, varid, i, name),
          cat("listing the attributes of ", var_label(varid), " in"));
    names.emplace_back(name);
  }
  return names;
}

std::optional<std::pair<nc_type, std::size_t>> NetcdfFile::att_shape(
    int varid, const std::string& name) const {
  nc_type type = NC_NAT;
  std::size_t length = 0;
  const int status = nc_inq_att(id_, varid, name.c_str(), &type, &length);
  if (status == NC_ENOTATT) return std::nullopt;
  check(status, cat("reading attribute \"", name, "\" of ", var_label(varid), " in"));
  return std::make_pair(type, length);
}

std::string NetcdfFile::get_text_att(int varid, const std::string& name) const {
  const auto shape = att_shape(varid, name);
  FERRY_CHECK(shape && shape->first == NC_CHAR, Errc::Io, caller_, ": ", var_label(varid), " in \"",
              path_, "\" has no text attribute \"", name,
              "\". The file was not written by ferry's FieldFile, or was edited since");
  std::string value(shape->second, '\0');
  check(nc_get_att_text(id_, varid, name.c_str(), value.data()),
        cat("reading attribute \"", name, "\" of ", var_label(varid), " in"));
  return value;
}

double NetcdfFile::get_double_att(int varid, const std::string& name) const {
  const auto shape = att_shape(varid, name);
  FERRY_CHECK(shape && shape->first == NC_DOUBLE && shape->second == 1, Errc::Io, caller_, ": ",
              var_label(varid), " in \"", path_, "\" has no double attribute \"", name,
              "\". The file was not written by ferry's FieldFile, or was edited since");
  double value = 0;
  check(nc_get_att_double(id_, varid, name.c_str(), &value),
        cat("reading attribute \"", name, "\" of ", var_label(varid), " in"));
  return value;
}

std::int64_t NetcdfFile::get_int64_att(int varid, const std::string& name) const {
  const auto shape = att_shape(varid, name);
  const bool integer = shape && (shape->first == NC_INT || shape->first == NC_INT64);
  FERRY_CHECK(integer && shape->second == 1, Errc::Io, caller_, ": ", var_label(varid), " in \"",
              path_, "\" has no integer attribute \"", name,
              "\". The file was not written by ferry's FieldFile, or was edited since");
  long long value = 0;
  check(nc_get_att_longlong(id_, varid, name.c_str(), &value),
        cat("reading attribute \"", name, "\" of ", var_label(varid), " in"));
  return static_cast<std::int64_t>(value);
}

void NetcdfFile::put_vara(int varid, const std::vector<std::size_t>& start,
                          const std::vector<std::size_t>& count, const void* values) {
  check(nc_put_vara(id_, varid, start.data(), count.data(), values),
        cat("writing values of ", var_label(varid), " to"));
}

void NetcdfFile::get_vara(int varid, const std::vector<std::size_t>& start,
                          const std::vector<std::size_t>& count, void* values) const {
  check(nc_get_vara(id_, varid, start.data(), count.data(), values),
        cat("reading values of ", var_label(varid), " from"));
}

std::string NetcdfFile::var_label(int varid) const {
  if (varid == NC_GLOBAL) return "the file";
  char name[NC_MAX_NAME + 1] = {};
  if (nc_inq_varname(id_, varid, name) != NC_NOERR) return cat("variable #", varid);
  return cat("variable \"", name, "\"");
}

}  // namespace ferry::io
