#include "oasis_grid_files.hpp"

#include <filesystem>

#include "io/netcdf_file.hpp"
#include "util/check.hpp"

namespace ferry::oasis {

namespace {

using io::NetcdfFile;
constexpr const char* kCaller = "oasis_enddef";

struct Variable {
  std::string suffix;
  bool corners;
  const std::vector<double>* real;
  const std::vector<int>* integer;
};

// Adds the grid's variables to one file, keeping those already there.
void add_to_file(const std::string& path, const std::string& name, const GridData& g,
                 const std::vector<Variable>& variables) {
  std::vector<const Variable*> wanted;
  for (const Variable& v : variables)
    if ((v.real && !v.real->empty()) || (v.integer && !v.integer->empty())) wanted.push_back(&v);
  if (wanted.empty()) return;
  const bool existing = std::filesystem::exists(path);
  NetcdfFile file(kCaller, path, existing ? NetcdfFile::Mode::Write : NetcdfFile::Mode::Create);
  file.redefine();
  const auto dim = [&](const std::string& dim_name, std::int64_t length) {
    const auto found = file.find_dim(dim_name);
    return found ? *found : file.define_dim(dim_name, static_cast<std::size_t>(length));
  };
  std::vector<std::pair<const Variable*, int>> written;
  for (const Variable* v : wanted) {
    if (file.find_var(name + v->suffix)) continue;  // never overwritten, as in OASIS
    std::vector<int> dims;
    if (v->corners) dims.push_back(dim("crn_" + name, g.corners));
    dims.push_back(dim("y_" + name, g.ny));
    dims.push_back(dim("x_" + name, g.nx));
    written.emplace_back(v, file.define_var(name + v->suffix, v->real ? NC_DOUBLE : NC_INT, dims));
  }
  file.end_define();
  for (const auto& [v, var] : written) {
    std::vector<std::size_t> start, count;
    if (v->corners) {
      start.push_back(0);
      count.push_back(static_cast<std::size_t>(g.corners));
    }
    start.insert(start.end(), {0, 0});
    count.push_back(static_cast<std::size_t>(g.ny));
    count.push_back(static_cast<std::size_t>(g.nx));
    const std::size_t n = static_cast<std::size_t>(g.nx * g.ny) *
                          static_cast<std::size_t>(v->corners ? g.corners : 1);
    FERRY_CHECK((v->real ? v->real->size() : v->integer->size()) == n, Errc::ArgSize, kCaller,
                ": grid \"", name, "\" variable ", name, v->suffix, " has ",
                v->real ? v->real->size() : v->integer->size(), " values, expected ", n,
                ". Pass arrays of nx x ny (x nc for corners) values");
    if (v->real)
      file.put_vara(var, start, count, v->real->data());
    else
      file.put_vara(var, start, count, v->integer->data());
  }
  file.close();
}

// The values of `var` (any shape) at `ids` of each of `layers` leading slices.
template <class T>
std::vector<T> read_at(NetcdfFile& file, int var, const std::vector<std::int64_t>& ids,
                       std::size_t points, std::size_t layers) {
  const std::vector<int> dims = file.var_dims(var);
  std::vector<std::size_t> start(dims.size(), 0), count;
  std::size_t total = 1;
  for (int d : dims) {
    count.push_back(file.dim_length(d));
    total *= count.back();
  }
  FERRY_CHECK(total == points * layers, Errc::ArgSize, kCaller, ": a variable of \"", file.path(),
              "\" has ", total, " values, expected ", points * layers,
              " for the grid's points. Check the grid files");
  std::vector<T> all(total);
  file.get_vara(var, start, count, all.data());
  std::vector<T> out;
  out.reserve(ids.size() * layers);
  for (std::int64_t id : ids)
    for (std::size_t l = 0; l < layers; ++l)
      out.push_back(all[l * points + static_cast<std::size_t>(id)]);
  return out;
}

}  // namespace

GridData& GridWriter::grid(const std::string& name, std::int64_t nx, std::int64_t ny) {
  GridData& g = grids_[name];
  FERRY_CHECK(nx > 0 && ny > 0, Errc::Arg, "oasis_write_grid: grid \"", name, "\" has nx ", nx,
              " and ny ", ny, "; both must be >= 1");
  FERRY_CHECK(g.nx == 0 || (g.nx == nx && g.ny == ny), Errc::Arg, "oasis_write_*: grid \"", name,
              "\" was given as ", g.nx, " x ", g.ny, ", now as ", nx, " x ", ny);
  g.nx = nx;
  g.ny = ny;
  return g;
}

void GridWriter::write(const std::string& directory) const {
  for (const auto& [name, g] : grids_) {
    add_to_file(directory + "/grids.nc", name, g,
                {{".lon", false, &g.lon, nullptr}, {".lat", false, &g.lat, nullptr},
                 {".clo", true, &g.clo, nullptr}, {".cla", true, &g.cla, nullptr},
                 {".ang", false, &g.angle, nullptr}});
    add_to_file(directory + "/masks.nc", name, g,
                {{".msk", false, nullptr, &g.mask}, {".frc", false, &g.frac, nullptr}});
    add_to_file(directory + "/areas.nc", name, g, {{".srf", false, &g.area, nullptr}});
  }
}

std::pair<std::int64_t, std::int64_t> read_grid_shape(const std::string& directory,
                                                      const std::string& name) {
  NetcdfFile grids(kCaller, directory + "/grids.nc", NetcdfFile::Mode::Read);
  const auto lon = grids.find_var(name + ".lon");
  FERRY_CHECK(lon.has_value(), Errc::Io, kCaller, ": \"", grids.path(), "\" has no variable ", name,
              ".lon, which the remapping of grid \"", name,
              "\" needs. Write it with oasis_write_grid, or put it in the file");
  const std::vector<int> dims = grids.var_dims(*lon);
  const auto nx = static_cast<std::int64_t>(grids.dim_length(dims.back()));
  std::int64_t ny = 1;
  for (std::size_t d = 0; d + 1 < dims.size(); ++d) ny *= static_cast<std::int64_t>(grids.dim_length(dims[d]));
  return {nx, ny};
}

GridPoints read_grid_points(const std::string& directory, const std::string& name,
                            const std::vector<std::int64_t>& ids) {
  GridPoints out;
  NetcdfFile grids(kCaller, directory + "/grids.nc", NetcdfFile::Mode::Read);
  const auto lon = grids.find_var(name + ".lon");
  const auto lat = grids.find_var(name + ".lat");
  FERRY_CHECK(lon && lat, Errc::Io, kCaller, ": \"", grids.path(), "\" has no variables ", name,
              ".lon and ", name, ".lat, which the remapping of grid \"", name,
              "\" needs. Write them with oasis_write_grid, or put them in the file");
  const std::vector<int> dims = grids.var_dims(*lon);
  std::size_t points = 1;
  for (int d : dims) points *= grids.dim_length(d);
  for (std::int64_t id : ids)
    FERRY_CHECK(id >= 0 && static_cast<std::size_t>(id) < points, Errc::ArgSize, kCaller, ": grid \"",
                name, "\" in \"", grids.path(), "\" has ", points, " points; a partition holds id ", id + 1);
  out.lon = read_at<double>(grids, *lon, ids, points, 1);
  out.lat = read_at<double>(grids, *lat, ids, points, 1);
  const auto clo = grids.find_var(name + ".clo");
  const auto cla = grids.find_var(name + ".cla");
  if (clo && cla) {
    const std::vector<int> cdims = grids.var_dims(*clo);
    out.corners = static_cast<int>(grids.dim_length(cdims.front()));
    out.clo = read_at<double>(grids, *clo, ids, points, static_cast<std::size_t>(out.corners));
    out.cla = read_at<double>(grids, *cla, ids, points, static_cast<std::size_t>(out.corners));
  }
  if (std::filesystem::exists(directory + "/masks.nc")) {
    NetcdfFile masks(kCaller, directory + "/masks.nc", NetcdfFile::Mode::Read);
    if (const auto msk = masks.find_var(name + ".msk")) {
      for (int m : read_at<int>(masks, *msk, ids, points, 1)) out.mask.push_back(m == 0 ? 1 : 0);
    }
  }
  if (std::filesystem::exists(directory + "/areas.nc")) {
    NetcdfFile areas(kCaller, directory + "/areas.nc", NetcdfFile::Mode::Read);
    if (const auto srf = areas.find_var(name + ".srf")) out.area = read_at<double>(areas, *srf, ids, points, 1);
  }
  return out;
}

}  // namespace ferry::oasis
