// conservative_weights: first-order conservative weights between cells on the sphere.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/rendezvous.hpp"
#include "ferry/online_weights.hpp"
#include "regrid/blocks.hpp"
#include "regrid/cell_bins.hpp"
#include "regrid/cell_overlap.hpp"
#include "regrid/cell_shapes.hpp"
#include "regrid/gradient_stencils.hpp"
#include "regrid/grid_input.hpp"
#include "regrid/latitude_bands.hpp"
#include "regrid/lonlat_cell.hpp"
#include "regrid/nearest_fill.hpp"
#include "regrid/progress_meter.hpp"
#include "regrid/weights_builder.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"

namespace ferry {

namespace {

using regrid::detail::Blocks;
using regrid::detail::CellShapes;
using regrid::detail::LatitudeBands;
using regrid::detail::LonLatCell;
using detail::route;
using regrid::detail::Vec3;

const char* const kCaller = "conservative_weights";
// Overlaps smaller than this part of the destination cell are rounding slivers of
// cells that only touch: no link.
constexpr double kNegligibleOverlap = 1e-15;
// Second order with computed gradients: the nearest valid source cells each cell's
// gradient is fitted to (its 8 neighbours on a logically rectangular grid).
constexpr int kGradientNeighbours = 8;

// A cell on its way to latitude band `band`; its `corners` corners (none for a
// rectangle, which is its box) follow it in the same order.
struct BandCell {
  std::int64_t id;
  LonLatCell box;
  std::int32_t band;
  std::int32_t corners;
};

struct BandCorner {
  Vec3 p;
  std::int32_t band;
};

// One overlap of source cell `col` and destination cell `row` (areas on the unit sphere)
// and, for second order, its integrals of latitude and longitude less those of the
// source cell's centroid.
struct Overlap {
  std::int64_t row;
  std::int64_t col;
  double area;
  double row_area;
  double lat;
  double lon;
};

// What the weights record about one cell: its area, the area its links cover, its
// mask. A record with mask -1 carries the area of one link instead.
struct CellRecord {
  std::int64_t id;
  double area;
  double covered;
  std::int32_t mask;
};

// Collective: every cell of `shapes` to each band its box reaches; the cells of this
// rank's band.
CellShapes to_bands(const Comm& comm, const LatitudeBands& bands, const CellShapes& shapes) {
  std::vector<BandCell> cells;
  std::vector<BandCorner> corners;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const LonLatCell& box = shapes.box[i];
    const auto count =
        shapes.lonlat ? 0 : static_cast<std::int32_t>(shapes.first[i + 1] - shapes.first[i]);
    for (int b = bands.band(box.south); b <= bands.band(box.north); ++b) {
      cells.push_back({shapes.id[i], box, b, count});
      if (!shapes.lonlat)
        for (std::uint32_t k = shapes.first[i]; k < shapes.first[i + 1]; ++k)
          corners.push_back({shapes.corners[k].p, b});
    }
  }
  // Both routes keep each sender's order: the corners arrive cell by cell.
  cells = route(comm, cells, [](const BandCell& c) { return c.band; });
  corners = route(comm, corners, [](const BandCorner& c) { return c.band; });
  CellShapes band;
  band.lonlat = shapes.lonlat;
  std::vector<Vec3> polygon;
  std::size_t next = 0;
  for (const BandCell& c : cells) {
    if (c.corners == 0) {
      band.add_rectangle(c.id, c.box);
      continue;
    }
    polygon.clear();
    for (std::int32_t k = 0; k < c.corners; ++k) polygon.push_back(corners[next++].p);
    band.add_polygon(c.id, polygon.data(), polygon.size());
  }
  return band;
}

// The overlaps this rank's band computes: those whose boxes overlap from a latitude
// in it (the southern edge of the two boxes' overlap), so that a pair of cells
// reaching several bands is counted once.
std::vector<Overlap> band_overlaps(const LatitudeBands& bands, int me, const CellShapes& sources,
                                   const CellShapes& targets, bool moments,
                                   regrid::detail::ProgressMeter& progress) {
  const regrid::detail::CellBins bins(sources.box);
  regrid::detail::CellOverlap overlap;
  std::vector<Overlap> overlaps;
  std::vector<std::uint32_t> candidates;
  // Second order: each source cell's centroid (radians), and whether it goes round a
  // pole, where it has no eastward direction: its links get no longitude moments.
  std::vector<double> centre_lon(moments ? sources.size() : 0);
  std::vector<double> centre_lat(centre_lon.size());
  std::vector<char> polar(centre_lon.size());
  for (std::size_t s = 0; s < centre_lon.size(); ++s)
    polar[s] = sources.centroid(s, centre_lon[s], centre_lat[s]);
  regrid::detail::LonLatMoments m;
  for (std::size_t t = 0; t < targets.size(); ++t) {
    progress.advance(static_cast<std::int64_t>(t));
    bins.candidates(targets.box[t], candidates);
    const double row_area = targets.area[t];
    for (std::uint32_t s : candidates) {
      if (bands.band(std::max(sources.box[s].south, targets.box[t].south)) != me) continue;
      const double area = moments ? overlap.area_and_moments(sources, s, targets, t,
                                                             centre_lon[s], centre_lat[s], m)
                                  : overlap.area(sources, s, targets, t);
      if (area > kNegligibleOverlap * row_area)
        overlaps.push_back({targets.id[t], sources.id[s], area, row_area, m.lat,
                            moments && polar[s] ? 0 : m.lon});
    }
  }
  return overlaps;
}

// Collective: area, covered area and mask of every cell of one grid, on the rank
// holding the cell's block (cells no rank gives: all 0), ordered by id.
std::vector<CellRecord> cell_records(const Comm& comm, const GridCells& grid,
                                     const std::vector<double>& areas,
                                     std::vector<std::pair<std::int64_t, double>> covered) {
  const Blocks blocks(grid.layout.global_size(), comm.size());
  std::vector<CellRecord> mine;
  for (std::size_t i = 0; i < areas.size(); ++i)
    mine.push_back({grid.layout.ids()[i], areas[i], 0,
                    grid.mask.empty() || grid.mask[i] != 0 ? 1 : 0});
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

// The valid cells as points: each at the mean direction of its corners.
std::vector<regrid::detail::LocatedPoint> centres(const CellShapes& shapes) {
  std::vector<regrid::detail::LocatedPoint> points;
  points.reserve(shapes.size());
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const Vec3& c = shapes.cap[i].centre;
    points.push_back({{{c.x, c.y, c.z}, shapes.id[i]},
                      regrid::detail::longitude_of(c) / regrid::detail::kRadiansPerDegree,
                      regrid::detail::latitude_of(c) / regrid::detail::kRadiansPerDegree});
  }
  return points;
}

// The links of one of the weights of `links` (0 value, 1 latitude, 2 longitude gradient).
std::vector<WeightLink> weight_links(const std::vector<regrid::detail::GradientLink>& links,
                                     int which) {
  std::vector<WeightLink> out;
  out.reserve(links.size());
  for (const regrid::detail::GradientLink& l : links)
    out.push_back({l.row, l.col, which == 0 ? l.value : l.gradient[which - 1], l.col});
  return out;
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

// What conservative remapping computes before the links travel to their rows: every
// link with its value weight and (second order) gradient weights, both grids' point
// data, the source cells' centroids (second order) and the method's name.
struct ConservativeLinks {
  std::vector<regrid::detail::GradientLink> links;
  GridPointData src_points;
  GridPointData dst_points;
  std::vector<regrid::detail::LocatedPoint> src_centroids;
  std::string method;
};

// Collective: the links of first-order (moments false) or second-order conservative
// weights, checked like conservative_weights.
ConservativeLinks conservative_links(const Comm& comm, const GridCells& src, const GridCells& dst,
                                     const ConservativeOptions& options, bool moments) {
  const bool by_frac = options.normalisation == ConservativeNormalisation::FracArea;
  detail::agree_on(comm, [&] {
    FERRY_CHECK(by_frac || options.normalisation == ConservativeNormalisation::DestArea,
                Errc::Arg, kCaller, ": normalisation is ",
                static_cast<int>(options.normalisation), "; give FracArea or DestArea");
    FERRY_CHECK(options.unmapped == Unmapped::Fill || options.unmapped == Unmapped::Nearest,
                Errc::Arg, kCaller, ": unmapped is ", static_cast<int>(options.unmapped),
                "; give Unmapped::Fill or Unmapped::Nearest");
    FERRY_CHECK(options.order == 1 || options.order == 2, Errc::Arg, kCaller, ": order is ",
                options.order, "; give 1 (first order) or 2 (second order)");
  });
  const regrid::detail::CellInput source = regrid::detail::read_cells(comm, kCaller, src, "source");
  const regrid::detail::CellInput target =
      regrid::detail::read_cells(comm, kCaller, dst, "destination");
  regrid::detail::check_grids(comm, kCaller, source.centres, target.centres);

  const LatitudeBands bands(comm.size());
  std::vector<Overlap> overlaps;
  // Agreed: a progress callback that throws on one rank ends the call on every rank
  // (after the collective to_bands, before the next collective).
  detail::agree_on(comm, [&] {
    const CellShapes band_sources = to_bands(comm, bands, source.shapes);
    const CellShapes band_targets = to_bands(comm, bands, target.shapes);
    regrid::detail::ProgressMeter progress(kCaller, "overlaps", comm.rank(),
                                           static_cast<std::int64_t>(band_targets.size()),
                                           options.progress, options.progress_seconds);
    overlaps = band_overlaps(bands, comm.rank(), band_sources, band_targets, moments, progress);
    progress.finish();
  });

  // Each row whole on its owner, its overlaps by source id: the sum is the same anywhere.
  const Blocks rows(dst.layout.global_size(), comm.size());
  overlaps = route(comm, overlaps, [&](const Overlap& o) { return rows.owner(o.row); });
  std::sort(overlaps.begin(), overlaps.end(), [](const Overlap& a, const Overlap& b) {
    return a.row != b.row ? a.row < b.row : a.col < b.col;
  });
  ConservativeLinks out;
  out.links.reserve(overlaps.size());
  std::vector<std::pair<std::int64_t, double>> src_covered;
  std::vector<std::pair<std::int64_t, double>> dst_covered;
  for (std::size_t first = 0, last = 0; first < overlaps.size(); first = last) {
    double covered = 0;
    for (last = first; last < overlaps.size() && overlaps[last].row == overlaps[first].row; ++last)
      covered += overlaps[last].area;
    const double norm = by_frac ? covered : overlaps[first].row_area;
    for (std::size_t k = first; k < last; ++k) {
      const Overlap& o = overlaps[k];
      out.links.push_back({o.row, o.col, o.area / norm, {o.lat / norm, o.lon / norm, 0}});
      src_covered.emplace_back(o.col, o.area);
    }
    dst_covered.emplace_back(overlaps[first].row, covered);
  }
  overlaps = {};
  if (options.unmapped == Unmapped::Nearest) {
    std::vector<WeightLink> fill = regrid::detail::nearest_fill(
        comm, centres(source.shapes), centres(target.shapes), dst.layout.global_size(),
        weight_links(out.links, 0));
    for (const WeightLink& l : fill) out.links.push_back({l.row, l.col, l.weight, {0, 0, 0}});
  }
  out.src_points = point_data(cell_records(comm, src, source.area, std::move(src_covered)));
  out.dst_points = point_data(cell_records(comm, dst, target.area, std::move(dst_covered)));
  if (moments) {
    for (std::size_t i = 0; i < source.shapes.size(); ++i) {
      double lon = 0, lat = 0;
      (void)source.shapes.centroid(i, lon, lat);
      out.src_centroids.push_back(
          regrid::detail::locate(lon / regrid::detail::kRadiansPerDegree,
                                 lat / regrid::detail::kRadiansPerDegree, source.shapes.id[i]));
    }
  }
  out.method = detail::cat("ferry conservative", moments ? " second order" : "", ", ",
                           by_frac ? "fracarea" : "destarea",
                           options.unmapped == Unmapped::Nearest ? ", nearest fill" : "");
  return out;
}

Weights build(const Comm& comm, const GridCells& src, const GridCells& dst,
              std::vector<WeightLink> links, const ConservativeLinks& made) {
  Weights weights = WeightsBuilder::distribute(comm, kCaller, src.layout.global_size(),
                                               dst.layout.global_size(), std::move(links));
  WeightsBuilder::set_points(weights, made.src_points, made.dst_points, made.method);
  return weights;
}

}  // namespace

Weights conservative_weights(MPI_Comm user_comm, const GridCells& src, const GridCells& dst,
                             const ConservativeOptions& options) {
  const Comm comm = Comm::dup(user_comm);
  const bool second = options.order == 2;
  ConservativeLinks made = conservative_links(comm, src, dst, options, second);
  std::vector<WeightLink> links =
      second ? regrid::detail::fold_gradients(
                   comm, src.layout.global_size(), dst.layout.global_size(), made.links,
                   regrid::detail::gradient_stencils(comm, src.layout.global_size(),
                                                     made.src_centroids, kGradientNeighbours))
             : weight_links(made.links, 0);
  made.links = {};
  return build(comm, src, dst, std::move(links), made);
}

ConservativeGradientWeights conservative_gradient_weights(MPI_Comm user_comm,
                                                          const GridCells& src,
                                                          const GridCells& dst,
                                                          const ConservativeOptions& options) {
  const Comm comm = Comm::dup(user_comm);
  const ConservativeLinks made = conservative_links(comm, src, dst, options, true);
  ConservativeGradientWeights out;
  out.value = build(comm, src, dst, weight_links(made.links, 0), made);
  out.lat_gradient = build(comm, src, dst, weight_links(made.links, 1), made);
  out.lon_gradient = build(comm, src, dst, weight_links(made.links, 2), made);
  return out;
}

}  // namespace ferry
