// Reading a whole input file (a configuration, a namcouple) with errors that say which.
#pragma once

#include <string>

namespace ferry::config::detail {

/// The bytes of the file at `path`. Errc::Io names `caller` (e.g. "load_config"),
/// the kind of file and the system's reason. Not collective.
std::string read_text_file(const std::string& path, const std::string& caller,
                           const std::string& kind);

}  // namespace ferry::config::detail
