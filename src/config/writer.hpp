// Writing a Config as YAML: what `ferry import-namcouple` produces.
#pragma once

#include <string>

#include "config/config.hpp"

namespace ferry::config {

/// YAML text (version 1) that parse_config reads back as `config` (all but `path`
/// and the `where` of each exchange). Keys at their default are left out, except
/// each exchange's name. Not collective.
std::string format_config(const Config& config);

/// `text` as a YAML scalar: plain when that reads back as the same string in any
/// YAML reader, else double-quoted with escapes.
std::string yaml_scalar(const std::string& text);

}  // namespace ferry::config
