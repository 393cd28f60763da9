// conservative_weights: first-order conservative weights between longitude-latitude cells.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/rendezvous.hpp"
#include "ferry/online_weights.hpp"
#include "regrid/blocks.hpp"
#include "regrid/cell_bins.hpp"
#include "regrid/grid_input.hpp"
#include "regrid/latitude_bands.hpp"
#include "regrid/lonlat_cell.hpp"
#include "regrid/weights_builder.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"

namespace ferry {

namespace {

using regrid::detail::Blocks;
using regrid::detail::LonLatCell;
using detail::route;

const char* const kCaller = "conservative_weights";

// A valid cell on its way to latitude band `band`.
struct BandCell {
  LonLatCell cell;
  std::int64_t id;
  std::int32_t band;
};

// One overlap of source cell `col` and destination cell `row` (areas on the unit sphere).
struct Overlap {
  std::int64_t row;
  std::int64_t col;
  double area;
  double row_area;
};

// What the weights record about one cell: its area, the area its links cover, its
// mask. A record with mask -1 carries the area of one link instead.
struct CellRecord {
  std::int64_t id;
  double area;
  double covered;
  std::int32_t mask;
};

// "(lon, lat), (lon, lat), ...": a cell's corners for an error message.
std::string listed(const double* lon, const double* lat, int corners) {
  std::ostringstream out;
  for (int c = 0; c < corners; ++c) out << (c ? ", (" : "(") << lon[c] << ", " << lat[c] << ")";
  return out.str();
}

// This rank's cells of one grid as rectangles; raises on bad input.
std::vector<LonLatCell> rectangles(const GridCells& grid, const char* which, int rank) {
  const auto n = static_cast<std::size_t>(grid.layout.local_size());
  const int corners = grid.corners;
  FERRY_CHECK(corners >= 3, Errc::Arg, kCaller, ": the ", which, " cells on rank ", rank, " have ",
              corners, " corners; give 3 or more (4 for a longitude-latitude rectangle)");
  const std::size_t expected = n * static_cast<std::size_t>(corners);
  FERRY_CHECK(grid.corner_lon.size() == expected && grid.corner_lat.size() == expected,
              Errc::ArgSize, kCaller, ": the ", which, " cells on rank ", rank, " have ",
              grid.corner_lon.size(), " corner longitudes and ", grid.corner_lat.size(),
              " corner latitudes, expected ", expected, " (", n, " cells x ", corners,
              " corners). Give the corners of each layout cell, cell after cell");
  std::vector<LonLatCell> cells(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double* lon = &grid.corner_lon[i * static_cast<std::size_t>(corners)];
    const double* lat = &grid.corner_lat[i * static_cast<std::size_t>(corners)];
    bool finite = true;
    for (int c = 0; c < corners; ++c)
      finite = finite && std::isfinite(lon[c]) && std::isfinite(lat[c]) && std::abs(lat[c]) <= 90;
    const std::int64_t id = grid.layout.ids()[i];
    FERRY_CHECK(finite, Errc::Arg, kCaller, ": ", which, " cell ", id, " (rank ", rank,
                ") has corners ", listed(lon, lat, corners),
                ". Give corners in degrees, finite, latitudes within -90..90");
    const std::string why = regrid::detail::rectangle_of(lon, lat, corners, cells[i]);
    FERRY_CHECK(why.empty(), Errc::Arg, kCaller, ": ", which, " cell ", id, " (rank ", rank,
                ") with corners ", listed(lon, lat, corners),
                " is not a longitude-latitude rectangle: ", why,
                ". Give cells whose edges are meridians and parallels (regular and Gaussian "
                "grids), or use another method");
  }
  return cells;
}

// The cells' centres, for the checks every online method shares.
GridPoints centres(const GridCells& grid, const std::vector<LonLatCell>& cells) {
  GridPoints points{grid.layout, {}, {}, grid.mask};
  for (const LonLatCell& c : cells) {
    points.lon.push_back(c.west + c.width / 2);
    points.lat.push_back((c.south + c.north) / 2);
  }
  return points;
}

bool valid(const GridCells& grid, std::size_t i) { return grid.mask.empty() || grid.mask[i] != 0; }

// Collective: the valid cells of one grid, each sent to every band its latitudes reach.
std::vector<BandCell> to_bands(const Comm& comm, const regrid::detail::LatitudeBands& bands,
                               const GridCells& grid, const std::vector<LonLatCell>& cells) {
  std::vector<BandCell> out;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (!valid(grid, i)) continue;
    for (int b = bands.band(cells[i].south); b <= bands.band(cells[i].north); ++b)
      out.push_back({cells[i], grid.layout.ids()[i], b});
  }
  return route(comm, out, [](const BandCell& c) { return c.band; });
}

// The overlaps this rank's band computes: those whose southern edge lies in it, so
// that a pair of cells reaching several bands is counted once.
std::vector<Overlap> band_overlaps(const regrid::detail::LatitudeBands& bands, int me,
                                   const std::vector<BandCell>& sources,
                                   const std::vector<BandCell>& targets) {
  std::vector<LonLatCell> source_cells;
  source_cells.reserve(sources.size());
  for (const BandCell& s : sources) source_cells.push_back(s.cell);
  const regrid::detail::CellBins bins(source_cells);
  std::vector<Overlap> overlaps;
  std::vector<std::uint32_t> candidates;
  for (const BandCell& d : targets) {
    bins.candidates(d.cell, candidates);
    const double row_area = regrid::detail::cell_area(d.cell);
    for (std::uint32_t k : candidates) {
      const BandCell& s = sources[k];
      if (bands.band(std::max(s.cell.south, d.cell.south)) != me) continue;
      const double area = regrid::detail::overlap_area(s.cell, d.cell);
      if (area > 0) overlaps.push_back({d.id, s.id, area, row_area});
    }
  }
  return overlaps;
}

// Collective: area, covered area and mask of every cell of one grid, on the rank
// holding the cell's block (cells no rank gives: all 0), ordered by id.
std::vector<CellRecord> cell_records(const Comm& comm, const GridCells& grid,
                                     const std::vector<LonLatCell>& cells,
                                     std::vector<std::pair<std::int64_t, double>> covered) {
  const Blocks blocks(grid.layout.global_size(), comm.size());
  std::vector<CellRecord> mine;
  for (std::size_t i = 0; i < cells.size(); ++i)
    mine.push_back({grid.layout.ids()[i], regrid::detail::cell_area(cells[i]), 0,
                    valid(grid, i) ? 1 : 0});
  for (const auto& [id, area] : covered) mine.push_back({id, 0, area, -1});
  std::vector<CellRecord> got =
      route(comm, mine, [&](const CellRecord& r) { return blocks.owner(r.id); });
  // The cell itself first, then its overlaps as they arrived: by ascending row, since
  // their senders hold the rows in blocks. So the sums do not depend on the ranks.
  std::stable_sort(got.begin(), got.end(), [](const CellRecord& a, const CellRecord& b) {
    return a.id != b.id ? a.id < b.id : a.mask > b.mask;
  });
  const std::int64_t first = blocks.first(comm.rank());
  std::vector<CellRecord> records(static_cast<std::size_t>(blocks.count(comm.rank())));
  for (std::size_t k = 0; k < records.size(); ++k)
    records[k] = {first + static_cast<std::int64_t>(k), 0, 0, 0};
  for (const CellRecord& r : got) {
    CellRecord& to = records[static_cast<std::size_t>(r.id - first)];
    if (r.mask >= 0) {
      to.area = r.area;
      to.mask = r.mask;
    } else {
      to.covered += r.covered;
    }
  }
  return records;
}

GridPointData point_data(const std::vector<CellRecord>& records) {
  GridPointData data{std::vector<double>(), std::vector<double>(), std::vector<std::int32_t>()};
  for (const CellRecord& r : records) {
    data.area->push_back(r.area);
    data.frac->push_back(r.area > 0 ? r.covered / r.area : 0);
    data.mask->push_back(r.mask);
  }
  return data;
}

}  // namespace

