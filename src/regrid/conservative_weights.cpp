// conservative_weights: first-order conservative weights between cells on the sphere.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
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
#include "util/mpi.hpp"

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
// Second order with computed gradients on a source that is not logically rectangular:
// the nearest valid source cells each cell's gradient is fitted to.
constexpr int kGradientNeighbours = 8;

// A cell on its way to a latitude band; its `corners` corners (none for a rectangle,
// which is its box) follow it in the same order. A polygon travels with its box and
// area, so that no band measures them again; its normals and cap, cheap to compute
// and larger than its corners, are computed again where it arrives.
struct BandCell {
  std::int64_t id;
  LonLatCell box;
  double area;
  std::int32_t corners;
};

// One overlap of source cell `col` and destination cell `row` (area on the unit
// sphere), as first order needs it: 24 bytes, since millions of them travel.
struct Overlap {
  std::int64_t row;
  std::int64_t col;
  double area;
};

// The same with, for second order, its integrals of latitude and longitude less those
// of the source cell's centroid.
struct MomentOverlap {
  std::int64_t row;
  std::int64_t col;
  double area;
  double lat;
  double lon;
};

// What the weights record about one cell: its area and its mask.
struct CellRecord {
  std::int64_t id;
  double area;
  std::int32_t mask;
};

// The area of one link, for the cell `id` it covers.
struct CoveredArea {
  std::int64_t id;
  double area;
};

// A cell's area, the area its links cover, and its mask.
struct CellTotals {
  double area;
  double covered;
  std::int32_t mask;
};

// Send counts (records per band) and their displacements.
void set_displacements(detail::RouteCounts& counts) {
  counts.send_displs.assign(counts.send.size() + 1, 0);
  for (std::size_t q = 0; q < counts.send.size(); ++q)
    counts.send_displs[q + 1] = detail::mpi_count<int>(
        static_cast<std::int64_t>(counts.send_displs[q]) + counts.send[q],
        "conservative_weights: cell records sent by one rank");
}

// Collective: every cell of `shapes` to each band its box reaches; the cells of this
// rank's band, by sending rank, each rank's in the order of its cells. The records
// are written straight into their places in the send buffers, band after band (what
// route() would make of them, without its sorting copy), so the corners arrive cell
// by cell. The cells of this rank's own band do not travel: they are copied from
// `shapes` as they are, normals and cap included (the same bits add_measured would
// compute again).
CellShapes to_bands(const Comm& comm, const LatitudeBands& bands, const CellShapes& shapes) {
  const auto p = static_cast<std::size_t>(comm.size());
  const auto me = static_cast<std::size_t>(comm.rank());
  detail::RouteCounts cell_counts;
  detail::RouteCounts corner_counts;
  cell_counts.send.assign(p, 0);
  corner_counts.send.assign(p, 0);
  std::size_t own = 0;
  std::size_t own_corners = 0;
  auto corners_of = [&](std::size_t i) {
    return shapes.lonlat ? 0 : static_cast<std::int32_t>(shapes.first[i + 1] - shapes.first[i]);
  };
  auto reaches_me = [&](std::size_t i) {
    return bands.band(shapes.box[i].south) <= comm.rank() &&
           comm.rank() <= bands.band(shapes.box[i].north);
  };
  for (std::size_t i = 0; i < shapes.size(); ++i)
    for (int b = bands.band(shapes.box[i].south); b <= bands.band(shapes.box[i].north); ++b) {
      const auto band = static_cast<std::size_t>(b);
      if (band == me) {
        ++own;
        own_corners += shapes.first[i + 1] - shapes.first[i];
        continue;
      }
      ++cell_counts.send[band];
      corner_counts.send[band] += corners_of(i);
    }
  set_displacements(cell_counts);
  set_displacements(corner_counts);
  std::vector<BandCell> cells(static_cast<std::size_t>(cell_counts.send_displs.back()));
  std::vector<Vec3> corners(static_cast<std::size_t>(corner_counts.send_displs.back()));
  std::vector<int> next_cell(cell_counts.send_displs.begin(), cell_counts.send_displs.end() - 1);
  std::vector<int> next_corner(corner_counts.send_displs.begin(),
                               corner_counts.send_displs.end() - 1);
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const LonLatCell& box = shapes.box[i];
    const std::int32_t count = corners_of(i);
    for (int b = bands.band(box.south); b <= bands.band(box.north); ++b) {
      const auto band = static_cast<std::size_t>(b);
      if (band == me) continue;
      cells[static_cast<std::size_t>(next_cell[band]++)] = {shapes.id[i], box, shapes.area[i],
                                                            count};
      for (std::int32_t k = 0; k < count; ++k)
        corners[static_cast<std::size_t>(next_corner[band]++)] =
            shapes.corners[shapes.first[i] + static_cast<std::uint32_t>(k)].p;
    }
  }
  detail::exchange_route_counts(comm, cell_counts);
  detail::exchange_route_counts(comm, corner_counts);
  std::vector<BandCell> band_cells(static_cast<std::size_t>(cell_counts.recv_displs.back()));
  detail::exchange_route_records(comm, cell_counts, cells.data(), band_cells.data(),
                                 sizeof(BandCell));
  std::vector<BandCell>().swap(cells);
  std::vector<Vec3> band_corners(static_cast<std::size_t>(corner_counts.recv_displs.back()));
  detail::exchange_route_records(comm, corner_counts, corners.data(), band_corners.data(),
                                 sizeof(Vec3));
  std::vector<Vec3>().swap(corners);
  CellShapes band;
  band.lonlat = shapes.lonlat;
  band.reserve(band_cells.size() + own,
               shapes.lonlat ? 4 * (band_cells.size() + own) : band_corners.size() + own_corners);
  std::size_t next = 0;
  auto add_received = [&](const BandCell& c) {
    if (c.corners == 0) {
      band.add_rectangle(c.id, c.box);
      return;
    }
    band.add_measured(c.id, c.box, &band_corners[next], static_cast<std::size_t>(c.corners),
                      c.area);
    next += static_cast<std::size_t>(c.corners);
  };
  const auto from_below = static_cast<std::size_t>(cell_counts.recv_displs[me]);
  for (std::size_t k = 0; k < from_below; ++k) add_received(band_cells[k]);
  for (std::size_t i = 0; i < shapes.size(); ++i)
    if (reaches_me(i)) band.add_copy(shapes, i);
  for (std::size_t k = from_below; k < band_cells.size(); ++k) add_received(band_cells[k]);
  return band;
}

