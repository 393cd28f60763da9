#include "config/grid_checks.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>
#include <utility>

#include "config/quote.hpp"
#include "ferry/error.hpp"
#include "util/format.hpp"

namespace ferry::config {

GridSource grid_source(const GridFileConfig& grid) {
  return {grid.file, grid.format, grid.name, grid.mask, ""};
}

std::vector<Problem> check_grid_files(const Config& config) {
  std::vector<Problem> problems;
  for (const GridFileConfig& g : config.grids) {
    const std::string title = "grid " + detail::quoted(g.name);
    bool readable = true;
    for (const auto& [key, path] : {std::pair<const char*, const std::string&>{"file", g.file},
                                    {"mask", g.mask}}) {
      if (path.empty() || std::ifstream(path).good()) continue;
      readable = false;
      problems.push_back({value_location(g.given, key, g.where),
                          ferry::detail::cat(title, ": ", key, " ", detail::quoted(path),
                                             " cannot be read (", std::strerror(errno),
                                             "); give a path relative to the directory the run "
                                             "starts in, or an absolute one")});
    }
    if (!readable) continue;
    try {
      read_grid_shape(grid_source(g));
    } catch (const Error& e) {
      problems.push_back({value_location(g.given, "file", g.where),
                          ferry::detail::cat(title, ": ", e.what())});
    }
  }
  return problems;
}

}  // namespace ferry::config
