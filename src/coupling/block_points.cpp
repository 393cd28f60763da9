#include "coupling/block_points.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

#include "ferry/exchange.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::coupling {

namespace {

// Collective over the link: moves fields from the partition to the block.
void move_fields(const BlockMove& move, const std::vector<FieldSpec>& specs,
                 const std::vector<const void*>& in, const std::vector<void*>& out) {
  try {
    Exchange(move.link->get(), move.partition ? move.partition->layout : Layout::none(move.size),
             move.block ? *move.block : Layout::none(move.size), specs, "p2p")
        .execute(in.data(), out.data());
  } catch (const Error& e) {
    throw Error(e.code(),
                detail::cat(move.where, ": moving grid data to the ranks of the regridding "
                            "product (the partition it comes from must hold every point of its "
                            "grid once): ", e.what()),
                e.rank());
  }
}

std::size_t block_points(const BlockMove& move) {
  return move.block ? static_cast<std::size_t>(move.block->local_size()) : 0;
}

// Logically collective over the link: whether `has` holds on every member of the side.
bool on_every_member(const BlockMove& move, bool has) {
  int all = !move.partition || has ? 1 : 0;
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, move.link->get()));
  return all != 0;
}

// Raises unless a rank holding points of `p` made the declaration that `call` makes.
void require_declared(bool declared, const PartitionDecl& p, const char* side,
                      const std::string& where, const char* method, const char* what,
                      const char* call, int rank) {
  FERRY_CHECK(declared || p.layout.local_size() == 0, Errc::Arg, where, ": method ", method,
              " needs the ", what, " of the ", side, " partition \"", p.name, "\", which rank ",
              rank, " did not declare. Call ", call, " before enddef");
}

// The declared mask of `p`, or every point valid.
std::vector<std::int32_t> mask_or_valid(const PartitionDecl& p) {
  if (!p.mask.empty()) return p.mask;
  return std::vector<std::int32_t>(static_cast<std::size_t>(p.layout.local_size()), 1);
}

// Corner values of `corners` per cell as `wanted` per cell, each cell's last corner
// repeated (a repeated corner leaves a cell as it is).
std::vector<double> padded(const std::vector<double>& values, int corners, int wanted) {
  if (corners >= wanted || corners <= 0) return values;
  std::vector<double> out;
  for (std::size_t first = 0; first < values.size(); first += static_cast<std::size_t>(corners)) {
    out.insert(out.end(), values.begin() + static_cast<std::ptrdiff_t>(first),
               values.begin() + static_cast<std::ptrdiff_t>(first) + corners);
    out.insert(out.end(), static_cast<std::size_t>(wanted - corners), out.back());
  }
  return out;
}

}  // namespace

GridPoints declared_coordinates(const PartitionDecl& p, const char* side, const std::string& where,
                                const char* method, int rank) {
  const auto n = static_cast<std::size_t>(p.layout.local_size());
  require_declared(p.lon.size() == n && p.lat.size() == n, p, side, where, method, "coordinates",
                   "set_coordinates", rank);
  GridPoints points;
  points.layout = p.layout;
  points.lon = p.lon;
  points.lat = p.lat;
  points.mask = mask_or_valid(p);
  return points;
}

GridCells declared_corners(const PartitionDecl& p, const char* side, const std::string& where,
                           const char* method, int rank) {
  require_declared(p.ncorner > 0, p, side, where, method, "cell corners", "set_corners", rank);
  GridCells cells;
  cells.layout = p.layout;
  if (p.ncorner > 0) cells.corners = p.ncorner;
  cells.corner_lon = p.corner_lon;
  cells.corner_lat = p.corner_lat;
  cells.mask = mask_or_valid(p);
  return cells;
}

GridPoints block_coordinates(const BlockMove& move, const GridPoints* points) {
  GridPoints to;
  to.layout = move.block ? *move.block : Layout::none(move.size);
  const std::size_t n = block_points(move);
  to.lon.resize(n);
  to.lat.resize(n);
  to.mask.resize(n);
  move_fields(move, {{Datatype::Float64, 1}, {Datatype::Float64, 1}, {Datatype::Int32, 1}},
              {points ? points->lon.data() : nullptr, points ? points->lat.data() : nullptr,
               points ? points->mask.data() : nullptr},
              {to.lon.data(), to.lat.data(), to.mask.data()});
  return to;
}

GridCells block_corners(const BlockMove& move, const GridCells* cells) {
  // The most corners per cell on the side's ranks; cells with fewer repeat their last.
  int most = cells && cells->layout.local_size() > 0 ? cells->corners : 0;
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_INT, MPI_MAX, move.link->get()));
  GridCells from;
  if (cells) {
    from.corners = std::max(most, cells->corners);
    from.corner_lon = padded(cells->corner_lon, cells->corners, from.corners);
    from.corner_lat = padded(cells->corner_lat, cells->corners, from.corners);
  }
  GridCells to;
  to.layout = move.block ? *move.block : Layout::none(move.size);
  if (most > 0) to.corners = most;
  const std::size_t n = block_points(move);
  to.corner_lon.resize(n * static_cast<std::size_t>(to.corners));
  to.corner_lat.resize(to.corner_lon.size());
  to.mask.resize(n);
  move_fields(move,
              {{Datatype::Float64, to.corners}, {Datatype::Float64, to.corners}, {Datatype::Int32, 1}},
              {cells ? from.corner_lon.data() : nullptr, cells ? from.corner_lat.data() : nullptr,
               cells ? cells->mask.data() : nullptr},
              {to.corner_lon.data(), to.corner_lat.data(), to.mask.data()});
  return to;
}

GridPointData block_areas_and_mask(const BlockMove& move) {
  const PartitionDecl* p = move.partition;
  const bool areas = on_every_member(move, p && (!p->area.empty() || p->layout.local_size() == 0));
  const bool no_mask = on_every_member(move, p && p->mask.empty());
  GridPointData data;
  std::vector<FieldSpec> specs;
  std::vector<const void*> in;
  std::vector<void*> out;
  const std::size_t n = block_points(move);
  if (areas) {
    data.area.emplace(n);
    specs.push_back({Datatype::Float64, 1});
    in.push_back(p ? p->area.data() : nullptr);
    out.push_back(data.area->data());
  }
  std::vector<std::int32_t> ones;
  if (!no_mask) {
    data.mask.emplace(n);
    if (p && p->mask.empty()) ones.assign(static_cast<std::size_t>(p->layout.local_size()), 1);
    specs.push_back({Datatype::Int32, 1});
    in.push_back(p ? (p->mask.empty() ? ones.data() : p->mask.data()) : nullptr);
    out.push_back(data.mask->data());
  }
  if (!specs.empty()) move_fields(move, specs, in, out);
  return data;
}

}  // namespace ferry::coupling
