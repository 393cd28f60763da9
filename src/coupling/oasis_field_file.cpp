#include "coupling/oasis_field_file.hpp"

#include <algorithm>
#include <filesystem>
#include <vector>

#include "io/netcdf_file.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::coupling {

namespace {

using ferry::detail::agree_on;
using ferry::detail::cat;
using io::NetcdfFile;

constexpr const char* kCaller = "OASIS file";

std::size_t values_of(const OasisField& field, std::int64_t points) {
  return static_cast<std::size_t>(points) * static_cast<std::size_t>(field.components);
}

// Point-major (point, component) <-> the file's component-major (component, point).
std::vector<double> transpose(const std::vector<double>& values, std::size_t points, int components,
                              bool to_file) {
  if (components == 1) return values;
  std::vector<double> out(values.size());
  const auto c = static_cast<std::size_t>(components);
  for (std::size_t p = 0; p < points; ++p)
    for (std::size_t k = 0; k < c; ++k) {
      if (to_file)
        out[k * points + p] = values[p * c + k];
      else
        out[p * c + k] = values[k * points + p];
    }
  return out;
}

// The dimensions of a field (outermost first), defined in `file` unless there.
std::vector<int> field_dims(NetcdfFile& file, const OasisField& field, std::int64_t size) {
  std::vector<int> dims;
  const auto dim = [&](const std::string& name, std::int64_t length) {
    const auto found = file.find_dim(name);
    if (found) {
      FERRY_CHECK(file.dim_length(*found) == static_cast<std::size_t>(length), Errc::Arg, kCaller,
                  ": dimension \"", name, "\" of \"", file.path(), "\" has length ",
                  file.dim_length(*found), ", expected ", length,
                  ". Remove the file, or check the grid sizes");
      dims.push_back(*found);
    } else {
      dims.push_back(file.define_dim(name, static_cast<std::size_t>(length)));
    }
  };
  if (field.components > 1) dim(field.name + "_bundle", field.components);
  if (field.nx > 0 && field.ny > 0 && field.nx * field.ny == size) {
    dim(field.name + "_ny", field.ny);
    dim(field.name + "_nx", field.nx);
  } else {
    dim(field.name + "_size", size);
  }
  return dims;
}

std::size_t product(const NetcdfFile& file, const std::vector<int>& dims, std::size_t first) {
  std::size_t n = 1;
  for (std::size_t d = first; d < dims.size(); ++d) n *= file.dim_length(dims[d]);
  return n;
}

// The values of `var` in the box start/count, as doubles: OASIS's files hold double,
// float or (times) int values.
std::vector<double> read_reals(const NetcdfFile& file, int var, const std::vector<std::size_t>& start,
                               const std::vector<std::size_t>& count) {
  std::size_t n = 1;
  for (std::size_t c : count) n *= c;
  std::vector<double> values(n);
  const nc_type type = file.var_type(var);
  const auto convert = [&](auto typed) {
    file.get_vara(var, start, count, typed.data());
    std::copy(typed.begin(), typed.end(), values.begin());
  };
  if (type == NC_DOUBLE)
    file.get_vara(var, start, count, values.data());
  else if (type == NC_FLOAT)
    convert(std::vector<float>(n));
  else if (type == NC_INT)
    convert(std::vector<int>(n));
  else
    throw Error(Errc::Arg, cat(kCaller, ": a variable of \"", file.path(), "\" is of type ",
                               file.type_name(type), "; OASIS files hold double, float or int values"));
  return values;
}

// The values of `var` at the flat (row-major) indices offset + ids[j], in the order of
// `ids`: read as the one box of the variable that covers them (the outer dimensions
// where the first and last index agree fixed, the first where they differ cut to their
// range, the inner ones whole), so that a rank reads its own rows, not the whole field.
std::vector<double> read_points(const NetcdfFile& file, int var, std::size_t offset,
                                const std::vector<std::int64_t>& ids) {
  if (ids.empty()) return {};
  const auto [low, high] = std::minmax_element(ids.begin(), ids.end());
  const std::vector<int> dims = file.var_dims(var);
  std::vector<std::size_t> lengths, first(dims.size()), last(dims.size());
  for (int d : dims) lengths.push_back(file.dim_length(d));
  std::size_t a = offset + static_cast<std::size_t>(*low);
  std::size_t b = offset + static_cast<std::size_t>(*high);
  for (std::size_t d = dims.size(); d-- > 0;) {
    first[d] = a % lengths[d];
    last[d] = b % lengths[d];
    a /= lengths[d];
    b /= lengths[d];
  }
  std::vector<std::size_t> start(dims.size(), 0), count(dims.size(), 1);
  std::size_t d = 0;
  while (d + 1 < dims.size() && first[d] == last[d]) start[d] = first[d], ++d;
  if (!dims.empty()) {
    start[d] = first[d];
    count[d] = last[d] - first[d] + 1;
    for (++d; d < dims.size(); ++d) count[d] = lengths[d];
  }
  std::size_t box = 0;  // the flat index of the box's first value
  for (std::size_t k = 0; k < dims.size(); ++k) box = box * lengths[k] + start[k];
  const std::vector<double> values = read_reals(file, var, start, count);
  std::vector<double> out(ids.size());
  for (std::size_t j = 0; j < ids.size(); ++j)
    out[j] = values[offset + static_cast<std::size_t>(ids[j]) - box];
  return out;
}

// This rank's values of `field` from `var`, whose values (after `offset` ones) are
// component-major (component, point), into `data`: point-major, of the field's type.
void read_field(const NetcdfFile& file, int var, std::size_t offset, const OasisField& field,
                const Layout& layout, void* data) {
  const auto size = static_cast<std::size_t>(layout.global_size());
  const auto components = static_cast<std::size_t>(field.components);
  for (std::size_t k = 0; k < components; ++k) {
    const std::vector<double> values = read_points(file, var, offset + k * size, layout.ids());
    for (std::size_t j = 0; j < values.size(); ++j) {
      if (field.type == Datatype::Float32)
        static_cast<float*>(data)[j * components + k] = static_cast<float>(values[j]);
      else
        static_cast<double*>(data)[j * components + k] = values[j];
    }
  }
}

// OASIS's input files give times in seconds since the start of the run: a "units"
// attribute of the time variable, if there is one, must say so.
void check_seconds(const NetcdfFile& file, int time_var, const std::string& field) {
  const std::vector<std::string> atts = file.att_names(time_var);
  if (std::find(atts.begin(), atts.end(), "units") == atts.end()) return;
  const std::string units = file.get_text_att(time_var, "units");
  const bool seconds = units.rfind("s", 0) == 0 &&
                       (units.size() == 1 || units.rfind("sec", 0) == 0);
  FERRY_CHECK(seconds, Errc::Io, kCaller, ": input file \"", file.path(), "\" of field \"", field,
              "\" gives its times in \"", units, "\"; OASIS's input files give them in seconds "
              "since the start of the run (units \"seconds\" or none). Convert the time variable");
}

}  // namespace

