// One-line JSON objects: benchmark and report results, one object per line.
#pragma once

#include <cstdint>
#include <string>

#include "statistics.hpp"

namespace ferry::bench {

/// Keys appear in the order added. Non-finite numbers are written as null.
class JsonLine {
 public:
  JsonLine& add(const std::string& key, const std::string& value);
  JsonLine& add(const std::string& key, const char* value);
  JsonLine& add(const std::string& key, double value);
  JsonLine& add(const std::string& key, std::int64_t value);
  JsonLine& add(const std::string& key, int value);
  JsonLine& add(const std::string& key, bool value);
  /// "<prefix>_median_s", "<prefix>_min_s" and "<prefix>_max_s": times in seconds.
  JsonLine& add_seconds(const std::string& prefix, const Summary& seconds);
  /// The object, without a trailing newline.
  std::string str() const { return "{" + body_ + "}"; }

 private:
  JsonLine& add_raw(const std::string& key, const std::string& json);
  std::string body_;
};

}  // namespace ferry::bench
