#include "config/scalar.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <system_error>

namespace ferry::config::detail {

namespace {

// from_chars rejects a leading '+', which YAML and OASIS ("LAG=+3600") both allow.
const char* skip_plus(const std::string& text) {
  return text.size() > 1 && text[0] == '+' && text[1] != '-' ? text.data() + 1 : text.data();
}

}  // namespace

std::optional<double> parse_number(const std::string& text) {
  const char* first = skip_plus(text);
  const char* last = text.data() + text.size();
  if (first == last) return std::nullopt;
  // from_chars would also read "inf", "nan" and, with a format flag, hex: only
  // digits, a point, a sign and an exponent make a number here.
  for (const char* c = first; c != last; ++c)
    if (!((*c >= '0' && *c <= '9') || *c == '.' || *c == '-' || *c == '+' || *c == 'e' ||
          *c == 'E'))
      return std::nullopt;
  double value = 0;
  const auto [end, error] = std::from_chars(first, last, value, std::chars_format::general);
  if (error != std::errc() || end != last || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::optional<long long> parse_integer(const std::string& text) {
  const char* first = skip_plus(text);
  const char* last = text.data() + text.size();
  long long value = 0;
  const auto [end, error] = std::from_chars(first, last, value, 10);
  if (first == last || error != std::errc() || end != last) return std::nullopt;
  return value;
}

std::optional<bool> parse_boolean(const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  return std::nullopt;
}

std::string format_number(double value) {
  std::array<char, 32> buffer{};
  const auto [end, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return error == std::errc() ? std::string(buffer.data(), end) : std::to_string(value);
}

}  // namespace ferry::config::detail
