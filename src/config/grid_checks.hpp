// What `ferry validate` checks of the grid files a configuration names: that each
// opens and holds the variables of its format.
#pragma once

#include <vector>

#include "config/config.hpp"
#include "ferry/grid_file.hpp"

namespace ferry::config {

/// Where the cells of a `grids:` entry are, as read_grid takes it. Not collective.
GridSource grid_source(const GridFileConfig& grid);

/// Every problem of the files of `config.grids`, in the order of the entries: a
/// `file` or `mask` that cannot be opened (pointing at that key), a file
/// whose format is not recognised or lacks a variable of its format, or whose mask
/// is of another shape than its centres (read_grid_shape; pointing at
/// `file`). Opens every file named, so run it where they are: `ferry validate` does;
/// a run finds the same problems when it reads the grids at enddef. Not collective.
std::vector<Problem> check_grid_files(const Config& config);

}  // namespace ferry::config
