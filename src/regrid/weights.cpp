#include "ferry/weights.hpp"

#include <cmath>
#include <optional>
#include <utility>

#include "regrid/blocks.hpp"
#include "regrid/weight_file.hpp"
#include "regrid/weights_builder.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry {

using regrid::detail::Blocks;
using regrid::detail::Side;
using regrid::detail::WeightFile;

Weights Weights::read(MPI_Comm user_comm, const std::string& path) {
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
  detail::agree_on(comm, [&] { links = file->read_links(slabs.first(me), slabs.count(me)); });
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
