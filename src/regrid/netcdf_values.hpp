// Reading a slab of a NetCDF variable of any numeric type as int64 or double values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "io/netcdf_file.hpp"

namespace ferry::regrid::detail {

using io::NetcdfFile;

/// True for the NetCDF integer types (byte to uint64).
bool is_integer_type(nc_type type);
/// True for float and double.
bool is_real_type(nc_type type);

/// Values start .. start + count of an integer variable, converted to int64. Not collective.
std::vector<std::int64_t> read_integers(const NetcdfFile& file, int varid,
                                        const std::vector<std::size_t>& start,
                                        const std::vector<std::size_t>& count);
/// Values of a variable of any numeric type, converted to double. Not collective.
std::vector<double> read_numbers(const NetcdfFile& file, int varid,
                                 const std::vector<std::size_t>& start,
                                 const std::vector<std::size_t>& count);
/// Values of a float or double variable, converted to double. Not collective.
std::vector<double> read_reals(const NetcdfFile& file, int varid,
                               const std::vector<std::size_t>& start,
                               const std::vector<std::size_t>& count);

}  // namespace ferry::regrid::detail
