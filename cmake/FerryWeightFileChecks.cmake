# How weight files are written (src/regrid/weights_write.cpp): with PnetCDF, every
# rank puts its links in one collective call; without it, rank after rank through
# NetCDF-C. Optional: FERRY_HAVE_PNETCDF is ON when FERRY_ENABLE_PNETCDF is on,
# PnetCDF is found and it was built for the MPI library of this build (a PnetCDF
# of another MPI would load two MPI libraries into one program): the shared MPI
# library PnetCDF needs (its NEEDED entry) must be the one this build links.
set(FERRY_HAVE_PNETCDF OFF)
set(_ferry_pnetcdf_why "FERRY_ENABLE_PNETCDF is OFF")
if(FERRY_ENABLE_PNETCDF)
  find_package(PnetCDF)
  set(_ferry_pnetcdf_why "PnetCDF not found: install libpnetcdf-dev or set PnetCDF_ROOT")
  if(PnetCDF_FOUND)
    # The soname of a shared library, or "" (a static library, no objdump). A linker
    # script such as the MPICH wheel's libmpi.so, "INPUT(libmpi.so.12)", stands for
    # the library it names.
    function(_ferry_soname library out)
      set(name "")
      file(READ "${library}" head LIMIT 64)
      if(head MATCHES "^INPUT\\(([^) ]+)\\)")
        get_filename_component(dir "${library}" DIRECTORY)
        set(library "${dir}/${CMAKE_MATCH_1}")
      endif()
      if(CMAKE_OBJDUMP AND library MATCHES "\\.so")
        execute_process(COMMAND ${CMAKE_OBJDUMP} -p ${library} OUTPUT_VARIABLE dump
                        ERROR_QUIET RESULT_VARIABLE status)
        if(status EQUAL 0 AND dump MATCHES "SONAME +([^\n ]+)")
          set(name "${CMAKE_MATCH_1}")
        endif()
      endif()
      set(${out} "${name}" PARENT_SCOPE)
    endfunction()
    set(_pnetcdf_mpi "")
    get_filename_component(_pnetcdf_real "${PnetCDF_LIBRARY}" REALPATH)
    if(CMAKE_OBJDUMP)
      execute_process(COMMAND ${CMAKE_OBJDUMP} -p ${_pnetcdf_real} OUTPUT_VARIABLE _dump
                      ERROR_QUIET)
      string(REGEX MATCH "NEEDED +(libmpi\\.so[.0-9]*)" _match "${_dump}")
      set(_pnetcdf_mpi "${CMAKE_MATCH_1}")
    endif()
    set(_ferry_mpi "")
    foreach(library IN LISTS MPI_C_LIBRARIES MPI_CXX_LIBRARIES)
      get_filename_component(real "${library}" REALPATH)
      _ferry_soname("${real}" soname)
      if(soname MATCHES "^libmpi\\.so")
        set(_ferry_mpi "${soname}")
      endif()
    endforeach()
    if(_pnetcdf_mpi AND _pnetcdf_mpi STREQUAL _ferry_mpi)
      set(FERRY_HAVE_PNETCDF ON)
    else()
      set(_ferry_pnetcdf_why
          "PnetCDF ${PnetCDF_VERSION} at ${PnetCDF_LIBRARY} needs MPI library '${_pnetcdf_mpi}', this build links '${_ferry_mpi}'")
    endif()
  endif()
endif()
set(FERRY_HAVE_PNETCDF_VALUE 0)
if(FERRY_HAVE_PNETCDF)
  set(FERRY_HAVE_PNETCDF_VALUE 1)
  message(STATUS "ferry weight files: written in parallel by PnetCDF ${PnetCDF_VERSION} "
                 "(${_pnetcdf_mpi})")
else()
  message(STATUS "ferry weight files: written rank after rank by NetCDF-C (${_ferry_pnetcdf_why})")
endif()
