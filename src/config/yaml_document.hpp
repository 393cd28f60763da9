// The one YAML document of a configuration file, loaded with yaml-cpp.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

namespace ferry::config::detail {

/// The document of `text` that holds content (empty documents, as a trailing
/// "---" makes, do not count). Raises Errc::Arg "<name>:<line>:<column>: ..." for a
/// YAML syntax error, a file without content, or a second document with content.
YAML::Node load_document(const std::string& text, const std::string& name);

}  // namespace ferry::config::detail