bool OasisFieldFile::exists(const Comm& comm, const std::string& path) {
  int found = comm.rank() == 0 && std::filesystem::exists(path) ? 1 : 0;
  FERRY_CALL_MPI(MPI_Bcast(&found, 1, MPI_INT, 0, comm.get()));
  return found != 0;
}

bool OasisFieldFile::read(const Comm& comm, const std::string& path, const OasisField& field,
                          const Layout& layout, void* data) {
  const std::int64_t size = layout.global_size();
  // Each rank with points reads its own (no exchange); the others agree on the result.
  int found = 1;
  agree_on(comm, [&] {
    if (layout.local_size() == 0) return;
    NetcdfFile file(kCaller, path, NetcdfFile::Mode::Read);
    const auto var = file.find_var(field.name);
    if (!var) {
      found = 0;
      return;
    }
    const std::size_t n = product(file, file.var_dims(*var), 0);
    FERRY_CHECK(n == values_of(field, size), Errc::ArgSize, kCaller, ": variable \"", field.name,
                "\" of \"", path, "\" has ", n, " values, expected ", values_of(field, size), " (",
                size, " points x ", field.components,
                "). Check that the file was written for this grid");
    FERRY_CHECK(file.var_type(*var) == NC_DOUBLE || file.var_type(*var) == NC_FLOAT, Errc::Arg,
                kCaller, ": variable \"", field.name, "\" of \"", path, "\" is of type ",
                file.type_name(file.var_type(*var)), "; restart fields are double or float");
    read_field(file, *var, 0, field, layout, data);
  });
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, &found, 1, MPI_INT, MPI_MIN, comm.get()));
  return found != 0;
}