// The overlaps this rank's band computes: those whose boxes overlap from a latitude
// in it (the southern edge of the two boxes' overlap), so that a pair of cells
// reaching several bands is counted once. Record is Overlap (first order) or
// MomentOverlap (second order).
template <class Record>
std::vector<Record> band_overlaps(const LatitudeBands& bands, int me, const CellShapes& sources,
                                  const CellShapes& targets,
                                  regrid::detail::ProgressMeter& progress) {
  constexpr bool moments = std::is_same_v<Record, MomentOverlap>;
  const regrid::detail::CellBins bins(sources.box);
  regrid::detail::CellOverlap overlap;
  std::vector<Record> overlaps;
  std::vector<std::uint32_t> candidates;
  // Second order: each source cell's centroid (radians), and whether it goes round a
  // pole, where it has no eastward direction: its links get no longitude moments.
  std::vector<double> centre_lon(moments ? sources.size() : 0);
  std::vector<double> centre_lat(centre_lon.size());
  std::vector<char> polar(centre_lon.size());
  for (std::size_t s = 0; s < centre_lon.size(); ++s)
    polar[s] = sources.centroid(s, centre_lon[s], centre_lat[s]);
  for (std::size_t t = 0; t < targets.size(); ++t) {
    progress.advance(static_cast<std::int64_t>(t));
    bins.candidates(targets.box[t], candidates);
    const double row_area = targets.area[t];
    // band() never decreases and every cell here reaches this band, so a target
    // starting in it computes all its pairs here; one starting further south, those
    // whose source starts in it.
    const bool target_starts_here = bands.band(targets.box[t].south) == me;
    for (std::uint32_t s : candidates) {
      if (!target_starts_here && bands.band(sources.box[s].south) != me) continue;
      if constexpr (moments) {
        regrid::detail::LonLatMoments m;
        const double area = overlap.area_and_moments(sources, s, targets, t, centre_lon[s],
                                                     centre_lat[s], m);
        if (area > kNegligibleOverlap * row_area)
          overlaps.push_back({targets.id[t], sources.id[s], area, m.lat, polar[s] ? 0 : m.lon});
      } else {
        const double area = overlap.area(sources, s, targets, t);
        if (area > kNegligibleOverlap * row_area)
          overlaps.push_back({targets.id[t], sources.id[s], area});
      }
    }
  }
  return overlaps;
}

