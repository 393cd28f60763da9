#include "ferry/weights.hpp"

#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include "regrid/blocks.hpp"
#include "regrid/weight_file.hpp"
#include "regrid/weights_builder.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/log.hpp"
#include "util/mpi.hpp"

namespace ferry {

using regrid::detail::Blocks;
using regrid::detail::Side;
using regrid::detail::WeightFile;

namespace {

// Collective: the one warning of BadWeightIndex::Drop, from the rank that read the
// first dropped link (the slabs follow rank order, so the lowest such rank).
void warn_of_dropped(const Comm& comm, const char* caller, const std::string& path,
                     const regrid::detail::DroppedLinks& dropped, std::int64_t links) {
  std::int64_t total = dropped.count;
  std::int64_t first = dropped.count > 0 ? dropped.first : std::numeric_limits<std::int64_t>::max();
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_INT64_T, MPI_SUM, comm.get()));
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT64_T, MPI_MIN, comm.get()));
  if (total > 0 && dropped.count > 0 && dropped.first == first)
    FERRY_LOG_WARN(-1, caller, ": \"", path, "\": dropped ", total, " of ", links,
                   " links whose address lies outside its grid (their weights are lost); the "
                   "first is ", dropped.first_text,
                   ". Check that the file is complete and was made for these grids");
}

}  // namespace

Weights Weights::read(MPI_Comm user_comm, const std::string& path, BadWeightIndex bad) {
  const char* const caller = "Weights::read";
  const Comm comm = Comm::dup(user_comm);
  const int p = comm.size();
  const int me = comm.rank();
  // Every rank opens the file (concurrent readers are fine) and checks its layout.
  std::optional<WeightFile> file;
  detail::agree_on(comm, [&] { file.emplace(caller, path); });

  // Slabs follow rank order, so the lowest failing rank holds the first bad link.
  const Blocks slabs(file->links(), p);
  std::vector<WeightLink> links;
  regrid::detail::DroppedLinks dropped;
  detail::agree_on(comm, [&] {
    links = file->read_links(slabs.first(me), slabs.count(me), bad, dropped);
  });
  if (bad == BadWeightIndex::Drop) warn_of_dropped(comm, caller, path, dropped, file->links());
  const Blocks src_points(file->src_size(), p);
  const Blocks dst_points(file->dst_size(), p);
  GridPointData src;
  GridPointData dst;
  detail::agree_on(comm, [&] {
    src = file->read_points(Side::Src, src_points.first(me), src_points.count(me));
    dst = file->read_points(Side::Dst, dst_points.first(me), dst_points.count(me));
  });
  const std::int64_t src_size = file->src_size();
  const std::int64_t dst_size = file->dst_size();
  std::string method = file->method();
  file.reset();

  Weights weights = WeightsBuilder::distribute(comm, caller, src_size, dst_size, std::move(links));
  WeightsBuilder::set_points(weights, std::move(src), std::move(dst), std::move(method));
  return weights;
}

Weights Weights::from_links(MPI_Comm user_comm, std::int64_t src_size, std::int64_t dst_size,
                            std::vector<WeightLink> links) {
  const char* const caller = "Weights::from_links";
  const Comm comm = Comm::dup(user_comm);
  std::int64_t sizes[4] = {src_size, -src_size, dst_size, -dst_size};
  std::int64_t most[4] = {0, 0, 0, 0};
  FERRY_CALL_MPI(MPI_Allreduce(sizes, most, 4, MPI_INT64_T, MPI_MAX, comm.get()));
  detail::agree_on(comm, [&] {
    FERRY_CHECK(src_size >= 0 && dst_size >= 0, Errc::Arg, caller, ": grid sizes must be >= 0; "
                "got src_size ", src_size, " and dst_size ", dst_size, " on rank ", comm.rank());
    FERRY_CHECK(most[0] == -most[1] && most[2] == -most[3], Errc::Arg, caller,
                ": the ranks disagree on the grid sizes (src_size ", -most[1], " to ", most[0],
                ", dst_size ", -most[3], " to ", most[2],
                "). Pass the same sizes on every rank");
    for (std::size_t k = 0; k < links.size(); ++k) {
      const WeightLink& l = links[k];
      auto where = [&] {
        return detail::cat(caller, ": link ", k, " on rank ", comm.rank(), " (row ", l.row,
                           ", col ", l.col, ", weight ", l.weight, ", order ", l.order, ")");
      };
      FERRY_CHECK(l.row >= 0 && l.row < dst_size, Errc::ArgRange, where(),
                  ": the row is outside 0..", dst_size - 1, ", the destination grid");
      FERRY_CHECK(l.col >= 0 && l.col < src_size, Errc::ArgRange, where(),
                  ": the column is outside 0..", src_size - 1, ", the source grid");
      FERRY_CHECK(std::isfinite(l.weight), Errc::Arg, where(),
                  ": the weight is not a finite number");
    }
  });
  return WeightsBuilder::distribute(comm, caller, src_size, dst_size, std::move(links));
}

void order_links_by_position(MPI_Comm comm, std::vector<WeightLink>& links) {
  const auto count = static_cast<std::int64_t>(links.size());
  std::int64_t before = 0;
  FERRY_CALL_MPI(MPI_Exscan(&count, &before, 1, MPI_INT64_T, MPI_SUM, comm));
  int rank = 0;
  FERRY_CALL_MPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) before = 0;  // MPI_Exscan leaves rank 0's result undefined
  for (std::size_t k = 0; k < links.size(); ++k)
    links[k].order = before + static_cast<std::int64_t>(k);
}

}  // namespace ferry
