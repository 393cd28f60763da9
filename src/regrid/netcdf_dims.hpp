// Looking up dimensions of a NetCDF file by name (NetcdfFile reaches them only through variables).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ferry::regrid::detail {

/// The lengths of the dimensions `names` of the file at `path`, nullopt for a name
/// the file lacks. Opens the file read-only for the lookup. Not collective. Raises
/// Errc::Io naming `caller` and the file if it cannot be read.
std::vector<std::optional<std::size_t>> dimension_lengths(const std::string& caller,
                                                          const std::string& path,
                                                          const std::vector<std::string>& names);

}  // namespace ferry::regrid::detail
