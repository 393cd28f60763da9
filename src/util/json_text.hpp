// Strings in the JSON that ferry writes (timer files, benchmark and report lines).
#pragma once

#include <string>

namespace ferry::detail {

/// `text` as a JSON string, quotes included, written by nlohmann-json: quotes,
/// backslashes and control characters escaped; bytes that are not UTF-8 become U+FFFD.
std::string json_string(const std::string& text);

}  // namespace ferry::detail
