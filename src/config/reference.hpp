// The configuration reference (docs/user/config.md), generated from the schema.
#pragma once

#include <string>

namespace ferry::config {

/// The Markdown reference page: an example, then one table per mapping of the
/// schema (key, value, default, description). The same on every build: values
/// that depend on the build (the engines) are described, not listed. Not collective.
std::string config_reference();

/// The example configuration the reference opens with (a valid file).
const std::string& config_reference_example();

}  // namespace ferry::config
