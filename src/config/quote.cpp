#include "config/quote.hpp"

namespace ferry::config::detail {

namespace {

constexpr std::size_t kMaxQuoted = 60;

}  // namespace

std::string one_line(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (static_cast<unsigned char>(c) < 0x20)
      out += '?';
    else
      out += c;
  }
  return out;
}

std::string quoted(const std::string& text) {
  const bool cut = text.size() > kMaxQuoted;
  return "\"" + one_line(cut ? text.substr(0, kMaxQuoted) : text) + (cut ? "...\"" : "\"");
}

}  // namespace ferry::config::detail
