// Reading grids in parallel from OASIS, SCRIP and CDO/ICON unstructured grid files.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ferry/online_weights.hpp"

namespace ferry {

/// The kinds of grid file read_grid knows.
enum class GridFormat : int {
  /// Recognised from the variables: "<name>.lon" (OASIS), "grid_center_lat" (SCRIP),
  /// "clon" (unstructured).
  Auto = 0,
  /// OASIS grids.nc: <name>.lon, <name>.lat (y, x), <name>.clo, <name>.cla (corners, y,
  /// x), degrees; with masks.nc (<name>.msk, 1 = masked, as OASIS writes it) and
  /// areas.nc (<name>.srf).
  Oasis = 1,
  /// A SCRIP grid file: grid_center_lon/lat (grid_size), grid_corner_lon/lat (grid_size,
  /// grid_corners), grid_imask (1 = valid), grid_dims, optional grid_area; degrees or
  /// radians as their units say.
  Scrip = 2,
  /// A CDO/ICON unstructured grid file: clon, clat (cells), clon_vertices,
  /// clat_vertices (cells, vertices); radians or degrees as their units say.
  Unstructured = 3,
};

/// Where one grid is. Logically collective: the same on every rank.
struct GridSource {
  std::string path;  ///< grids.nc (OASIS), a SCRIP or an unstructured grid file
  GridFormat format = GridFormat::Auto;
  std::string name;  ///< OASIS: the grid's prefix in the files ("torc"); also names it in errors
  std::string masks;  ///< OASIS: masks.nc, or "" (every cell valid)
  std::string areas;  ///< OASIS: areas.nc, or ""
};

/// One grid as read: this rank's block of its cells, Layout::block(size, P, rank).
struct Grid {
  /// Cell centres (degrees) and mask (1 = valid, 0 = masked, whatever the file's
  /// convention).
  GridPoints points;
  /// Cell corners (degrees; `corners` per cell, as many as the file has), the same
  /// mask, and the grid's name; edges CellEdges::Auto.
  GridCells cells;
  /// The file's cell areas (OASIS areas.nc in m^2, SCRIP grid_area), or empty.
  std::vector<double> area;
  /// Logically rectangular grids (OASIS, SCRIP of rank 2): points per row, id = j * nx
  /// + i; 0 for unstructured grids.
  std::int64_t nx = 0;
};

/// What a grid file holds, as read_grid_shape finds it.
struct GridShape {
  GridFormat format = GridFormat::Auto;  ///< as recognised (never Auto)
  std::int64_t size = 0;                 ///< cells
  std::int64_t nx = 0;                   ///< as Grid::nx
  int corners = 0;                       ///< per cell; 0 when the file has no corners
  bool mask = false;                     ///< the file (or masks.nc) has the grid's mask
  bool area = false;                     ///< the file (or areas.nc) has the grid's areas
};

/// Not collective. Opens a grid's files and checks, without reading the cells, what
/// read_grid checks before it reads them: the format recognised, the centre
/// variables present, 1-D or 2-D and of one shape, the corner variables (when
/// present) of one more dimension, an OASIS grid's masks.nc and areas.nc (when
/// given) holding its mask and areas, of the centres' shape. Raises as read_grid.
GridShape read_grid_shape(const GridSource& source);

/// Collective over `comm`. Reads a grid: every rank reads its block of cells (whole
/// rows of a 2-D grid around it) with the NetCDF library; no rank reads the whole grid.
/// Raises on every rank alike: Errc::Io (a file unreadable, a variable missing or of
/// the wrong shape or type, naming the file and the variable; a format not
/// recognised), Errc::Arg (coordinate units other than degrees or radians).
Grid read_grid(MPI_Comm comm, const GridSource& source);

}  // namespace ferry
