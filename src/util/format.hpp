// Building error and log messages from pieces without printf formats.
#pragma once

#include <sstream>
#include <string>
#include <utility>

namespace ferry::detail {

/// Concatenates the streamed form of every argument: cat("got ", n, " ids").
template <class... Args>
std::string cat(Args&&... args) {
  std::ostringstream out;
  (out << ... << std::forward<Args>(args));
  return out.str();
}

/// The items with `separator` between them: join(names, ", ") is "a, b".
template <class Range>
std::string join(const Range& items, const std::string& separator) {
  std::ostringstream out;
  bool first = true;
  for (const auto& item : items) {
    out << (first ? "" : separator) << item;
    first = false;
  }
  return out.str();
}

/// Up to `limit` items of a range, comma-separated, with ", ..." when cut.
template <class Range>
std::string list_first(const Range& items, std::size_t limit) {
  std::ostringstream out;
  std::size_t n = 0;
  for (const auto& item : items) {
    if (n == limit) {
      out << ", ...";
      break;
    }
    out << (n ? ", " : "") << item;
    ++n;
  }
  return out.str();
}

}  // namespace ferry::detail
