// `ferry config-schema`: the configuration's JSON Schema, generated from the schema.
#include <iostream>

#include "command.hpp"
#include "config/json_schema.hpp"

namespace ferry::cli {

namespace {

Action declare_config_schema(CLI::App&) {
  return [](const Context& context) {
    if (context.rank == 0) std::cout << ferry::config::config_json_schema();
    return 0;
  };
}

}  // namespace

Command config_schema_command() {
  return {"config-schema", "print the configuration's JSON Schema, for editors",
          "usage: ferry config-schema\n"
          "\n"
          "Prints a JSON Schema (draft 2020-12) of the coupling configuration file,\n"
          "generated from the schema the parser and `ferry validate` use and from the\n"
          "engines of this build: keys, types, bounds, allowed values, defaults and\n"
          "descriptions, the keys that go together, and each engine's options. Point a\n"
          "YAML editor at it (e.g. `# yaml-language-server: $schema=ferry.schema.json`)\n"
          "for completion and checks as you type. `ferry validate` checks more: the\n"
          "rules between entries and values (names, lags, restart files).\n"
          "Runs without mpiexec.\n",
          declare_config_schema};
}

}  // namespace ferry::cli
