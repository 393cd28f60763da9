# Runs the command after "--" and checks its exit status and output:
#   cmake -DEXPECT_EXIT=<status> -DEXPECT_REGEX=<regex> [-DREJECT_REGEX=<regex>]
#         -P expect.cmake -- <command> [args...]
# REJECT_REGEX, when given, must not match the output.
# PASS_REGULAR_EXPRESSION alone would ignore the exit status, which is part of
# the `ferry` interface (0 ok, 1 error, 2 usage error).
set(command "")
set(after_separator OFF)
foreach(i RANGE 1 ${CMAKE_ARGC})
  if(i EQUAL CMAKE_ARGC)
    break()
  endif()
  if(after_separator)
    list(APPEND command "${CMAKE_ARGV${i}}")
  elseif(CMAKE_ARGV${i} STREQUAL "--")
    set(after_separator ON)
  endif()
endforeach()
if(NOT command)
  message(FATAL_ERROR "expect.cmake: no command given after --")
endif()

execute_process(COMMAND ${command} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(output "${out}${err}")
if(NOT status STREQUAL EXPECT_EXIT)
  message(FATAL_ERROR "exit status ${status}, expected ${EXPECT_EXIT}; output:\n${output}")
endif()
if(NOT output MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "output does not match /${EXPECT_REGEX}/:\n${output}")
endif()
if(DEFINED REJECT_REGEX AND output MATCHES "${REJECT_REGEX}")
  message(FATAL_ERROR "output matches /${REJECT_REGEX}/, which it must not:\n${output}")
endif()
