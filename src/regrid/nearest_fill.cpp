#include "regrid/nearest_fill.hpp"

#include <algorithm>
#include <utility>

#include "core/rendezvous.hpp"
#include "regrid/blocks.hpp"
#include "util/mpi.hpp"

namespace ferry::regrid::detail {

std::vector<WeightLink> nearest_fill(const Comm& comm, const std::vector<LocatedPoint>& sources,
                                     const std::vector<LocatedPoint>& targets,
                                     std::int64_t dst_size, const std::vector<WeightLink>& links) {
  auto source_count = static_cast<std::int64_t>(sources.size());
  FERRY_CALL_MPI(
      MPI_Allreduce(MPI_IN_PLACE, &source_count, 1, MPI_INT64_T, MPI_SUM, comm.get()));
  if (source_count == 0 || dst_size == 0) return {};
  // The rows with links and the target points meet on the owner of the row's block.
  const Blocks rows(dst_size, comm.size());
  // The rows come in runs (the links of a row together): one of each run is enough.
  std::vector<std::int64_t> linked;
  for (const WeightLink& l : links)
    if (linked.empty() || linked.back() != l.row) linked.push_back(l.row);
  const std::int64_t first = rows.first(comm.rank());
  std::vector<char> has_link(static_cast<std::size_t>(rows.count(comm.rank())), 0);
  for (std::int64_t row : ferry::detail::route(comm, std::move(linked),
                                               [&](std::int64_t row) { return rows.owner(row); }))
    has_link[static_cast<std::size_t>(row - first)] = 1;
  std::vector<LocatedPoint> unlinked =
      ferry::detail::route(comm, targets, [&](const LocatedPoint& p) { return rows.owner(p.point.id); });
  unlinked.erase(std::remove_if(unlinked.begin(), unlinked.end(),
                                [&](const LocatedPoint& p) {
                                  return has_link[static_cast<std::size_t>(p.point.id - first)] != 0;
                                }),
                 unlinked.end());
  const NeighbourLists nearest = find_nearest(comm, sources, unlinked, 1);
  std::vector<WeightLink> fill;
  fill.reserve(nearest.queries.size());
  for (std::size_t q = 0; q < nearest.queries.size(); ++q)
    fill.push_back({nearest.queries[q].point.id, nearest.neighbours[q].id, 1.0, 0});
  return fill;
}

}  // namespace ferry::regrid::detail
