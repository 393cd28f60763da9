# FindNetCDF: the NetCDF-C library, as the imported target NetCDF::NetCDF.
#
# Searches where pkg-config's netcdf.pc points (if pkg-config is there), then the
# usual prefixes; set NetCDF_ROOT to use another installation. Defines
#   NetCDF_FOUND, NetCDF_VERSION, NetCDF_INCLUDE_DIR, NetCDF_LIBRARY,
#   NetCDF_HAS_NC4 (TRUE when the library writes NetCDF-4/HDF5 files).
# Installed next to ferryConfig.cmake, so consumers of a static libferry find the
# same library the way ferry's own build did.
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(PC_NetCDF QUIET netcdf)
endif()

find_path(NetCDF_INCLUDE_DIR netcdf.h HINTS ${PC_NetCDF_INCLUDE_DIRS})
find_library(NetCDF_LIBRARY NAMES netcdf HINTS ${PC_NetCDF_LIBRARY_DIRS})
mark_as_advanced(NetCDF_INCLUDE_DIR NetCDF_LIBRARY)

# netcdf_meta.h states the version and which formats the library was built with.
set(NetCDF_HAS_NC4 FALSE)
if(NetCDF_INCLUDE_DIR AND EXISTS "${NetCDF_INCLUDE_DIR}/netcdf_meta.h")
  file(STRINGS "${NetCDF_INCLUDE_DIR}/netcdf_meta.h" _netcdf_meta
       REGEX "#define[ \t]+NC_(VERSION_MAJOR|VERSION_MINOR|VERSION_PATCH|HAS_NC4)[ \t]")
  foreach(_key VERSION_MAJOR VERSION_MINOR VERSION_PATCH HAS_NC4)
    string(REGEX MATCH "NC_${_key}[ \t]+([0-9]+)" _match "${_netcdf_meta}")
    set(_netcdf_${_key} "${CMAKE_MATCH_1}")
  endforeach()
  set(NetCDF_VERSION "${_netcdf_VERSION_MAJOR}.${_netcdf_VERSION_MINOR}.${_netcdf_VERSION_PATCH}")
  if(_netcdf_HAS_NC4)
    set(NetCDF_HAS_NC4 TRUE)
  endif()
endif()

include(FindPackageHandleStandardArgs)
string(CONCAT _netcdf_hint
  "Install the NetCDF-C development files (Debian/Ubuntu: libnetcdf-dev, "
  "Fedora: netcdf-devel, Spack: netcdf-c) or set NetCDF_ROOT to its prefix")
find_package_handle_standard_args(NetCDF
  REQUIRED_VARS NetCDF_LIBRARY NetCDF_INCLUDE_DIR
  VERSION_VAR NetCDF_VERSION
  REASON_FAILURE_MESSAGE "${_netcdf_hint}")

if(NetCDF_FOUND AND NOT TARGET NetCDF::NetCDF)
  add_library(NetCDF::NetCDF UNKNOWN IMPORTED)
  set_target_properties(NetCDF::NetCDF PROPERTIES
    IMPORTED_LOCATION "${NetCDF_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${NetCDF_INCLUDE_DIR}")
endif()
