#include "regrid/grid_input.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/rendezvous.hpp"
#include "regrid/blocks.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::regrid::detail {

namespace {

using ferry::detail::route;

// This rank's points of one grid: sizes, ids in range, coordinates on the sphere.
void check_points(const char* caller, const GridPoints& grid, const char* which, int rank) {
  const auto n = static_cast<std::size_t>(grid.layout.local_size());
  FERRY_CHECK(grid.lon.size() == n && grid.lat.size() == n, Errc::ArgSize, caller, ": the ",
              which, " points on rank ", rank, " have ", grid.lon.size(), " longitudes and ",
              grid.lat.size(), " latitudes, expected ", n,
              " (the layout's local size). Give one longitude and latitude per layout point");
  FERRY_CHECK(grid.mask.empty() || grid.mask.size() == n, Errc::ArgSize, caller, ": the ", which,
              " mask on rank ", rank, " has ", grid.mask.size(), " values, expected ", n,
              " (the layout's local size) or none");
  const std::int64_t size = grid.layout.global_size();
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t id = grid.layout.ids()[i];
    FERRY_CHECK(id >= 0 && id < size, Errc::ArgRange, caller, ": ", which, " point ", i,
                " on rank ", rank, " has global id ", id, ", outside 0..", size - 1);
    FERRY_CHECK(std::isfinite(grid.lon[i]) && std::isfinite(grid.lat[i]) &&
                    std::abs(grid.lat[i]) <= 90,
                Errc::Arg, caller, ": ", which, " point ", id, " (rank ", rank,
                ") has longitude ", grid.lon[i], " and latitude ", grid.lat[i],
                ". Give coordinates in degrees, finite, latitudes within -90..90");
  }
}

// Raises Errc::Duplicate on every rank if some id of `layout` is given twice.
void check_unique(const Comm& comm, const char* caller, const Layout& layout, const char* which) {
  const Blocks blocks(layout.global_size(), comm.size());
  std::vector<std::int64_t> ids =
      route(comm, layout.ids(), [&](std::int64_t id) { return blocks.owner(id); });
  std::sort(ids.begin(), ids.end());
  const auto twice = std::adjacent_find(ids.begin(), ids.end());
  ferry::detail::agree_on(comm, [&] {
    FERRY_CHECK(twice == ids.end(), Errc::Duplicate, caller, ": ", which, " point ",
                twice == ids.end() ? 0 : *twice,
                " is given twice. Give each point of a grid on one rank, once");
  });
}

}  // namespace

void check_grids(const Comm& comm, const char* caller, const GridPoints& src,
                 const GridPoints& dst) {
  std::int64_t sizes[4] = {src.layout.global_size(), -src.layout.global_size(),
                           dst.layout.global_size(), -dst.layout.global_size()};
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, sizes, 4, MPI_INT64_T, MPI_MAX, comm.get()));
  ferry::detail::agree_on(comm, [&] {
    FERRY_CHECK(sizes[0] == -sizes[1] && sizes[2] == -sizes[3], Errc::Arg, caller,
                ": the ranks disagree on the grid sizes (source ", -sizes[1], " to ", sizes[0],
                ", destination ", -sizes[3], " to ", sizes[2],
                "). Give layouts of the same global size on every rank");
    check_points(caller, src, "source", comm.rank());
    check_points(caller, dst, "destination", comm.rank());
  });
  check_unique(comm, caller, src.layout, "source");
  check_unique(comm, caller, dst.layout, "destination");
}

std::vector<LocatedPoint> located_points(const GridPoints& grid, bool valid_only) {
  std::vector<LocatedPoint> points;
  for (std::size_t i = 0; i < grid.lon.size(); ++i)
    if (!valid_only || grid.mask.empty() || grid.mask[i] != 0)
      points.push_back(locate(grid.lon[i], grid.lat[i], grid.layout.ids()[i]));
  return points;
}

}  // namespace ferry::regrid::detail
