# FindMETIS: the METIS graph partitioner, as the imported target METIS::METIS.
#
# Set METIS_ROOT to use another installation. Defines METIS_FOUND, METIS_VERSION,
# METIS_INCLUDE_DIR, METIS_LIBRARY and METIS_IDX_WIDTH (32 or 64, METIS's idx_t).
# Installed next to ferryConfig.cmake, so consumers of a static libferry find the
# same library the way ferry's own build did.
find_path(METIS_INCLUDE_DIR metis.h PATH_SUFFIXES metis)
find_library(METIS_LIBRARY NAMES metis)
mark_as_advanced(METIS_INCLUDE_DIR METIS_LIBRARY)

if(METIS_INCLUDE_DIR AND EXISTS "${METIS_INCLUDE_DIR}/metis.h")
  file(STRINGS "${METIS_INCLUDE_DIR}/metis.h" _metis_defines
       REGEX "#define[ \t]+(METIS_VER_(MAJOR|MINOR|SUBMINOR)|IDXTYPEWIDTH)[ \t]")
  foreach(_key METIS_VER_MAJOR METIS_VER_MINOR METIS_VER_SUBMINOR IDXTYPEWIDTH)
    string(REGEX MATCH "${_key}[ \t]+([0-9]+)" _match "${_metis_defines}")
    set(_metis_${_key} "${CMAKE_MATCH_1}")
  endforeach()
  set(METIS_VERSION "${_metis_METIS_VER_MAJOR}.${_metis_METIS_VER_MINOR}.${_metis_METIS_VER_SUBMINOR}")
  set(METIS_IDX_WIDTH "${_metis_IDXTYPEWIDTH}")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(METIS
  REQUIRED_VARS METIS_LIBRARY METIS_INCLUDE_DIR
  VERSION_VAR METIS_VERSION
  REASON_FAILURE_MESSAGE
    "Install the METIS development files (Debian/Ubuntu: libmetis-dev, Fedora: metis-devel, Spack: metis) or set METIS_ROOT to its prefix")

if(METIS_FOUND AND NOT TARGET METIS::METIS)
  add_library(METIS::METIS UNKNOWN IMPORTED)
  set_target_properties(METIS::METIS PROPERTIES
    IMPORTED_LOCATION "${METIS_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${METIS_INCLUDE_DIR}")
endif()
