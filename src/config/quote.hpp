// Names and values from a file as messages show them: on one line, cut when long,
// so a stray control character cannot break the "<file>:<line>:<col>: ..." shape.
#pragma once

#include <string>

namespace ferry::config::detail {

/// `text` with line breaks and tabs escaped (\n, \t) and other control characters as '?'.
std::string one_line(const std::string& text);

/// one_line(text) in double quotes, cut after 60 characters with "...".
std::string quoted(const std::string& text);

}  // namespace ferry::config::detail