// Collective: area and mask of every cell of one grid, on the rank holding the cell's
// block (cells no rank gives: all 0), ordered by id; no covered area yet.
std::vector<CellTotals> cell_records(const Comm& comm, const GridCells& grid,
                                     const std::vector<double>& areas) {
  const Blocks blocks(grid.layout.global_size(), comm.size());
  auto owner = [&](const CellRecord& r) { return blocks.owner(r.id); };
  std::vector<CellRecord> mine;
  mine.reserve(areas.size());
  for (std::size_t i = 0; i < areas.size(); ++i)
    mine.push_back({grid.layout.ids()[i], areas[i],
                    grid.mask.empty() || grid.mask[i] != 0 ? 1 : 0});
  const std::int64_t first = blocks.first(comm.rank());
  std::vector<CellTotals> records(static_cast<std::size_t>(blocks.count(comm.rank())),
                                  CellTotals{0, 0, 0});
  for (const CellRecord& r : route(comm, std::move(mine), owner)) {
    CellTotals& to = records[static_cast<std::size_t>(r.id - first)];
    to.area = r.area;
    to.mask = r.mask;
  }
  return records;
}

// Collective: adds to `records` (cell_records' of `grid`) the areas of the links
// covering each cell, wherever they are.
void add_covered(const Comm& comm, const GridCells& grid, std::vector<CellTotals>& records,
                 std::vector<CoveredArea> covered) {
  const Blocks blocks(grid.layout.global_size(), comm.size());
  const std::int64_t first = blocks.first(comm.rank());
  // The overlaps of a cell arrive by ascending row (their senders hold the rows in
  // blocks, in rank order, each its rows in order), so each sum is taken in the same
  // order on any number of ranks.
  auto owner = [&](const CoveredArea& c) { return blocks.owner(c.id); };
  for (const CoveredArea& c : route(comm, std::move(covered), owner))
    records[static_cast<std::size_t>(c.id - first)].covered += c.area;
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

GridPointData point_data(const std::vector<CellTotals>& records) {
  GridPointData data{std::vector<double>(), std::vector<double>(), std::vector<std::int32_t>()};
  for (const CellTotals& r : records) {
    data.area->push_back(r.area);
    data.frac->push_back(r.area > 0 ? r.covered / r.area : 0);
    data.mask->push_back(r.mask);
  }
  return data;
}

// The link of an overlap, its weight (and moments) still areas, not yet normalised;
// normalise() divides them by the row's norm, as the weights have always been made.
WeightLink unnormalised_link(const Overlap& o) { return {o.row, o.col, o.area, o.col}; }
regrid::detail::GradientLink unnormalised_link(const MomentOverlap& o) {
  return {o.row, o.col, o.area, {o.lat, o.lon, 0}};
}
double& link_area(WeightLink& l) { return l.weight; }
double& link_area(regrid::detail::GradientLink& l) { return l.value; }
void normalise(WeightLink& l, double norm) { l.weight /= norm; }
void normalise(regrid::detail::GradientLink& l, double norm) {
  l.value /= norm;
  l.gradient[0] /= norm;
  l.gradient[1] /= norm;
}

// The links of the overlaps of rows first_row .. first_row + row_count - 1 into
// `links` (empty), not yet normalised, ordered by row, then by column: a counting pass
// by row (few overlaps per row) straight into the links, then each row's by column.
template <class Record, class Link>
void links_by_row_and_column(std::vector<Record> overlaps, std::int64_t first_row,
                             std::int64_t row_count, std::vector<Link>& links) {
  std::vector<std::size_t> next(static_cast<std::size_t>(row_count) + 1, 0);
  for (const Record& o : overlaps) ++next[static_cast<std::size_t>(o.row - first_row) + 1];
  for (std::size_t r = 1; r < next.size(); ++r) next[r] += next[r - 1];
  links.resize(overlaps.size());
  for (const Record& o : overlaps)
    links[next[static_cast<std::size_t>(o.row - first_row)]++] = unnormalised_link(o);
  std::vector<Record>().swap(overlaps);
  // next[r] is now where row r + 1 starts.
  std::size_t begin = 0;
  for (std::size_t r = 0; r + 1 < next.size(); ++r) {
    std::sort(links.begin() + static_cast<std::ptrdiff_t>(begin),
              links.begin() + static_cast<std::ptrdiff_t>(next[r]),
              [](const Link& a, const Link& b) { return a.col < b.col; });
    begin = next[r];
  }
}

// What conservative remapping computes, each link on the owner of its row: first
// order, every link's weight (`values`); second order, every link with its value and
// gradient weights (`links`); both grids' point data, the source cells' centroids
// (second order) and the method's name.
struct ConservativeLinks {
  std::vector<WeightLink> values;
  std::vector<regrid::detail::GradientLink> links;
  GridPointData src_points;
  GridPointData dst_points;
  std::vector<regrid::detail::LocatedPoint> src_centroids;
  std::string method;
};

// Collective: the overlaps of the cells of `sources` and `targets` (this rank's shares
// of the valid cells of both grids) as links on the owners of their rows, normalised
// as `options` says: Record Overlap gives first-order WeightLinks, MomentOverlap
// second-order GradientLinks. Each row's covered area goes to `dst_records` (this
// rank's cell_records of `dst`), each link's area to `src_covered`.
template <class Record, class Link>
void overlap_links(const Comm& comm, const ConservativeOptions& options, const CellShapes& sources,
                   const CellShapes& targets, const GridCells& dst,
                   std::vector<CellTotals>& dst_records, std::vector<Link>& links,
                   std::vector<CoveredArea>& src_covered) {
  const LatitudeBands bands(comm.size());
  std::vector<Record> overlaps;
  // Agreed: a progress callback that throws on one rank ends the call on every rank
  // (after the collective to_bands, before the next collective).
  detail::agree_on(comm, [&] {
    const CellShapes band_sources = to_bands(comm, bands, sources);
    const CellShapes band_targets = to_bands(comm, bands, targets);
    regrid::detail::ProgressMeter progress(kCaller, "overlaps", comm.rank(),
                                           static_cast<std::int64_t>(band_targets.size()),
                                           options.progress, options.progress_seconds);
    overlaps = band_overlaps<Record>(bands, comm.rank(), band_sources, band_targets, progress);
    progress.finish();
  });

  // Each row whole on its owner, its overlaps by source id: the sum is the same anywhere.
  const Blocks rows(dst.layout.global_size(), comm.size());
  links_by_row_and_column(
      route(comm, std::move(overlaps), [&](const Record& o) { return rows.owner(o.row); }),
      rows.first(comm.rank()), rows.count(comm.rank()), links);
  const bool by_frac = options.normalisation == ConservativeNormalisation::FracArea;
  const std::int64_t first_row = rows.first(comm.rank());
  src_covered.reserve(links.size());
  for (std::size_t first = 0, last = 0; first < links.size(); first = last) {
    double covered = 0;
    for (last = first; last < links.size() && links[last].row == links[first].row; ++last)
      covered += link_area(links[last]);
    CellTotals& row = dst_records[static_cast<std::size_t>(links[first].row - first_row)];
    row.covered = covered;
    const double norm = by_frac ? covered : row.area;
    for (std::size_t k = first; k < last; ++k) {
      src_covered.push_back({links[k].col, link_area(links[k])});
      normalise(links[k], norm);
    }
  }
}

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
    FERRY_CHECK(options.nx == 0 || (options.nx > 1 && src.layout.global_size() % options.nx == 0),
                Errc::Arg, kCaller, ": nx is ", options.nx, " for a source grid of ",
                src.layout.global_size(),
                " cells; give 0 (least squares) or the cells per row (2 or more, dividing the "
                "cells) of a logically rectangular source grid");
  });
  const regrid::detail::CellInput source = regrid::detail::read_cells(comm, kCaller, src, "source");
  const regrid::detail::CellInput target =
      regrid::detail::read_cells(comm, kCaller, dst, "destination");
  regrid::detail::check_grids(comm, kCaller, source.centres, target.centres);

  ConservativeLinks out;
  std::vector<CellTotals> dst_records = cell_records(comm, dst, target.area);
  std::vector<CoveredArea> src_covered;
  if (moments)
    overlap_links<MomentOverlap>(comm, options, source.shapes, target.shapes, dst, dst_records,
                                 out.links, src_covered);
  else
    overlap_links<Overlap>(comm, options, source.shapes, target.shapes, dst, dst_records,
                           out.values, src_covered);
  if (options.unmapped == Unmapped::Nearest) {
    const std::vector<WeightLink> second_order_values =
        moments ? weight_links(out.links, 0) : std::vector<WeightLink>();
    const std::vector<WeightLink> fill = regrid::detail::nearest_fill(
        comm, centres(source.shapes), centres(target.shapes), dst.layout.global_size(),
        moments ? second_order_values : out.values);
    for (const WeightLink& l : fill) {
      if (moments)
        out.links.push_back({l.row, l.col, l.weight, {0, 0, 0}});
      else
        out.values.push_back({l.row, l.col, l.weight, l.col});
    }
  }
  std::vector<CellTotals> src_records = cell_records(comm, src, source.area);
  add_covered(comm, src, src_records, std::move(src_covered));
  out.src_points = point_data(src_records);
  out.dst_points = point_data(dst_records);
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
  std::vector<WeightLink> links;
  if (second) {
    const std::int64_t cells = src.layout.global_size();
    links = regrid::detail::fold_gradients(
        comm, cells, dst.layout.global_size(), made.links,
        options.nx > 0 ? regrid::detail::centred_difference_stencils(
                             comm, options.nx, cells / options.nx, options.periodic,
                             made.src_centroids)
                       : regrid::detail::gradient_stencils(comm, cells, made.src_centroids,
                                                           kGradientNeighbours));
  } else {
    links = std::move(made.values);
  }
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
