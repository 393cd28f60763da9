// Files CDO reads, written from a whole grid on one rank: a CF data file whose field is
// missing on masked cells (CDO takes a source mask from missing values) and a SCRIP
// grid file (CDO takes a target mask from grid_imask); serial NetCDF, for tests.
#pragma once

#include <gtest/gtest.h>
#include <netcdf.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "polygon_grids.hpp"

namespace regrid_test {

#define CDO_FILES_NC(call) ASSERT_EQ((call), NC_NOERR) << #call

/// A grid as CDO sees it: nx x ny (ny = 0: unstructured), cells with `corners` corners
/// (degrees), centres, mask (1 = valid).
struct CdoGrid {
  std::int64_t nx = 0, ny = 0;
  int corners = 4;
  std::vector<double> lon, lat, corner_lon, corner_lat;
  std::vector<std::int32_t> mask;
  std::size_t size() const { return lon.size(); }
};

/// A CF file with variable "f" = `values` (missing where masked) on `grid`.
inline void write_cdo_field(const std::string& path, const CdoGrid& g,
                            const std::vector<double>& values) {
  int nc = -1;
  CDO_FILES_NC(nc_create(path.c_str(), NC_CLOBBER | NC_NETCDF4, &nc));
  std::vector<int> cell_dims;
  int nv = -1;
  if (g.ny > 0) {
    int y = -1, x = -1;
    CDO_FILES_NC(nc_def_dim(nc, "y", static_cast<std::size_t>(g.ny), &y));
    CDO_FILES_NC(nc_def_dim(nc, "x", static_cast<std::size_t>(g.nx), &x));
    cell_dims = {y, x};
  } else {
    int cells = -1;
    CDO_FILES_NC(nc_def_dim(nc, "ncells", g.size(), &cells));
    cell_dims = {cells};
  }
  CDO_FILES_NC(nc_def_dim(nc, "nv", static_cast<std::size_t>(g.corners), &nv));
  std::vector<int> bound_dims = cell_dims;
  bound_dims.push_back(nv);
  int lon = -1, lat = -1, clon = -1, clat = -1, f = -1;
  const int nd = static_cast<int>(cell_dims.size());
  CDO_FILES_NC(nc_def_var(nc, "lon", NC_DOUBLE, nd, cell_dims.data(), &lon));
  CDO_FILES_NC(nc_def_var(nc, "lat", NC_DOUBLE, nd, cell_dims.data(), &lat));
  CDO_FILES_NC(nc_def_var(nc, "lon_bnds", NC_DOUBLE, nd + 1, bound_dims.data(), &clon));
  CDO_FILES_NC(nc_def_var(nc, "lat_bnds", NC_DOUBLE, nd + 1, bound_dims.data(), &clat));
  CDO_FILES_NC(nc_def_var(nc, "f", NC_DOUBLE, nd, cell_dims.data(), &f));
  for (const auto& [var, units, bounds, name] :
       {std::tuple{lon, "degrees_east", "lon_bnds", "longitude"},
        std::tuple{lat, "degrees_north", "lat_bnds", "latitude"}}) {
    CDO_FILES_NC(nc_put_att_text(nc, var, "units", std::strlen(units), units));
    CDO_FILES_NC(nc_put_att_text(nc, var, "bounds", std::strlen(bounds), bounds));
    CDO_FILES_NC(nc_put_att_text(nc, var, "standard_name", std::strlen(name), name));
  }
  const double missing = -9e33;
  CDO_FILES_NC(nc_put_att_double(nc, f, "_FillValue", NC_DOUBLE, 1, &missing));
  CDO_FILES_NC(nc_put_att_text(nc, f, "coordinates", 7, "lat lon"));
  CDO_FILES_NC(nc_enddef(nc));
  std::vector<double> field = values;
  for (std::size_t i = 0; i < field.size(); ++i)
    if (!g.mask.empty() && !g.mask[i]) field[i] = missing;
  CDO_FILES_NC(nc_put_var_double(nc, lon, g.lon.data()));
  CDO_FILES_NC(nc_put_var_double(nc, lat, g.lat.data()));
  CDO_FILES_NC(nc_put_var_double(nc, clon, g.corner_lon.data()));
  CDO_FILES_NC(nc_put_var_double(nc, clat, g.corner_lat.data()));
  CDO_FILES_NC(nc_put_var_double(nc, f, field.data()));
  CDO_FILES_NC(nc_close(nc));
}

/// A SCRIP grid file of `grid` (degrees), grid_imask its mask.
inline void write_scrip_grid(const std::string& path, const CdoGrid& g) {
  int nc = -1;
  CDO_FILES_NC(nc_create(path.c_str(), NC_CLOBBER | NC_NETCDF4, &nc));
  int size = -1, corners = -1, rank = -1;
  CDO_FILES_NC(nc_def_dim(nc, "grid_size", g.size(), &size));
  CDO_FILES_NC(nc_def_dim(nc, "grid_corners", static_cast<std::size_t>(g.corners), &corners));
  CDO_FILES_NC(nc_def_dim(nc, "grid_rank", g.ny > 0 ? 2 : 1, &rank));
  int dims = -1, clat = -1, clon = -1, lat = -1, lon = -1, imask = -1;
  CDO_FILES_NC(nc_def_var(nc, "grid_dims", NC_INT, 1, &rank, &dims));
  CDO_FILES_NC(nc_def_var(nc, "grid_center_lat", NC_DOUBLE, 1, &size, &lat));
  CDO_FILES_NC(nc_def_var(nc, "grid_center_lon", NC_DOUBLE, 1, &size, &lon));
  const int both[2] = {size, corners};
  CDO_FILES_NC(nc_def_var(nc, "grid_corner_lat", NC_DOUBLE, 2, both, &clat));
  CDO_FILES_NC(nc_def_var(nc, "grid_corner_lon", NC_DOUBLE, 2, both, &clon));
  CDO_FILES_NC(nc_def_var(nc, "grid_imask", NC_INT, 1, &size, &imask));
  for (int var : {lat, lon, clat, clon})
    CDO_FILES_NC(nc_put_att_text(nc, var, "units", 7, "degrees"));
  CDO_FILES_NC(nc_enddef(nc));
  const int shape[2] = {static_cast<int>(g.ny > 0 ? g.nx : static_cast<std::int64_t>(g.size())),
                        static_cast<int>(g.ny)};
  CDO_FILES_NC(nc_put_var_int(nc, dims, shape));
  CDO_FILES_NC(nc_put_var_double(nc, lat, g.lat.data()));
  CDO_FILES_NC(nc_put_var_double(nc, lon, g.lon.data()));
  CDO_FILES_NC(nc_put_var_double(nc, clat, g.corner_lat.data()));
  CDO_FILES_NC(nc_put_var_double(nc, clon, g.corner_lon.data()));
  std::vector<int> mask(g.size(), 1);
  for (std::size_t i = 0; i < g.mask.size(); ++i) mask[i] = g.mask[i];
  CDO_FILES_NC(nc_put_var_int(nc, imask, mask.data()));
  CDO_FILES_NC(nc_close(nc));
}

}  // namespace regrid_test
