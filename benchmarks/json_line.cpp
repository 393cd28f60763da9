#include "json_line.hpp"

#include <cmath>
#include <cstdio>

namespace ferry::bench {

namespace {

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

}  // namespace

JsonLine& JsonLine::add_raw(const std::string& key, const std::string& json) {
  if (!body_.empty()) body_ += ", ";
  body_ += quoted(key) + ": " + json;
  return *this;
}

JsonLine& JsonLine::add(const std::string& key, const std::string& value) {
  return add_raw(key, quoted(value));
}

JsonLine& JsonLine::add(const std::string& key, const char* value) {
  return add_raw(key, quoted(value));
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
