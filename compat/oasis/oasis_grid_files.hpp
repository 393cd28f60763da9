// The OASIS grid data files (grids.nc, masks.nc, areas.nc): what oasis_write_grid and
// its siblings collect, written at oasis_enddef, and read back for online remapping.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ferry::oasis {

/// One grid as the oasis_write_* calls give it, whole (nx x ny points, x fastest).
struct GridData {
  std::int64_t nx = 0, ny = 0;
  std::vector<double> lon, lat;    ///< degrees
  int corners = 0;
  std::vector<double> clo, cla;    ///< corners x points, corner slowest (as OASIS's (nx,ny,nc))
  std::vector<int> mask;           ///< OASIS convention: 1 = masked, 0 = valid
  std::vector<double> area, frac, angle;
};

/// Grids collected between oasis_start_grids_writing and oasis_enddef on one rank.
class GridWriter {
 public:
  GridData& grid(const std::string& name, std::int64_t nx, std::int64_t ny);
  bool empty() const noexcept { return grids_.empty(); }
  /// Adds every collected grid to grids.nc (lon, lat, clo, cla, ang), masks.nc (msk,
  /// frc) and areas.nc (srf) in `directory`, creating the files as needed; a variable
  /// already in a file is kept (OASIS never overwrites grid fields). Not collective:
  /// the caller makes sure one rank writes at a time. Errc::Io naming the file.
  void write(const std::string& directory) const;
  void clear() { grids_.clear(); }

 private:
  std::map<std::string, GridData> grids_;
};

/// What online remapping needs of one grid at the ids a rank holds.
struct GridPoints {
  std::vector<double> lon, lat;     ///< per id, degrees
  int corners = 0;
  std::vector<double> clo, cla;     ///< corners per id (point-major)
  std::vector<std::int32_t> mask;   ///< ferry's convention: 1 valid, 0 masked (empty: none)
  std::vector<double> area;         ///< empty: not in areas.nc
};

/// The shape (nx, ny) of grid `name` in grids.nc in `directory` (its centres' dimensions).
/// Errc::Io when the file or the variable is missing. Not collective.
std::pair<std::int64_t, std::int64_t> read_grid_shape(const std::string& directory,
                                                      const std::string& name);

/// Reads grid `name` at `ids` (0-based, x fastest) from grids.nc, masks.nc and
/// areas.nc in `directory`. Errc::Io when grids.nc lacks the centres or the ids
/// exceed the grid. Not collective.
GridPoints read_grid_points(const std::string& directory, const std::string& name,
                            const std::vector<std::int64_t>& ids);

}  // namespace ferry::oasis
