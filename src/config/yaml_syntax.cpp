#include "config/yaml_syntax.hpp"

#include <cstring>
#include <optional>

#include "config/quote.hpp"

namespace ferry::config::detail {

namespace {

// The first tab in the leading white space of a line at or before line `last` (0-based).
std::optional<YAML::Mark> tab_in_indentation(const std::string& text, int last) {
  int line = 0;
  for (std::size_t begin = 0; begin < text.size() && line <= last; ++line) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    for (std::size_t i = begin; i < end && (text[i] == ' ' || text[i] == '\t'); ++i)
      if (text[i] == '\t') {
        YAML::Mark mark;
        mark.pos = static_cast<int>(i);
        mark.line = line;
        mark.column = static_cast<int>(i - begin);
        return mark;
      }
    begin = end + 1;
  }
  return std::nullopt;
}

bool starts_with(const std::string& text, const char* prefix) {
  return text.compare(0, std::strlen(prefix), prefix) == 0;
}

// yaml-cpp's message in words a configuration's author can act on.
std::string explain(const std::string& message) {
  namespace msg = YAML::ErrorMsg;
  if (message == msg::MAP_VALUE)
    return "a ':' where no value can start here: a value that contains \": \" needs quotes "
           "(\"a: b\"), and a key must line up with the keys before it";
  if (message == msg::END_OF_MAP || message == msg::END_OF_SEQ)
    return "the indentation does not line up: each key of a mapping, and each \"- \" of a "
           "list, starts in the same column as the ones before it";
  if (message == msg::END_OF_MAP_FLOW) return "a '{' is never closed: add the matching '}'";
  if (message == msg::END_OF_SEQ_FLOW) return "a '[' is never closed: add the matching ']'";
  if (message == msg::FLOW_END) return "a '}' or ']' closes nothing: remove it or add its opening";
  if (message == msg::BLOCK_ENTRY)
    return "a \"- \" list entry where a key or value was expected: start the list on the line "
           "after its key, indented";
  if (message == msg::UNKNOWN_ANCHOR)
    return "an alias (*name) refers to no anchor (&name) defined before it";
  if (starts_with(message, msg::INVALID_ESCAPE))
    return "unknown escape \\" + one_line(message.substr(std::strlen(msg::INVALID_ESCAPE))) +
           " in a double-quoted string: write \\\\ for a backslash, or use single quotes";
  if (message == msg::TAB_IN_INDENTATION)
    return "a tab in the indentation: YAML indents with spaces only";
  return one_line(message);
}

}  // namespace

SyntaxError explain_syntax_error(const YAML::Exception& error, const std::string& text) {
  const int line = error.mark.line >= 0 ? error.mark.line : 0;
  if (const auto tab = tab_in_indentation(text, line))
    return {*tab, "YAML syntax error: line " + std::to_string(tab->line + 1) +
                      " is indented with a tab; YAML indents with spaces only, so replace the "
                      "tab with spaces"};
  return {error.mark, "YAML syntax error: " + explain(error.msg)};
}

}  // namespace ferry::config::detail
