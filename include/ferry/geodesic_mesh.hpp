// ferry::GeodesicMesh: an MPAS-like test mesh of hexagons and twelve pentagons.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "ferry/halo.hpp"

namespace ferry {

/// The Voronoi dual of a geodesic icosahedral grid on the unit sphere: each edge of
/// an icosahedron is cut into `frequency` parts, the faces into triangles, and the
/// 10 f^2 + 2 points become cell centres (12 pentagons, the rest hexagons), like the
/// quasi-uniform MPAS and FVWAM meshes (f = 16: 2562 cells, f = 64: 40962).
///
/// Cells are numbered icosahedron face by face, row by row, so a contiguous id range
/// is a compact patch. Each cell's neighbours are listed counterclockwise seen from
/// outside the sphere. The whole mesh lives on the rank that builds it: it is for
/// tests, examples and benchmarks; a Halo needs only each rank's CellGraph.
class GeodesicMesh {
 public:
  /// Not collective. Errc::Arg if frequency < 1 or the mesh would exceed 2^31 cells.
  explicit GeodesicMesh(int frequency);

  /// The frequency whose mesh has the cell count closest to `cells` (at least 1).
  static int frequency_for(std::int64_t cells);

  int frequency() const noexcept { return frequency_; }
  std::int64_t cell_count() const noexcept { return static_cast<std::int64_t>(centres_.size()); }
  /// Cells-on-cell in CSR form: cell c's neighbours are
  /// neighbours()[offsets()[c] .. offsets()[c+1]).
  const std::vector<std::int64_t>& offsets() const noexcept { return offsets_; }
  const std::vector<std::int64_t>& neighbours() const noexcept { return neighbours_; }
  /// The cell's centre (generating point), a unit vector.
  const std::array<double, 3>& centre(std::int64_t cell) const;
  /// The corner of the cell between its k-th and (k+1)-th neighbour (k modulo the
  /// degree): the circumcentre of the three centres, computed from them in ascending id
  /// order, so each of the three cells gets the same bits.
  std::array<double, 3> corner(std::int64_t cell, int k) const;
  /// The cell's area on the unit sphere (the cells tile the sphere: they sum to 4 pi).
  double area(std::int64_t cell) const;

  /// Not collective: the CellGraph of `rank` under the partition `owner` (owner[c] is
  /// the rank owning cell c): its cells in ascending id order, with their neighbours.
  /// Errc::ArgSize if owner does not have cell_count() entries.
  CellGraph cell_graph(const std::vector<int>& owner, int rank) const;

 private:
  int frequency_ = 0;
  std::vector<std::array<double, 3>> centres_;
  std::vector<std::int64_t> offsets_;
  std::vector<std::int64_t> neighbours_;
};

}  // namespace ferry
