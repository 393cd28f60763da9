#include "regrid/cell_bins.hpp"

#include <algorithm>
#include <cmath>

namespace ferry::regrid::detail {

namespace {

// How far (degrees) a query reaches beyond its longitudes. A longitude two cells share
// may be reached 360 degrees apart (one's west + width past 360), and rounding may put
// lon / 360 x bins a bin apart there; its error is below 1e-12 degrees. A whole bin
// more each way would list about twice the candidates.
constexpr double kWrapSlack = 1e-9;

}  // namespace

CellBins::CellBins(const std::vector<LonLatCell>& cells) {
  if (cells.empty()) {
    start_.assign(2, 0);
    return;
  }
  double south = 90;
  double north = -90;
  for (const LonLatCell& c : cells) {
    south = std::min(south, c.south);
    north = std::max(north, c.north);
  }
  south_ = south;
  height_ = north - south;
  // Twice as many bins in longitude as in latitude, as on a regular grid.
  const double n = static_cast<double>(cells.size());
  nlat_ = std::max(1, static_cast<int>(std::sqrt(n / 2)));
  nlon_ = std::max(1, static_cast<int>(n / nlat_));

  const auto bins = static_cast<std::size_t>(nlon_) * static_cast<std::size_t>(nlat_);
  start_.assign(bins + 1, 0);
  for (const LonLatCell& c : cells)
    for_each_bin(span(c, 0.0), [&](std::size_t b) { ++start_[b + 1]; });
  for (std::size_t b = 0; b < bins; ++b) start_[b + 1] += start_[b];
  cells_.resize(start_.back());
  listed_by_.assign(cells.size(), 0);
  std::vector<std::size_t> fill(start_.begin(), start_.end() - 1);
  for (std::size_t k = 0; k < cells.size(); ++k)
    for_each_bin(span(cells[k], 0.0),
                 [&](std::size_t b) { cells_[fill[b]++] = static_cast<std::uint32_t>(k); });
}

CellBins::Span CellBins::span(const LonLatCell& cell, double slack) const {
  auto lat_bin = [&](double lat) {
    const double j = std::floor((lat - south_) / height_ * nlat_);
    return static_cast<int>(std::clamp(j, 0.0, nlat_ - 1.0));
  };
  auto lon_bin = [&](double lon) {
    return static_cast<std::int64_t>(std::floor(lon / 360 * nlon_));
  };
  return {lon_bin(cell.west - slack), lon_bin(cell.west + cell.width + slack),
          lat_bin(cell.south), lat_bin(cell.north)};
}

template <class Visit>
void CellBins::for_each_bin(const Span& s, Visit visit) const {
  // A cell reaching every longitude bin visits each once.
  const std::int64_t i1 = std::min(s.i1, s.i0 + nlon_ - 1);
  for (int j = s.j0; j <= s.j1; ++j)
    for (std::int64_t i = s.i0; i <= i1; ++i) {
      const std::int64_t column = ((i % nlon_) + nlon_) % nlon_;
      visit(static_cast<std::size_t>(j) * static_cast<std::size_t>(nlon_) +
            static_cast<std::size_t>(column));
    }
}

void CellBins::candidates(const LonLatCell& query, std::vector<std::uint32_t>& out) const {
  out.clear();
  if (cells_.empty()) return;
  if (++queries_ == 0) {  // the stamps wrapped round: start afresh
    std::fill(listed_by_.begin(), listed_by_.end(), 0);
    queries_ = 1;
  }
  // Longitudes a little wider (kWrapSlack). Latitudes need no margin: the bin of a
  // latitude never decreases with it, so the bin of a latitude both cells reach lies
  // in both cells' ranges.
  for_each_bin(span(query, kWrapSlack), [&](std::size_t b) {
    for (std::size_t k = start_[b]; k < start_[b + 1]; ++k) {
      const std::uint32_t cell = cells_[k];
      if (listed_by_[cell] == queries_) continue;
      listed_by_[cell] = queries_;
      out.push_back(cell);
    }
  });
}

}  // namespace ferry::regrid::detail
