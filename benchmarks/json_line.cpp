#include "json_line.hpp"

#include <cmath>
#include <cstdio>

#include "util/json_text.hpp"

namespace ferry::bench {

using detail::json_string;

JsonLine& JsonLine::add_raw(const std::string& key, const std::string& json) {
  if (!body_.empty()) body_ += ", ";
  body_ += json_string(key) + ": " + json;
  return *this;
}

JsonLine& JsonLine::add(const std::string& key, const std::string& value) {
  return add_raw(key, json_string(value));
}

JsonLine& JsonLine::add(const std::string& key, const char* value) {
  return add_raw(key, json_string(value));
}

JsonLine& JsonLine::add(const std::string& key, double value) {
  if (!std::isfinite(value)) return add_raw(key, "null");
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return add_raw(key, text);
}

JsonLine& JsonLine::add(const std::string& key, std::int64_t value) {
  return add_raw(key, std::to_string(value));
}

JsonLine& JsonLine::add(const std::string& key, int value) {
  return add_raw(key, std::to_string(value));
}

JsonLine& JsonLine::add(const std::string& key, bool value) {
  return add_raw(key, value ? "true" : "false");
}

JsonLine& JsonLine::add_seconds(const std::string& prefix, const Summary& seconds) {
  return add(prefix + "_median_s", seconds.median)
      .add(prefix + "_min_s", seconds.min)
      .add(prefix + "_max_s", seconds.max);
}

}  // namespace ferry::bench
