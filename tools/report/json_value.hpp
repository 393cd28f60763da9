// A parsed JSON document: enough of JSON to read the files ferry writes (timers).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ferry::report {

/// One JSON value: its kind and, for numbers, strings, arrays and objects, its content
/// (true and false are told apart by nothing ferry reads).
class JsonValue {
 public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Kind kind() const noexcept { return kind_; }
  double number() const noexcept { return number_; }
  const std::string& string() const noexcept { return string_; }
  const std::vector<JsonValue>& items() const noexcept { return items_; }
  /// The member named `key` of an object; nullptr if absent or not an object.
  const JsonValue* find(const std::string& key) const noexcept;

 private:
  friend class JsonParser;
  Kind kind_ = Kind::Null;
  double number_ = 0;
  std::string string_;
  std::vector<JsonValue> items_;
  std::vector<std::pair<std::string, JsonValue>> members_;
};

/// Parses one JSON document (RFC 8259; \u escapes outside ASCII become '?'). Raises
/// Errc::Io "<source>:<line>:<column>: <what is wrong>" for text that is not JSON.
JsonValue parse_json(const std::string& text, const std::string& source);

}  // namespace ferry::report
