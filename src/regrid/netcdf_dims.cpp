#include "regrid/netcdf_dims.hpp"

#include <netcdf.h>

#include "util/check.hpp"

namespace ferry::regrid::detail {

std::vector<std::optional<std::size_t>> dimension_lengths(const std::string& caller,
                                                          const std::string& path,
                                                          const std::vector<std::string>& names) {
  int ncid = -1;
  int status = nc_open(path.c_str(), NC_NOWRITE, &ncid);
  FERRY_CHECK(status == NC_NOERR, Errc::Io, caller, ": cannot open \"", path,
              "\" to read its dimensions: ", nc_strerror(status),
              ". Check that the file is a complete NetCDF file");
  std::vector<std::optional<std::size_t>> lengths;
  for (const std::string& name : names) {
    int dimid = -1;
    std::size_t length = 0;
    status = nc_inq_dimid(ncid, name.c_str(), &dimid);
    if (status == NC_EBADDIM) {
      lengths.emplace_back();
      continue;
    }
    if (status == NC_NOERR) status = nc_inq_dimlen(ncid, dimid, &length);
    if (status != NC_NOERR) {
      nc_close(ncid);
      throw Error(Errc::Io, ferry::detail::cat(caller, ": reading dimension \"", name, "\" of \"",
                                               path, "\" failed: ", nc_strerror(status),
                                               ". Check that the file is not damaged"));
    }
    lengths.emplace_back(length);
  }
  nc_close(ncid);
  return lengths;
}

}  // namespace ferry::regrid::detail
