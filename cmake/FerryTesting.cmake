# ferry_add_mpi_test(NAME n SOURCES ... RANKS 1 2 3 [ENGINES all|p2p ...] [TIMEOUT s] [ARGS ...])
#
# Builds one test executable (GoogleTest + tests/support/mpi_main.cpp) and adds a
# CTest entry per rank count (and per engine when ENGINES is given), named
# n.np3 or n.np3.neighbor, labelled mpi;np3;engine:neighbor, run under mpiexec
# with a timeout. The Open MPI settings for running as root and with more ranks
# than cores live here and nowhere else.
find_package(GTest REQUIRED)

set(FERRY_TEST_ENVIRONMENT
  OMPI_ALLOW_RUN_AS_ROOT=1
  OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  OMPI_MCA_rmaps_base_oversubscribe=1
)

add_library(ferry_test_main STATIC ${PROJECT_SOURCE_DIR}/tests/support/mpi_main.cpp)
target_link_libraries(ferry_test_main PUBLIC ferry::ferry GTest::gtest)
target_include_directories(ferry_test_main PUBLIC ${PROJECT_SOURCE_DIR}/tests/support)

function(ferry_add_mpi_test)
  cmake_parse_arguments(T "" "NAME;TIMEOUT" "SOURCES;RANKS;ENGINES;ARGS;LABELS" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 60)
  endif()
  if(NOT TARGET ${T_NAME})
    add_executable(${T_NAME} ${T_SOURCES})
    target_link_libraries(${T_NAME} PRIVATE ferry_test_main)
    target_include_directories(${T_NAME} PRIVATE ${PROJECT_SOURCE_DIR}/src)
  endif()
  set(engines "")
  if(T_ENGINES STREQUAL "all")
    set(engines ${FERRY_ENGINES})
  elseif(T_ENGINES)
    set(engines ${T_ENGINES})
  endif()
  foreach(np IN LISTS T_RANKS)
    set(labels mpi np${np} ${T_LABELS})
    if(np EQUAL 1)
      set(labels np1 ${T_LABELS})
    endif()
    if(engines)
      foreach(engine IN LISTS engines)
        set(test_name ${T_NAME}.np${np}.${engine})
        add_test(NAME ${test_name}
          COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np} ${MPIEXEC_PREFLAGS}
                  $<TARGET_FILE:${T_NAME}> ${MPIEXEC_POSTFLAGS} --engine=${engine} ${T_ARGS})
        set_tests_properties(${test_name} PROPERTIES PROCESSORS ${np} TIMEOUT ${T_TIMEOUT}
          LABELS "${labels};engine:${engine}" SKIP_RETURN_CODE 77
          ENVIRONMENT "${FERRY_TEST_ENVIRONMENT}")
      endforeach()
    else()
      set(test_name ${T_NAME}.np${np})
      add_test(NAME ${test_name}
        COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np} ${MPIEXEC_PREFLAGS}
                $<TARGET_FILE:${T_NAME}> ${MPIEXEC_POSTFLAGS} ${T_ARGS})
      set_tests_properties(${test_name} PROPERTIES PROCESSORS ${np} TIMEOUT ${T_TIMEOUT}
        LABELS "${labels}" SKIP_RETURN_CODE 77
        ENVIRONMENT "${FERRY_TEST_ENVIRONMENT}")
    endif()
  endforeach()
endfunction()

# ferry_add_fault_case(NAME n RANKS np WATCHDOG s COMMAND program args...
#                      [EXPECT "rank=regex" ...] [EXPECT_OUTPUT regex ...]
#                      [EXIT zero|nonzero|any] [MPIEXEC_FLAGS flags...] [ENVIRONMENT vars...])
#
# A fault-injection case (tests/faults/, label faults): runs
# `mpiexec -n np MPIEXEC_FLAGS program args` under tests/faults/run_fault.py, which
# kills it and fails unless every rank has ended within the watchdog time s + 5 s, the
# ranks printed the EXPECT lines and the job ended with the EXIT status (default
# nonzero). The CTest timeout is longer than that limit, so a hang is reported by the
# case itself, with its output.
function(ferry_add_fault_case)
  cmake_parse_arguments(F "" "NAME;RANKS;WATCHDOG;EXIT"
                        "COMMAND;EXPECT;EXPECT_OUTPUT;MPIEXEC_FLAGS;ENVIRONMENT" ${ARGN})
  if(NOT F_EXIT)
    set(F_EXIT nonzero)
  endif()
  math(EXPR within "${F_WATCHDOG} + 5")
  math(EXPR timeout "${within} + 30")
  set(checks --within ${within} --exit ${F_EXIT})
  foreach(expectation IN LISTS F_EXPECT)
    list(APPEND checks --expect "${expectation}")
  endforeach()
  foreach(pattern IN LISTS F_EXPECT_OUTPUT)
    list(APPEND checks --expect-output "${pattern}")
  endforeach()
  add_test(NAME faults.${F_NAME}
    COMMAND ${Python_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/faults/run_fault.py ${checks} --
            ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${F_RANKS} ${MPIEXEC_PREFLAGS}
            ${F_MPIEXEC_FLAGS} ${F_COMMAND})
  set_tests_properties(faults.${F_NAME} PROPERTIES PROCESSORS ${F_RANKS} TIMEOUT ${timeout}
    LABELS "faults;mpi;np${F_RANKS}" ENVIRONMENT "${FERRY_TEST_ENVIRONMENT};${F_ENVIRONMENT}")
endfunction()
