// The configuration schema as a JSON Schema, for editors and other validators.
#pragma once

#include <string>

namespace ferry::config {

/// A JSON Schema (draft 2020-12) of a configuration file as YAML 1.2 reads it,
/// generated from config_schema(): every key with its type, bounds, allowed values,
/// default and documentation; the keys a mapping requires, one of or at least one of;
/// the rules between keys the schema declares (Key::excludes, needs_any, only_when);
/// and, from the engine registry, the option keys of each engine and the engines put/get
/// cannot use. The rules that compare entries or values (rules.hpp: names, lags,
/// restart files) are left to `ferry validate`. Not collective.
std::string config_json_schema();

}  // namespace ferry::config
