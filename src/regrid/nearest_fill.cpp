#include "regrid/nearest_fill.hpp"

#include <algorithm>

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
  std::vector<std::int64_t> linked;
  linked.reserve(links.size());
  for (const WeightLink& l : links) linked.push_back(l.row);
  std::sort(linked.begin(), linked.end());
  linked.erase(std::unique(linked.begin(), linked.end()), linked.end());
  linked = ferry::detail::route(comm, linked, [&](std::int64_t row) { return rows.owner(row); });
  std::sort(linked.begin(), linked.end());
  std::vector<LocatedPoint> unlinked =
      ferry::detail::route(comm, targets, [&](const LocatedPoint& p) { return rows.owner(p.point.id); });
  unlinked.erase(std::remove_if(unlinked.begin(), unlinked.end(),
                                [&](const LocatedPoint& p) {
                                  return std::binary_search(linked.begin(), linked.end(),
                                                            p.point.id);
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