Weights conservative_weights(MPI_Comm user_comm, const GridCells& src, const GridCells& dst,
                             const ConservativeOptions& options) {
  const Comm comm = Comm::dup(user_comm);
  const bool by_frac = options.normalisation == ConservativeNormalisation::FracArea;
  std::vector<LonLatCell> src_cells;
  std::vector<LonLatCell> dst_cells;
  detail::agree_on(comm, [&] {
    FERRY_CHECK(by_frac || options.normalisation == ConservativeNormalisation::DestArea,
                Errc::Arg, kCaller, ": normalisation is ",
                static_cast<int>(options.normalisation), "; give FracArea or DestArea");
    src_cells = rectangles(src, "source", comm.rank());
    dst_cells = rectangles(dst, "destination", comm.rank());
  });
  regrid::detail::check_grids(comm, kCaller, centres(src, src_cells), centres(dst, dst_cells));

  const regrid::detail::LatitudeBands bands(comm.size());
  std::vector<Overlap> overlaps =
      band_overlaps(bands, comm.rank(), to_bands(comm, bands, src, src_cells),
                    to_bands(comm, bands, dst, dst_cells));

  // Each row whole on its owner, its overlaps by source id: the sum is the same anywhere.
  const Blocks rows(dst.layout.global_size(), comm.size());
  overlaps = route(comm, overlaps, [&](const Overlap& o) { return rows.owner(o.row); });
  std::sort(overlaps.begin(), overlaps.end(), [](const Overlap& a, const Overlap& b) {
    return a.row != b.row ? a.row < b.row : a.col < b.col;
  });
  std::vector<WeightLink> links;
  links.reserve(overlaps.size());
  std::vector<std::pair<std::int64_t, double>> src_covered;
  std::vector<std::pair<std::int64_t, double>> dst_covered;
  for (std::size_t first = 0, last = 0; first < overlaps.size(); first = last) {
    double covered = 0;
    for (last = first; last < overlaps.size() && overlaps[last].row == overlaps[first].row; ++last)
      covered += overlaps[last].area;
    const double norm = by_frac ? covered : overlaps[first].row_area;
    for (std::size_t k = first; k < last; ++k) {
      const Overlap& o = overlaps[k];
      links.push_back({o.row, o.col, o.area / norm, o.col});
      src_covered.emplace_back(o.col, o.area);
    }
    dst_covered.emplace_back(overlaps[first].row, covered);
  }
  overlaps = {};

  Weights weights = WeightsBuilder::distribute(comm, kCaller, src.layout.global_size(),
                                               dst.layout.global_size(), std::move(links));
  WeightsBuilder::set_points(
      weights, point_data(cell_records(comm, src, src_cells, std::move(src_covered))),
      point_data(cell_records(comm, dst, dst_cells, std::move(dst_covered))),
      by_frac ? "ferry conservative, fracarea" : "ferry conservative, destarea");
  return weights;
}

}  // namespace ferry
