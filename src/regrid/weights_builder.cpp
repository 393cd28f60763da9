#include "regrid/weights_builder.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include "core/rendezvous.hpp"
#include "regrid/blocks.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry {

using regrid::detail::Blocks;

Weights WeightsBuilder::distribute(const Comm& comm, const std::string& caller,
                                   std::int64_t src_size, std::int64_t dst_size,
                                   std::vector<WeightLink> links) {
  const Blocks rows(dst_size, comm.size());
  auto owner = [&](const WeightLink& l) { return rows.owner(l.row); };
  // Links made on the owners of their rows (conservative weights route them there to
  // normalise them) stay where they are: no copy, no all-to-all.
  int all_mine = std::all_of(links.begin(), links.end(),
                             [&](const WeightLink& l) { return owner(l) == comm.rank(); })
                     ? 1
                     : 0;
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, &all_mine, 1, MPI_INT, MPI_LAND, comm.get()));
  std::vector<WeightLink> mine =
      all_mine != 0 ? std::move(links) : detail::route(comm, std::move(links), owner);
  // Within a row the order decides the summation order, so it must be unambiguous.
  auto by_row_and_order = [](const WeightLink& a, const WeightLink& b) {
    return a.row != b.row ? a.row < b.row : a.order < b.order;
  };
  if (!std::is_sorted(mine.begin(), mine.end(), by_row_and_order))
    std::sort(mine.begin(), mine.end(), by_row_and_order);
  std::optional<Error> error;
  for (std::size_t k = 1; k < mine.size() && !error; ++k)
    if (mine[k].row == mine[k - 1].row && mine[k].order == mine[k - 1].order)
      error = Error(Errc::Arg,
                    detail::cat(caller, ": two links of destination row ", mine[k].row,
                                " have order ", mine[k].order, " (source points ",
                                mine[k - 1].col, " and ", mine[k].col,
                                "). Give the links of a row distinct orders: they fix the "
                                "order of the sum"),
                    comm.rank());
  detail::agree(comm, error);

  Weights w;
  w.src_size_ = src_size;
  w.dst_size_ = dst_size;
  w.parts_ = comm.size();
  w.part_ = comm.rank();
  w.first_row_ = rows.first(comm.rank());
  w.first_src_point_ = Blocks(src_size, comm.size()).first(comm.rank());
  w.row_start_.assign(static_cast<std::size_t>(rows.count(comm.rank())) + 1, 0);
  w.cols_.reserve(mine.size());
  w.values_.reserve(mine.size());
  for (const WeightLink& l : mine) {
    ++w.row_start_[static_cast<std::size_t>(l.row - w.first_row_) + 1];
    w.cols_.push_back(l.col);
    w.values_.push_back(l.weight);
  }
  for (std::size_t i = 1; i < w.row_start_.size(); ++i) w.row_start_[i] += w.row_start_[i - 1];
  auto local = static_cast<std::int64_t>(mine.size());
  FERRY_CALL_MPI(
      MPI_Allreduce(&local, &w.global_links_, 1, MPI_INT64_T, MPI_SUM, comm.get()));
  return w;
}

void WeightsBuilder::set_points(Weights& weights, GridPointData src, GridPointData dst,
                                std::string method) {
  weights.src_points_ = std::move(src);
  weights.dst_points_ = std::move(dst);
  weights.method_ = std::move(method);
}

}  // namespace ferry
