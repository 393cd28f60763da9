// Strict conversions of configuration text to numbers and booleans, shared by the
// YAML parser and the namcouple importer: no locale, no hex, no inf or nan, no
// trailing text, so "1h" or "3600s" is an error rather than 1 or 3600.
#pragma once

#include <optional>
#include <string>

namespace ferry::config::detail {

/// A finite decimal number ("3600", "+3600", "0.5", "1e3"), or nullopt.
std::optional<double> parse_number(const std::string& text);

/// A whole decimal number that fits a long long ("3", "+3", "-2"), or nullopt.
std::optional<long long> parse_integer(const std::string& text);

/// "true" or "false" (YAML 1.2 core schema), or nullopt: "yes", "on" and "1" are
/// not accepted, so a value means the same to every YAML reader.
std::optional<bool> parse_boolean(const std::string& text);

/// The shortest text that reads back as `value`: "3600", "0.5", "1e+20".
std::string format_number(double value);

}  // namespace ferry::config::detail
