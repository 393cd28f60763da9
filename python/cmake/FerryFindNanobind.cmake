# Finds a Python interpreter that can build extension modules and, through that
# interpreter (`python -m nanobind --cmake_dir`), nanobind, so that the module is
# built for the Python that imports it. Choose the interpreter with
# -DPython_EXECUTABLE=/path/to/venv/bin/python.
#
# Sets FERRY_NANOBIND_FOUND (ON/OFF) and, when OFF, FERRY_NANOBIND_MISSING (what
# is missing and how to get it).
set(FERRY_NANOBIND_FOUND OFF)
set(FERRY_NANOBIND_MISSING "")

find_package(Python 3.9 COMPONENTS Interpreter Development.Module)
if(NOT Python_FOUND)
  set(FERRY_NANOBIND_MISSING
      "no Python 3.9 or newer with the files to build modules (Debian: python3-dev)")
  return()
endif()

execute_process(COMMAND "${Python_EXECUTABLE}" -m nanobind --cmake_dir
  OUTPUT_VARIABLE ferry_nanobind_dir OUTPUT_STRIP_TRAILING_WHITESPACE
  RESULT_VARIABLE ferry_nanobind_result ERROR_QUIET)
if(NOT ferry_nanobind_result EQUAL 0)
  set(FERRY_NANOBIND_MISSING "${Python_EXECUTABLE} has no nanobind (pip install nanobind, \
or set Python_EXECUTABLE to an interpreter that has it)")
  return()
endif()

find_package(nanobind CONFIG HINTS "${ferry_nanobind_dir}" NO_DEFAULT_PATH)
if(nanobind_FOUND)
  set(FERRY_NANOBIND_FOUND ON)
else()
  set(FERRY_NANOBIND_MISSING "nanobind's CMake package in ${ferry_nanobind_dir} could not be loaded")
endif()
