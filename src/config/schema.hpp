// The configuration schema: every key of a ferry YAML file (version 1) with its
// type, whether it is required, its default, its allowed values and its
// documentation. The parser (yaml.cpp), `ferry validate` and `ferry config-doc`
// all read this one description; a key exists only if it is declared here.
#pragma once

#include <string>
#include <vector>

namespace ferry::config {

/// What a key holds.
enum class KeyType {
  Integer,     ///< a whole number
  Number,      ///< a finite decimal number
  Boolean,     ///< true or false
  String,      ///< non-empty text
  Choice,      ///< one of Key::choices
  StringList,  ///< a non-empty list of distinct, non-empty strings
  StringMap,   ///< a mapping of names to scalar values, kept as text
  Mapping,     ///< nested keys: Key::children
  List,        ///< a non-empty list of mappings, each with the keys Key::children
};

enum class Presence {
  Required,
  Optional,  ///< when absent, the key takes Key::default_value
  OneOf,     ///< exactly one of the OneOf keys of a mapping must be given
};

/// The values an Integer or Number may take (OneOrTwo: an order of accuracy).
enum class Bound { None, Positive, NonNegative, OneOrTwo };

/// One key of the file, or (the root) the file itself.
struct Key {
  std::string name;
  KeyType type = KeyType::String;
  Presence presence = Presence::Optional;
  std::string default_value;         ///< YAML text an absent Optional key reads as
  std::string default_doc;           ///< how the reference shows a derived default
  Bound bound = Bound::None;
  std::string unit;                  ///< Number: e.g. "seconds"
  std::vector<std::string> choices;  ///< Choice: the allowed values
  std::string choices_doc;           ///< the reference's text when choices depend on the build
  std::string entry_noun;            ///< List: what messages call one entry ("exchange")
  std::string doc;                   ///< one paragraph for the reference
  std::vector<Key> children;         ///< Mapping and List: the keys inside
  std::vector<std::string> any_of;   ///< Mapping: at least one of these children is given

  // Rules between this key and its siblings in one mapping, checked by the rules pass
  // (rules.hpp) and written into the JSON Schema (json_schema.hpp).
  std::vector<std::string> excludes;   ///< siblings that may not be given with this key
  std::vector<std::string> needs_any;  ///< given only with at least one of these siblings
  std::string needs_why;               ///< what the key does that needs them: "regrids"
  std::string only_when;               ///< given only when this sibling ...
  std::vector<std::string> only_when_values;  ///< ... has one of these values
};

/// The schema as a Mapping whose children are the top-level keys. Built on each
/// call, so `engine` allows exactly the engines registered at that moment (plus
/// "auto"). Not collective.
Key config_schema();

/// The child called `name` of a Mapping or List key, or nullptr.
const Key* find_child(const Key& parent, const std::string& name);

/// The names of the children of `parent`, in schema order.
std::vector<std::string> child_names(const Key& parent);

/// What a value of `key` must be, as messages and the reference say it:
/// "a number of seconds > 0", "true or false", "one of instant, average".
std::string describe_value(const Key& key);

}  // namespace ferry::config
