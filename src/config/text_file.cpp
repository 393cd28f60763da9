#include "config/text_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "util/check.hpp"

namespace ferry::config::detail {

std::string read_text_file(const std::string& path, const std::string& caller,
                           const std::string& kind) {
  std::ifstream in(path, std::ios::binary);
  FERRY_CHECK(in, Errc::Io, caller, ": cannot open the ", kind, " \"", path, "\": ",
              std::strerror(errno), ". Check the path and the file's permissions");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  FERRY_CHECK(!in.bad(), Errc::Io, caller, ": cannot read the ", kind, " \"", path, "\": ",
              std::strerror(errno), ". Check that it is a readable file");
  return text;
}

}  // namespace ferry::config::detail
