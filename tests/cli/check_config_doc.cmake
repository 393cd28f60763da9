# Fails when the committed configuration reference differs from what the schema
# generates:  cmake -DFERRY=<ferry executable> -DDOC=<docs/user/config.md> -P check_config_doc.cmake
execute_process(COMMAND ${FERRY} config-doc RESULT_VARIABLE status OUTPUT_VARIABLE generated
                ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "ferry config-doc failed with status ${status}:\n${errors}")
endif()
file(READ ${DOC} committed)
if(NOT generated STREQUAL committed)
  message(FATAL_ERROR "docs/user/config.md is not the output of `ferry config-doc`: the "
                      "configuration schema (src/config/schema.cpp) changed. Regenerate "
                      "the page from the build directory with\n"
                      "  bin/ferry config-doc > <source>/docs/user/config.md\n"
                      "and commit it.")
endif()
