#include "config/json_schema.hpp"

#include <climits>
#include <nlohmann/json.hpp>

#include "config/scalar.hpp"
#include "config/schema.hpp"
#include "ferry/engine.hpp"

namespace ferry::config {

namespace {

using json = nlohmann::ordered_json;

json required(const std::string& name) { return {{"required", {name}}}; }

// The default of an optional key as a JSON value of its type; null if it has none.
json default_of(const Key& key) {
  if (key.presence != Presence::Optional || key.default_value.empty()) return nullptr;
  switch (key.type) {
    case KeyType::Integer:
      return *detail::parse_integer(key.default_value);
    case KeyType::Number:
      return *detail::parse_number(key.default_value);
    case KeyType::Boolean:
      return *detail::parse_boolean(key.default_value);
    case KeyType::String:
    case KeyType::Choice:
      return key.default_value;
    default:
      return nullptr;
  }
}

void bound(json& out, Bound bound) {
  if (bound == Bound::Positive) out["exclusiveMinimum"] = 0;
  if (bound == Bound::NonNegative) out["minimum"] = 0;
  if (bound == Bound::OneOrTwo) {
    out["minimum"] = 1;
    out["maximum"] = 2;
  }
}

json mapping_schema(const Key& mapping);

json key_schema(const Key& key) {
  json out;
  switch (key.type) {
    case KeyType::Integer:
      out = {{"type", "integer"}, {"minimum", INT_MIN}, {"maximum", INT_MAX}};
      bound(out, key.bound);
      break;
    case KeyType::Number:
      out = {{"type", "number"}};
      bound(out, key.bound);
      break;
    case KeyType::Boolean:
      out = {{"type", "boolean"}};
      break;
    case KeyType::String:
      out = {{"type", "string"}, {"minLength", 1}};
      break;
    case KeyType::Choice:
      out = {{"enum", key.choices}};
      break;
    case KeyType::StringList:
      out = {{"type", "array"},
             {"items", {{"type", "string"}, {"minLength", 1}}},
             {"minItems", 1},
             {"uniqueItems", true}};
      break;
    case KeyType::StringMap:
      out = {{"type", "object"},
             {"propertyNames", {{"minLength", 1}}},
             {"additionalProperties", {{"type", {"string", "number", "boolean"}}}}};
      break;
    case KeyType::Mapping:
      out = mapping_schema(key);
      break;
    case KeyType::List:
      out = {{"type", "array"}, {"minItems", 1}, {"items", mapping_schema(key)}};
      break;
  }
  out["description"] = key.doc;
  if (const json value = default_of(key); !value.is_null()) out["default"] = value;
  return out;
}

// The rules of a mapping that the JSON Schema can state: which keys it needs, and the
// relations between its keys.
json mapping_rules(const Key& mapping) {
  json rules = json::array();
  json one_of = json::array();
  for (const Key& key : mapping.children)
    if (key.presence == Presence::OneOf) one_of.push_back(required(key.name));
  if (!one_of.empty()) rules.push_back({{"oneOf", one_of}});
  if (!mapping.any_of.empty()) {
    json any = json::array();
    for (const auto& name : mapping.any_of) any.push_back(required(name));
    rules.push_back({{"anyOf", any}});
  }
  for (const Key& key : mapping.children) {
    for (const std::string& other : key.excludes)
      rules.push_back({{"not", {{"required", {key.name, other}}}}});
    if (!key.needs_any.empty()) {
      json any = json::array();
      for (const auto& name : key.needs_any) any.push_back(required(name));
      rules.push_back({{"if", required(key.name)}, {"then", {{"anyOf", any}}}});
    }
    if (!key.only_when.empty())
      rules.push_back({{"if", required(key.name)},
                       {"then", {{"properties", {{key.only_when, {{"enum", key.only_when_values}}}}}}}});
  }
  return rules;
}

json mapping_schema(const Key& mapping) {
  json out = {{"type", "object"}, {"additionalProperties", false}};
  json properties = json::object();
  json names = json::array();
  for (const Key& key : mapping.children) {
    properties[key.name] = key_schema(key);
    if (key.presence == Presence::Required) names.push_back(key.name);
  }
  out["properties"] = properties;
  if (!names.empty()) out["required"] = names;
  if (json rules = mapping_rules(mapping); !rules.empty()) out["allOf"] = rules;
  return out;
}

// Per engine an exchange may name: the keys of engine_options it reads, or nothing at
// all when its sides cannot progress independently (put/get would hang).
json engine_rules(const Key& engine) {
  json rules = json::array();
  for (const std::string& name : engine.choices) {
    const std::string resolved = resolve_engine_name(name);
    json when = {{"properties", {{"engine", {{"const", name}}}}}};
    if (name == engine.default_value) when = {{"anyOf", {when, {{"not", required("engine")}}}}};
    else when["required"] = {"engine"};
    if (!engine_capabilities(resolved).independent_sides) {
      rules.push_back({{"if", when}, {"then", false}});
      continue;
    }
    const auto keys = engine_option_keys(resolved);
    if (!keys) continue;
    json allowed = json::array();
    for (const EngineOptionKey& key : *keys) allowed.push_back(key.name);
    rules.push_back(
        {{"if", when},
         {"then", {{"properties", {{"engine_options", {{"propertyNames", {{"enum", allowed}}}}}}}}}});
  }
  return rules;
}

}  // namespace

std::string config_json_schema() {
  const Key schema = config_schema();
  json out = {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
              {"title", "ferry coupling configuration, version 1"},
              {"$comment", "Generated by `ferry config-schema` from ferry's configuration schema "
                           "and engine registry; `ferry validate` also checks the rules between "
                           "entries and values."}};
  out.update(key_schema(schema));
  out["properties"]["version"]["const"] = 1;
  json& entry = out["properties"]["exchanges"]["items"];
  for (json& rule : engine_rules(*find_child(*find_child(schema, "exchanges"), "engine")))
    entry["allOf"].push_back(std::move(rule));
  return out.dump(2) + "\n";
}

}  // namespace ferry::config
