// `ferry config-doc`: the configuration reference, generated from the schema.
#include <iostream>

#include "command.hpp"
#include "config/reference.hpp"

namespace ferry::cli {

namespace {

Action declare_config_doc(CLI::App&) {
  return [](const Context& context) {
    if (context.rank == 0) std::cout << ferry::config::config_reference();
    return 0;
  };
}

}  // namespace

Command config_doc_command() {
  return {"config-doc", "print the configuration reference (Markdown)",
          "usage: ferry config-doc\n"
          "\n"
          "Prints the reference of the coupling configuration file as Markdown: every\n"
          "key with its type, default, allowed values and meaning, generated from the\n"
          "schema the parser and `ferry validate` use. docs/user/config.md is this\n"
          "output: regenerate it with `ferry config-doc > docs/user/config.md`.\n"
          "Runs without mpiexec.\n",
          declare_config_doc};
}

}  // namespace ferry::cli