void OasisFieldFile::read_record(const std::string& path, const OasisField& field,
                                 const Layout& layout, double time, void* data) {
  const std::int64_t size = layout.global_size();
  FERRY_CHECK(std::filesystem::exists(path), Errc::Io, kCaller, ": input file \"", path,
              "\" of field \"", field.name, "\" does not exist. Write it, or correct the "
              "file name of the INPUT entry");
  NetcdfFile file(kCaller, path, NetcdfFile::Mode::Read);
  const auto var = file.find_var(field.name);
  const auto time_var = file.find_var("time");
  FERRY_CHECK(var && time_var, Errc::Io, kCaller, ": input file \"", path,
              "\" has no variable \"", var ? "time" : field.name,
              "\"; it holds the field's records and their times (seconds since the start)");
  const std::vector<int> dims = file.var_dims(*var);
  FERRY_CHECK(file.var_dims(*time_var).size() == 1 && dims.size() >= 2 &&
                  dims.front() == file.var_dims(*time_var).front(),
              Errc::Io, kCaller, ": variable \"", field.name, "\" of \"", path,
              "\" must have the time dimension of time(time) first (time, ny, nx)");
  FERRY_CHECK(file.var_type(*var) == NC_DOUBLE || file.var_type(*var) == NC_FLOAT, Errc::Io,
              kCaller, ": variable \"", field.name, "\" of \"", path, "\" is of type ",
              file.type_name(file.var_type(*var)), "; input fields are double or float");
  check_seconds(file, *time_var, field.name);
  const std::size_t records = file.dim_length(dims.front());
  const std::vector<double> times = read_reals(file, *time_var, {0}, {records});
  const auto record = std::find(times.begin(), times.end(), time);
  FERRY_CHECK(record != times.end(), Errc::Io, kCaller, ": input file \"", path,
              "\" has no record at time ", time, " of field \"", field.name,
              "\"; give one at every input period");
  const std::size_t n = product(file, dims, 1);
  FERRY_CHECK(n == values_of(field, size), Errc::ArgSize, kCaller, ": variable \"", field.name,
              "\" of \"", path, "\" has ", n, " values per record, expected ",
              values_of(field, size), ". Check that the file was written for this grid");
  read_field(file, *var, static_cast<std::size_t>(record - times.begin()) * n, field, layout, data);
}

void OasisFieldFile::write(const Comm& comm, const std::string& path, const OasisField& field,
                           const Layout& layout, const void* data) {
  const std::int64_t size = layout.global_size();
  const std::vector<double> whole =
      RootGather(comm, layout).gather({field.type, field.components}, data);
  agree_on(comm, [&] {
    if (comm.rank() != 0) return;
    const bool existing = std::filesystem::exists(path);
    NetcdfFile file(kCaller, path, existing ? NetcdfFile::Mode::Write : NetcdfFile::Mode::Create);
    file.redefine();
    auto var = file.find_var(field.name);
    std::vector<int> dims = var ? file.var_dims(*var) : field_dims(file, field, size);
    if (!var) var = file.define_var(field.name, NC_DOUBLE, dims);
    FERRY_CHECK(product(file, dims, 0) == values_of(field, size), Errc::ArgSize, kCaller,
                ": variable \"", field.name, "\" of \"", path, "\" has ", product(file, dims, 0),
                " values, expected ", values_of(field, size),
                ". Remove the old file, or check the grid sizes");
    file.end_define();
    std::vector<std::size_t> start(dims.size(), 0), count;
    for (int d : dims) count.push_back(file.dim_length(d));
    const std::vector<double> stored =
        transpose(whole, static_cast<std::size_t>(size), field.components, true);
    if (file.var_type(*var) == NC_DOUBLE) {
      file.put_vara(*var, start, count, stored.data());
    } else {
      const std::vector<float> single(stored.begin(), stored.end());
      file.put_vara(*var, start, count, single.data());
    }
    file.close();
  });
}

