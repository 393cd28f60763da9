# FindPnetCDF: PnetCDF (parallel I/O of NetCDF classic and CDF-5 files), as the
# imported target PnetCDF::PnetCDF.
#
# pkg-config's pnetcdf.pc gives the hints when it is there; set PnetCDF_ROOT to use
# another installation. Defines PnetCDF_FOUND, PnetCDF_VERSION, PnetCDF_INCLUDE_DIR
# and PnetCDF_LIBRARY. Installed next to ferryConfig.cmake, so consumers of a static
# libferry find the same library the way ferry's own build did.
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(PC_PnetCDF QUIET pnetcdf)
endif()
find_path(PnetCDF_INCLUDE_DIR pnetcdf.h HINTS ${PC_PnetCDF_INCLUDE_DIRS})
find_library(PnetCDF_LIBRARY NAMES pnetcdf HINTS ${PC_PnetCDF_LIBRARY_DIRS})
mark_as_advanced(PnetCDF_INCLUDE_DIR PnetCDF_LIBRARY)

if(PnetCDF_INCLUDE_DIR AND EXISTS "${PnetCDF_INCLUDE_DIR}/pnetcdf.h")
  file(STRINGS "${PnetCDF_INCLUDE_DIR}/pnetcdf.h" _pnetcdf_version
       REGEX "#define[ \t]+PNETCDF_VERSION[ \t]")
  string(REGEX MATCH "\"([0-9.]+)\"" _match "${_pnetcdf_version}")
  set(PnetCDF_VERSION "${CMAKE_MATCH_1}")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(PnetCDF
  REQUIRED_VARS PnetCDF_LIBRARY PnetCDF_INCLUDE_DIR
  VERSION_VAR PnetCDF_VERSION
  REASON_FAILURE_MESSAGE
    "Install PnetCDF built for this MPI (Debian/Ubuntu: libpnetcdf-dev, built for Open MPI, Spack: parallel-netcdf) or set PnetCDF_ROOT to its prefix")

if(PnetCDF_FOUND AND NOT TARGET PnetCDF::PnetCDF)
  add_library(PnetCDF::PnetCDF UNKNOWN IMPORTED)
  set_target_properties(PnetCDF::PnetCDF PROPERTIES
    IMPORTED_LOCATION "${PnetCDF_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${PnetCDF_INCLUDE_DIR}")
endif()
