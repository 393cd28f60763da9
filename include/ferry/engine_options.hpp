// ferry::EngineOptions: an engine's options as text, each checked by the engine that reads it.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>

namespace ferry {

/// Engine options as text, "key" -> "value" (e.g. "reorder" -> "true"); each
/// engine reads and validates its own keys.
struct EngineOptions {
  std::map<std::string, std::string> values;
  /// The option as a boolean; Errc::Arg names the engine and key if it is not true/false/1/0.
  bool get_bool(std::string_view engine, const std::string& key, bool fallback) const;
  /// The option as text (the engine checks the value).
  std::string get_string(const std::string& key, const std::string& fallback) const;
  /// Raises Errc::Arg naming the first option no get_* call has read (a typo, or an
  /// option of another engine). Called after the engine's setup.
  void check_all_read(std::string_view engine) const;

 private:
  mutable std::set<std::string> read_;
};

}  // namespace ferry
