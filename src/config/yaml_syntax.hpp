// YAML syntax errors in ferry's words: what yaml-cpp's terse message means for a
// configuration file, and where to look.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

namespace ferry::config::detail {

/// A syntax error explained: where it is and what to do about it.
struct SyntaxError {
  YAML::Mark mark;
  std::string what;  ///< "YAML syntax error: ..." with the cause and the fix
};

/// Explains yaml-cpp's `error` on `text`. A tab in the indentation of a line up to the
/// error is reported at the tab, whatever yaml-cpp said (it reports tabs as "illegal
/// map value" or "end of map not found" further on); known messages are explained;
/// others are passed on as yaml-cpp words them.
SyntaxError explain_syntax_error(const YAML::Exception& error, const std::string& text);

}  // namespace ferry::config::detail