void OasisFieldFile::write_count(const Comm& comm, const std::string& path, const std::string& name,
                                 int count) {
  agree_on(comm, [&] {
    if (comm.rank() != 0) return;
    const bool existing = std::filesystem::exists(path);
    NetcdfFile file(kCaller, path, existing ? NetcdfFile::Mode::Write : NetcdfFile::Mode::Create);
    file.redefine();
    auto var = file.find_var(name);
    if (!var) {
      const auto dim = file.find_dim(name + "_ncnt");
      var = file.define_var(name, NC_INT, {dim ? *dim : file.define_dim(name + "_ncnt", 1)});
    }
    file.end_define();
    file.put_vara(*var, {0}, {1}, &count);
    file.close();
  });
}

bool OasisFieldFile::read_count(const Comm& comm, const std::string& path, const std::string& name,
                                int& count) {
  int found[2] = {0, 0};
  agree_on(comm, [&] {
    if (comm.rank() != 0) return;
    NetcdfFile file(kCaller, path, NetcdfFile::Mode::Read);
    const auto var = file.find_var(name);
    if (!var) return;
    found[0] = 1;
    file.get_vara(*var, {0}, {1}, &found[1]);
  });
  FERRY_CALL_MPI(MPI_Bcast(found, 2, MPI_INT, 0, comm.get()));
  count = found[1];
  return found[0] != 0;
}

void OasisFieldFile::append(RootGather& gather, const std::string& path, const OasisField& field,
                            double time, const void* data, bool replace) {
  const Comm& comm = gather.comm();
  const std::int64_t size = gather.global_size();
  const std::vector<double> whole = gather.gather({field.type, field.components}, data);
  agree_on(comm, [&] {
    if (comm.rank() != 0) return;
    const bool existing = !replace && std::filesystem::exists(path);
    NetcdfFile file(kCaller, path, existing ? NetcdfFile::Mode::Write : NetcdfFile::Mode::Create);
    int time_var = -1;
    int var = -1;
    std::vector<int> dims;
    if (!existing) {
      const int record = file.define_dim("time", NC_UNLIMITED);
      time_var = file.define_var("time", NC_INT, {record});
      dims.push_back(record);
      if (field.components > 1) dims.push_back(file.define_dim("nbundle", static_cast<std::size_t>(field.components)));
      if (field.nx > 0 && field.ny > 0 && field.nx * field.ny == size) {
        dims.push_back(file.define_dim("ny", static_cast<std::size_t>(field.ny)));
        dims.push_back(file.define_dim("nx", static_cast<std::size_t>(field.nx)));
      } else {
        dims.push_back(file.define_dim("nx", static_cast<std::size_t>(size)));
      }
      var = file.define_var(field.name, NC_DOUBLE, dims);
      file.end_define();
    } else {
      const auto t = file.find_var("time");
      const auto v = file.find_var(field.name);
      FERRY_CHECK(t && v, Errc::Io, kCaller, ": output file \"", path,
                  "\" exists but has no variables \"time\" and \"", field.name,
                  "\". Remove the file left by another run");
      time_var = *t;
      var = *v;
      dims = file.var_dims(var);
      FERRY_CHECK(product(file, dims, 1) == values_of(field, size), Errc::ArgSize, kCaller,
                  ": output file \"", path, "\" holds ", product(file, dims, 1),
                  " values per record of \"", field.name, "\", expected ", values_of(field, size),
                  ". Remove the file left by another run");
    }
    const std::size_t slice = file.dim_length(dims.front());
    const int stamp = static_cast<int>(time);
    file.put_vara(time_var, {slice}, {1}, &stamp);
    std::vector<std::size_t> start(dims.size(), 0), count{1};
    start[0] = slice;
    for (std::size_t d = 1; d < dims.size(); ++d) count.push_back(file.dim_length(dims[d]));
    const std::vector<double> stored =
        transpose(whole, static_cast<std::size_t>(size), field.components, true);
    file.put_vara(var, start, count, stored.data());
    file.close();
  });
}

}  // namespace ferry::coupling
