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
# The OASIS3-MCT API (ferry::oasis, mod_oasis.mod and its siblings, oasis_c.h) in a
# third export set: find_package(ferry COMPONENTS oasis), or the pkg-config file
# ferry-oasis.pc for models built with make.
set(FERRY_OASIS_BUILT OFF)
if(TARGET ferry_oasis)
  set(FERRY_OASIS_BUILT ON)
  install(TARGETS ferry_oasis EXPORT ferryOasisTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  get_target_property(ferry_oasis_module_dir ferry_oasis Fortran_MODULE_DIRECTORY)
  install(DIRECTORY ${ferry_oasis_module_dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ferry/oasis)
  install(FILES ${PROJECT_SOURCE_DIR}/compat/oasis/include/oasis_c.h
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ferry/oasis)
  install(EXPORT ferryOasisTargets NAMESPACE ferry:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ferry)
  export(EXPORT ferryOasisTargets NAMESPACE ferry:: FILE ${PROJECT_BINARY_DIR}/ferryOasisTargets.cmake)
  # pkg-config: the link line of a static or shared libferry_oasis and what it needs.
  get_target_property(ferry_type ferry TYPE)
  set(FERRY_OASIS_PRIVATE_LIBS "")
  if(ferry_type STREQUAL "STATIC_LIBRARY")
    set(FERRY_OASIS_PRIVATE_LIBS "-lyaml-cpp -lnetcdf -lstdc++")
    if(FERRY_HAVE_METIS)
      string(PREPEND FERRY_OASIS_PRIVATE_LIBS "-lmetis ")
    endif()
    if(FERRY_HAVE_PNETCDF)
      string(PREPEND FERRY_OASIS_PRIVATE_LIBS "-lpnetcdf ")
    endif()
  endif()
  # Relocatable: the prefix is found from where the .pc file lies.
  file(RELATIVE_PATH FERRY_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
  configure_file(${PROJECT_SOURCE_DIR}/compat/oasis/ferry-oasis.pc.in
    ${PROJECT_BINARY_DIR}/ferry-oasis.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/ferry-oasis.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
# The build tree is a package too (ferry_DIR=<build>): tests build programs against
# it without installing first.
export(EXPORT ferryTargets NAMESPACE ferry:: FILE ${PROJECT_BINARY_DIR}/ferryTargets.cmake)
foreach(find_module FindNetCDF FindMETIS FindPnetCDF)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${find_module}.cmake
    ${PROJECT_BINARY_DIR}/${find_module}.cmake COPYONLY)
endforeach()
if(TARGET ferry_fortran)
  export(EXPORT ferryFortranTargets NAMESPACE ferry:: FILE ${PROJECT_BINARY_DIR}/ferryFortranTargets.cmake)
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
# ... and PnetCDF, when this build writes weight files with it.
if(FERRY_HAVE_PNETCDF)
  install(FILES ${PROJECT_SOURCE_DIR}/cmake/FindPnetCDF.cmake
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
  if(FERRY_HAVE_PNETCDF)
    string(APPEND FERRY_CONFIG_LIBS_PRIVATE " ${PnetCDF_LIBRARY}")
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
