# pkg-config files (lib/pkgconfig/<name>.pc) for Makefile-built models, relocatable:
# each finds the install prefix from its own place (${pcfiledir}).
#
#   ferry_install_pkg_config(NAME ferry-oasis DESCRIPTION "..." LIBS -lferry_oasis
#                            REQUIRES ferry [CFLAGS ...] [LIBS_PRIVATE ...])
#
# CFLAGS and LIBS may name pkg-config's \${includedir} and \${libdir} (escaped, as
# here, so CMake leaves them); LIBS comes after -L${libdir}.
set(FERRY_PKG_CONFIG_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

function(ferry_install_pkg_config)
  cmake_parse_arguments(PC "" "NAME;DESCRIPTION" "REQUIRES;CFLAGS;LIBS;LIBS_PRIVATE" ${ARGN})
  set(FERRY_PC_NAME ${PC_NAME})
  set(FERRY_PC_DESCRIPTION ${PC_DESCRIPTION})
  list(JOIN PC_REQUIRES ", " FERRY_PC_REQUIRES)
  list(JOIN PC_CFLAGS " " FERRY_PC_CFLAGS)
  list(JOIN PC_LIBS " " FERRY_PC_LIBS)
  list(JOIN PC_LIBS_PRIVATE " " FERRY_PC_LIBS_PRIVATE)
  file(RELATIVE_PATH FERRY_PC_TO_PREFIX /${FERRY_PKG_CONFIG_DIR} /)
  string(REGEX REPLACE "/$" "" FERRY_PC_TO_PREFIX "${FERRY_PC_TO_PREFIX}")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/pkgconfig/package.pc.in
    ${PROJECT_BINARY_DIR}/pkgconfig/${PC_NAME}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/${PC_NAME}.pc DESTINATION ${FERRY_PKG_CONFIG_DIR})
endfunction()
