#include "coupling/field_variable.hpp"

#include <array>
#include <charconv>
#include <climits>
#include <optional>
#include <vector>

#include "ferry/config.hpp"
#include "util/check.hpp"

namespace ferry::coupling {

using ferry::detail::cat;

namespace {

// Attributes ferry writes on a field variable; everything else of type double is a number.
constexpr std::array<const char*, 4> kReservedAttributes = {"grid", "global_size", "components",
                                                            "time"};

bool reserved(const std::string& name) {
  for (const char* r : kReservedAttributes)
    if (name == r) return true;
  return false;
}

nc_type nc_type_of(Datatype type) {
  switch (type) {
    case Datatype::Float64: return NC_DOUBLE;
    case Datatype::Float32: return NC_FLOAT;
    case Datatype::Int32: return NC_INT;
    case Datatype::Int64: return NC_INT64;
  }
  return NC_NAT;
}

std::optional<Datatype> datatype_of(nc_type type) {
  switch (type) {
    case NC_DOUBLE: return Datatype::Float64;
    case NC_FLOAT: return Datatype::Float32;
    case NC_INT: return Datatype::Int32;
    case NC_INT64: return Datatype::Int64;
    default: return std::nullopt;
  }
}

constexpr const char* kNotFerry =
    ". The file was not written by ferry's FieldFile, or was edited since";

}  // namespace

void check_number_name(const std::string& caller, const std::string& field,
                       const std::string& name) {
  FERRY_CHECK(!name.empty() && name[0] != '_' && !reserved(name), Errc::Arg, caller, ": field \"",
              field, "\" has an extra number named \"", name,
              "\", a name taken by ferry (grid, global_size, components, time) or NetCDF "
              "(empty, or starting with '_'). Rename the number");
}

void define_file_attributes(io::NetcdfFile& file) {
  file.put_text_att(NC_GLOBAL, "ferry_format_version", kFieldFormatVersion);
  file.put_text_att(NC_GLOBAL, "source", cat("ferry ", FERRY_VERSION_STRING));
}

void check_format_version(const io::NetcdfFile& file) {
  const auto shape = file.att_shape(NC_GLOBAL, "ferry_format_version");
  FERRY_CHECK(shape && shape->first == NC_CHAR, Errc::Io, file.caller(), ": \"", file.path(),
              "\" has no global attribute ferry_format_version, so it was not written by "
              "ferry's FieldFile. Check the path, or write the file with FieldFile");
  const std::string version = file.get_text_att(NC_GLOBAL, "ferry_format_version");
  FERRY_CHECK(version == kFieldFormatVersion, Errc::Io, file.caller(), ": \"", file.path(),
              "\" has format version \"", version, "\", this ferry (", FERRY_VERSION_STRING,
              ") reads \"", kFieldFormatVersion,
              "\" only. Write the file again with this version of ferry");
}

int define_field(io::NetcdfFile& file, const FieldRecord& record, int time_dim) {
  std::vector<int> dims;
  if (time_dim != -1) dims.push_back(time_dim);
  dims.push_back(file.define_dim(record.name + "_points",
                                 static_cast<std::size_t>(record.global_size)));
  if (record.components > 1)
    dims.push_back(file.define_dim(record.name + "_components",
                                   static_cast<std::size_t>(record.components)));
  const int varid = file.define_var(record.name, nc_type_of(record.type), dims);
  file.put_text_att(varid, "grid", record.grid);
  file.put_int64_att(varid, "global_size", record.global_size);
  file.put_int_att(varid, "components", record.components);
  if (time_dim == -1) file.put_double_att(varid, "time", record.time);
  for (const auto& [name, value] : record.numbers) file.put_double_att(varid, name, value);
  return varid;
}

StoredField read_field(const io::NetcdfFile& file, const std::string& what, const std::string& name,
                       const std::string& expected) {
  const std::optional<int> found = file.find_var(name);
  if (!found) {
    std::vector<std::string> fields;
    for (const std::string& var : file.var_names())
      if (var != kTimeName) fields.push_back(cat("\"", var, "\""));
    throw Error(Errc::Io,
                cat(file.caller(), ": ", what, " has no field \"", name, "\"",
                    expected.empty() ? "" : " (expected " + expected + ")", "; it holds ",
                    fields.empty() ? "none" : ferry::detail::list_first(fields, 8),
                    ". Check the field name, or the file name"));
  }
  StoredField stored;
  stored.varid = *found;
  FieldRecord& r = stored.record;
  r.name = name;

  const nc_type type = file.var_type(stored.varid);
  const std::optional<Datatype> datatype = datatype_of(type);
  FERRY_CHECK(datatype, Errc::Io, file.caller(), ": ", what, ": variable \"", name,
              "\" has NetCDF type ", file.type_name(type),
              ", not one of double, float, int, int64 (the types ferry writes)", kNotFerry);
  r.type = *datatype;
  r.grid = file.get_text_att(stored.varid, "grid");
  r.global_size = file.get_int64_att(stored.varid, "global_size");
  const std::int64_t components = file.get_int64_att(stored.varid, "components");
  FERRY_CHECK(components >= 1 && components <= INT_MAX, Errc::Io, file.caller(), ": ", what,
              ": variable \"", name, "\" has components = ", components, kNotFerry);
  r.components = static_cast<int>(components);

  std::vector<int> dims = file.var_dims(stored.varid);
  stored.time_series = !dims.empty() && file.dim_is_unlimited(dims.front());
  if (stored.time_series) {
    stored.slices = static_cast<std::int64_t>(file.dim_length(dims.front()));
    dims.erase(dims.begin());
  } else {
    r.time = file.get_double_att(stored.varid, "time");
  }
  const std::size_t rank = r.components > 1 ? 2 : 1;
  const bool shape_ok =
      dims.size() == rank &&
      file.dim_length(dims[0]) == static_cast<std::size_t>(r.global_size) &&
      (rank == 1 || file.dim_length(dims[1]) == static_cast<std::size_t>(r.components));
  FERRY_CHECK(shape_ok, Errc::Io, file.caller(), ": ", what, ": the shape of variable \"", name,
              "\" disagrees with its attributes global_size = ", r.global_size,
              " and components = ", r.components, kNotFerry);

  for (const std::string& att : file.att_names(stored.varid)) {
    if (reserved(att)) continue;
    const auto shape = file.att_shape(stored.varid, att);
    if (shape && shape->first == NC_DOUBLE && shape->second == 1)
      r.numbers[att] = file.get_double_att(stored.varid, att);
  }
  return stored;
}

void check_same_field(const std::string& caller, const std::string& what,
                      const FieldRecord& stored, const FieldRecord& expected,
                      const std::string& fix) {
  const std::string holds = cat(caller, ": ", what, " holds field \"", stored.name, "\"");
  FERRY_CHECK(stored.grid == expected.grid, Errc::Arg, holds, " on grid \"", stored.grid,
              "\", expected grid \"", expected.grid, "\". ", fix);
  FERRY_CHECK(stored.global_size == expected.global_size, Errc::Arg, holds, " with ",
              stored.global_size, " points, expected ", expected.global_size, " (grid \"",
              expected.grid, "\"). ", fix);
  FERRY_CHECK(stored.components == expected.components, Errc::Arg, holds, " with components = ",
              stored.components, ", expected ", expected.components, ". ", fix);
  FERRY_CHECK(stored.type == expected.type, Errc::Arg, holds, " as ", datatype_name(stored.type),
              " values, expected ", datatype_name(expected.type), ". ", fix);
}

std::string time_text(double seconds) {
  std::array<char, 32> text{};
  const auto result = std::to_chars(text.data(), text.data() + text.size(), seconds);
  return std::string(text.data(), result.ptr);
}

}  // namespace ferry::coupling
