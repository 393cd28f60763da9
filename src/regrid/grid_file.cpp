// read_grid: a grid's cells from an OASIS, SCRIP or unstructured grid file, by blocks.
#include "ferry/grid_file.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "regrid/blocks.hpp"
#include "regrid/netcdf_values.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"

namespace ferry {

namespace {

using regrid::detail::Blocks;
using regrid::detail::NetcdfFile;

const char* const kCaller = "read_grid";
constexpr double kDegreesPerRadian = 180 / 3.14159265358979323846;

// The names one format gives a grid's variables.
struct Names {
  std::string lon, lat, corner_lon, corner_lat, mask, area;
};

int variable(const NetcdfFile& file, const std::string& name) {
  const std::optional<int> id = file.find_var(name);
  FERRY_CHECK(id, Errc::Io, kCaller, ": \"", file.path(), "\" has no variable \"", name,
              "\". Check the file and the grid's name and format");
  return *id;
}

std::vector<std::size_t> shape(const NetcdfFile& file, int varid) {
  std::vector<std::size_t> out;
  for (int dim : file.var_dims(varid)) out.push_back(file.dim_length(dim));
  return out;
}

// Degrees per unit of a coordinate variable: 1 or 180 / pi, from its units (`fallback`
// if it has none; 0 for no fallback).
double degrees_per_unit(const NetcdfFile& file, int varid, const std::string& name,
                        double fallback) {
  std::string units;
  if (file.att_shape(varid, "units")) units = file.get_text_att(varid, "units");
  std::transform(units.begin(), units.end(), units.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (units.rfind("rad", 0) == 0) return kDegreesPerRadian;
  if (units.rfind("deg", 0) == 0) return 1;
  FERRY_CHECK(units.empty() && fallback > 0, Errc::Arg, kCaller, ": variable \"", name, "\" of \"",
              file.path(), "\" has units \"", units,
              "\"; give coordinates in degrees or radians, with a units attribute saying which");
  return fallback;
}

// The values of cells first .. first + count - 1 of a variable whose last dimensions
// are the grid's (cells), or (y, x) for a 2-D grid of nx columns; `leading` is the
// length of a dimension before them (corners of an OASIS file), read whole; `trailing`
// that of one after them (corners of a SCRIP file). Values come out cell after cell,
// the `leading` or `trailing` ones of a cell together.
std::vector<double> read_cells(const NetcdfFile& file, int varid, std::int64_t nx,
                               std::int64_t first, std::int64_t count, std::size_t leading,
                               std::size_t trailing) {
  std::vector<double> out(static_cast<std::size_t>(count) * std::max(leading, trailing));
  if (count == 0) return out;
  const std::size_t dims = file.var_dims(varid).size();
  std::vector<std::size_t> start(dims, 0);
  std::vector<std::size_t> span = shape(file, varid);
  // Rows j0 .. j1 of a 2-D grid hold the block; a 1-D grid is one row of its cells.
  const std::int64_t row = nx > 0 ? nx : count;
  const std::int64_t j0 = nx > 0 ? first / nx : 0;
  const std::int64_t j1 = nx > 0 ? (first + count - 1) / nx : 0;
  const std::size_t at = leading > 1 ? 1 : 0;  // the first grid dimension
  if (nx > 0) {
    start[at] = static_cast<std::size_t>(j0);
    span[at] = static_cast<std::size_t>(j1 - j0 + 1);
  } else {
    start[at] = static_cast<std::size_t>(first);
    span[at] = static_cast<std::size_t>(count);
  }
  const nc_type type = file.var_type(varid);
  FERRY_CHECK(regrid::detail::is_real_type(type) || regrid::detail::is_integer_type(type),
              Errc::Io, kCaller, ": variable ", varid, " of \"", file.path(), "\" has type ",
              file.type_name(type), "; grid variables are numbers");
  const std::vector<double> slab = regrid::detail::read_numbers(file, varid, start, span);
  const std::int64_t skip = nx > 0 ? first - j0 * nx : 0;
  const auto cells_in_slab = static_cast<std::size_t>((j1 - j0 + 1) * row);
  for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i) {
    const std::size_t cell = i + static_cast<std::size_t>(skip);
    if (leading > 1)
      for (std::size_t k = 0; k < leading; ++k) out[i * leading + k] = slab[k * cells_in_slab + cell];
    else if (trailing > 1)
      for (std::size_t k = 0; k < trailing; ++k) out[i * trailing + k] = slab[cell * trailing + k];
    else
      out[i] = slab[cell];
  }
  return out;
}

std::vector<double> scaled(std::vector<double> v, double factor) {
  if (factor != 1)
    for (double& x : v) x *= factor;
  return v;
}

GridFormat recognise(const NetcdfFile& file, const GridSource& source) {
  if (source.format != GridFormat::Auto) return source.format;
  if (!source.name.empty() && file.find_var(source.name + ".lon")) return GridFormat::Oasis;
  if (file.find_var("grid_center_lat")) return GridFormat::Scrip;
  if (file.find_var("clon")) return GridFormat::Unstructured;
  throw Error(Errc::Io,
              detail::cat(kCaller, ": \"", file.path(), "\" is not a grid file ferry knows: it has ",
                          source.name.empty() ? "" : detail::cat("no \"", source.name, ".lon\", "),
                          "no \"grid_center_lat\" (SCRIP) and no \"clon\" (unstructured). Give "
                          "the grid's name for an OASIS grids.nc"));
}

// A grid's variables in its files, found and their shapes checked; the mask and
// area files of an OASIS grid opened when given.
struct GridVariables {
  GridFormat format = GridFormat::Auto;
  Names names;
  int lon = -1, lat = -1;
  std::optional<int> clo, cla;
  std::vector<std::size_t> centre_shape;
  std::int64_t size = 1;
  std::int64_t nx = 0;      // points per row of a logically rectangular grid
  std::size_t corners = 0;  // per cell; 0 without corner variables
  std::optional<NetcdfFile> masks, areas;
  std::optional<int> msk, srf;  // in *mask_file(), *area_file()
  const NetcdfFile* mask_file = nullptr;
  const NetcdfFile* area_file = nullptr;
};

// The variable `name` of `in` (the mask or area of a grid), if it exists; required
// when `required`; of the centres' shape.
std::optional<int> cell_variable(const NetcdfFile& in, const std::string& name, bool required,
                                 const GridVariables& v, const GridSource& source) {
  const std::optional<int> id = required ? std::optional<int>(variable(in, name)) : in.find_var(name);
  if (id)
    FERRY_CHECK(shape(in, *id) == v.centre_shape, Errc::Io, kCaller, ": \"", name, "\" of \"",
                in.path(), "\" has another shape than the centres \"", v.names.lon, "\" of \"",
                source.path, "\". Give the file of the same grid");
  return id;
}

void find_variables(const NetcdfFile& file, const GridSource& source, GridVariables& v) {
  v.format = recognise(file, source);
  const bool oasis = v.format == GridFormat::Oasis;
  v.names = oasis ? Names{source.name + ".lon", source.name + ".lat", source.name + ".clo",
                          source.name + ".cla", source.name + ".msk", source.name + ".srf"}
            : v.format == GridFormat::Scrip
                ? Names{"grid_center_lon", "grid_center_lat", "grid_corner_lon",
                        "grid_corner_lat", "grid_imask", "grid_area"}
                : Names{"clon", "clat", "clon_vertices", "clat_vertices", "", ""};
  v.lon = variable(file, v.names.lon);
  v.lat = variable(file, v.names.lat);
  v.centre_shape = shape(file, v.lon);
  FERRY_CHECK(v.centre_shape == shape(file, v.lat) && !v.centre_shape.empty() &&
                  v.centre_shape.size() <= 2,
              Errc::Io, kCaller, ": \"", v.names.lon, "\" and \"", v.names.lat, "\" of \"",
              source.path, "\" differ in shape or are not 1-D or 2-D");
  for (std::size_t d : v.centre_shape) v.size *= static_cast<std::int64_t>(d);
  v.nx = v.centre_shape.size() == 2 ? static_cast<std::int64_t>(v.centre_shape[1]) : 0;
  if (v.format == GridFormat::Scrip)
    if (const auto dims = file.find_var("grid_dims")) {
      const std::vector<std::int64_t> d =
          regrid::detail::read_integers(file, *dims, {0}, shape(file, *dims));
      if (d.size() == 2) v.nx = d[0];
    }
  v.clo = file.find_var(v.names.corner_lon);
  if (v.clo) {
    v.cla = variable(file, v.names.corner_lat);
    const std::vector<std::size_t> corner_shape = shape(file, *v.clo);
    FERRY_CHECK(corner_shape == shape(file, *v.cla) &&
                    corner_shape.size() == v.centre_shape.size() + 1,
                Errc::Io, kCaller, ": \"", v.names.corner_lon, "\" and \"", v.names.corner_lat,
                "\" of \"", source.path, "\" differ in shape or do not have one dimension more "
                "than the centres");
    v.corners = oasis ? corner_shape.front() : corner_shape.back();
  }
  // The mask: OASIS's masks.nc (1 = masked) or SCRIP's grid_imask (1 = valid); the
  // areas: OASIS's areas.nc or SCRIP's grid_area. A file named for them must have them.
  if (oasis && !source.masks.empty()) v.masks.emplace(kCaller, source.masks, NetcdfFile::Mode::Read);
  if (oasis && !source.areas.empty()) v.areas.emplace(kCaller, source.areas, NetcdfFile::Mode::Read);
  v.mask_file = oasis ? (v.masks ? &*v.masks : nullptr) : &file;
  v.area_file = oasis ? (v.areas ? &*v.areas : nullptr) : &file;
  if (v.mask_file && !v.names.mask.empty())
    v.msk = cell_variable(*v.mask_file, v.names.mask, oasis, v, source);
  if (v.area_file && !v.names.area.empty())
    v.srf = cell_variable(*v.area_file, v.names.area, oasis, v, source);
}

// This rank's block of the grid.
Grid read_block(const Comm& comm, const GridSource& source) {
  NetcdfFile file(kCaller, source.path, NetcdfFile::Mode::Read);
  GridVariables v;
  find_variables(file, source, v);
  const bool oasis = v.format == GridFormat::Oasis;
  Grid grid;
  grid.nx = v.nx;
  const std::int64_t nx = oasis ? grid.nx : 0;  // how the file stores the cells
  const Blocks blocks(v.size, comm.size());
  const std::int64_t first = blocks.first(comm.rank());
  const std::int64_t count = blocks.count(comm.rank());
  const Layout layout = Layout::block(v.size, comm.size(), comm.rank());

  const double unit = degrees_per_unit(file, v.lat, v.names.lat, oasis ? 1 : 0);
  grid.points.layout = layout;
  grid.points.lon = scaled(read_cells(file, v.lon, nx, first, count, 1, 1), unit);
  grid.points.lat = scaled(read_cells(file, v.lat, nx, first, count, 1, 1), unit);
  grid.cells.layout = layout;
  grid.cells.name = source.name;
  if (v.clo) {
    grid.cells.corners = static_cast<int>(v.corners);
    const std::size_t leading = oasis ? v.corners : 1;
    const std::size_t trailing = oasis ? 1 : v.corners;
    const double corner_unit = degrees_per_unit(file, *v.cla, v.names.corner_lat, unit);
    grid.cells.corner_lon =
        scaled(read_cells(file, *v.clo, nx, first, count, leading, trailing), corner_unit);
    grid.cells.corner_lat =
        scaled(read_cells(file, *v.cla, nx, first, count, leading, trailing), corner_unit);
  }
  if (v.msk)
    for (double m : read_cells(*v.mask_file, *v.msk, nx, first, count, 1, 1))
      grid.points.mask.push_back(oasis ? (m == 0 ? 1 : 0) : (m != 0 ? 1 : 0));
  grid.cells.mask = grid.points.mask;
  if (v.srf) grid.area = read_cells(*v.area_file, *v.srf, nx, first, count, 1, 1);
  return grid;
}

}  // namespace

GridShape read_grid_shape(const GridSource& source) {
  NetcdfFile file(kCaller, source.path, NetcdfFile::Mode::Read);
  GridVariables v;
  find_variables(file, source, v);
  return {v.format, v.size, v.nx, static_cast<int>(v.corners), v.msk.has_value(), v.srf.has_value()};
}

Grid read_grid(MPI_Comm user_comm, const GridSource& source) {
  const Comm comm = Comm::dup(user_comm);
  Grid grid;
  detail::agree_on(comm, [&] { grid = read_block(comm, source); });
  return grid;
}

}  // namespace ferry
