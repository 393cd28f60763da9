# Installs the library, headers and CMake package (find_package(ferry)).
include(CMakePackageConfigHelpers)
install(TARGETS ferry EXPORT ferryTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  FILE_SET HEADERS DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT ferryTargets NAMESPACE ferry:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ferry)
# The Fortran module (ferry::fortran and its .mod files) in its own export set:
# ferryConfig.cmake loads it only for find_package(ferry COMPONENTS Fortran), so C
# and C++ consumers need neither a Fortran compiler nor MPI's Fortran bindings.
set(FERRY_FORTRAN_BUILT OFF)
if(TARGET ferry_fortran)
  set(FERRY_FORTRAN_BUILT ON)
  string(REGEX MATCH "^[0-9]+" FERRY_Fortran_COMPILER_MAJOR "${CMAKE_Fortran_COMPILER_VERSION}")
  install(TARGETS ferry_fortran EXPORT ferryFortranTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  get_target_property(ferry_module_dir ferry_fortran Fortran_MODULE_DIRECTORY)
  install(DIRECTORY ${ferry_module_dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ferry/fortran)
  install(EXPORT ferryFortranTargets NAMESPACE ferry::
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ferry)
endif()
# The MPI C++ wrapper of this build, which ferryConfig.cmake hands to FindMPI; none
# when MPI came without one (the compiler itself is MPI's, as SimGrid's smpicxx).
set(FERRY_MPI_CXX_WRAPPER "")
if(MPI_CXX_COMPILER AND NOT MPI_CXX_COMPILER STREQUAL CMAKE_CXX_COMPILER)
  set(FERRY_MPI_CXX_WRAPPER "${MPI_CXX_COMPILER}")
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ferryConfig.cmake.in
  ${PROJECT_BINARY_DIR}/ferryConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ferry)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ferryConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ferryConfig.cmake ${PROJECT_BINARY_DIR}/ferryConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ferry)
# ferryConfig.cmake finds NetCDF-C with it when libferry is static.
install(FILES ${PROJECT_SOURCE_DIR}/cmake/FindNetCDF.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ferry)
# ... and METIS, when this build partitions meshes with it.
if(FERRY_HAVE_METIS)
  install(FILES ${PROJECT_SOURCE_DIR}/cmake/FindMETIS.cmake
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ferry)
endif()

# Makefile builds: ferry.pc and ferry-fortran.pc (pkg-config) and the ferry-config
# script print the same flags. A static libferry brings its private libraries (and
# the C++ runtime, for C and Fortran programs) into every link line.
include(${PROJECT_SOURCE_DIR}/cmake/FerryPkgConfig.cmake)
set(FERRY_CONFIG_LIBS_PRIVATE "")
get_target_property(_ferry_type ferry TYPE)
if(_ferry_type STREQUAL "STATIC_LIBRARY")
  set(FERRY_CONFIG_LIBS_PRIVATE "${NetCDF_LIBRARY} -lyaml-cpp")
  if(FERRY_HAVE_METIS)
    string(APPEND FERRY_CONFIG_LIBS_PRIVATE " ${METIS_LIBRARY}")
  endif()
  string(APPEND FERRY_CONFIG_LIBS_PRIVATE " -lstdc++ -lm")
endif()
ferry_install_pkg_config(NAME ferry
  DESCRIPTION "Couple parallel simulation codes: move fields between MPI decompositions"
  CFLAGS "-I\${includedir}" LIBS -lferry ${FERRY_CONFIG_LIBS_PRIVATE})
if(FERRY_FORTRAN_BUILT)
  ferry_install_pkg_config(NAME ferry-fortran DESCRIPTION "ferry's Fortran module (use ferry)"
    REQUIRES ferry CFLAGS "-I\${includedir}/ferry/fortran" LIBS -lferry_fortran)
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/pkgconfig/ferry-config.in
  ${PROJECT_BINARY_DIR}/ferry-config @ONLY)
install(PROGRAMS ${PROJECT_BINARY_DIR}/ferry-config DESTINATION ${CMAKE_INSTALL_BINDIR})
