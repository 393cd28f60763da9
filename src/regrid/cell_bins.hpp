// CellBins: longitude-latitude rectangles sorted into bins, to find the ones a cell overlaps.
#pragma once

#include <cstdint>
#include <vector>

#include "regrid/lonlat_cell.hpp"

namespace ferry::regrid::detail {

/// Not collective, not thread-safe. A grid of about as many bins as cells over 0..360
/// degrees of longitude and the cells' latitudes; each cell is listed in every bin it
/// reaches.
class CellBins {
 public:
  explicit CellBins(const std::vector<LonLatCell>& cells);

  /// Replaces `out` with the indices (each once, in the order the bins list them) of
  /// every cell that may overlap `query`: a superset of those that do.
  void candidates(const LonLatCell& query, std::vector<std::uint32_t>& out) const;

 private:
  // Bins of longitude i0 .. i1 (taken modulo the count) and latitude j0 .. j1
  // reached by `cell`, its longitudes widened by `slack` degrees each way.
  struct Span {
    std::int64_t i0, i1;
    int j0, j1;
  };
  Span span(const LonLatCell& cell, double slack) const;
  template <class Visit>
  void for_each_bin(const Span& s, Visit visit) const;

  int nlon_ = 1;
  int nlat_ = 1;
  double south_ = -90;
  double height_ = 180;
  std::vector<std::size_t> start_;  // CSR: bin b lists cells_[start_[b] .. start_[b + 1])
  std::vector<std::uint32_t> cells_;
  // The query that last listed each cell: a cell in several bins is listed once.
  mutable std::vector<std::uint32_t> listed_by_;
  mutable std::uint32_t queries_ = 0;
};

}  // namespace ferry::regrid::detail
