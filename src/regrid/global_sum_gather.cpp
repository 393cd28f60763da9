// gather: every term to rank 0, added there by ascending global id, the sums
// broadcast; OASIS3-MCT 3.0 "bfb". Reproducible because the order of the additions
// depends on the ids only, never on the ranks.
#include <algorithm>
#include <climits>
#include <numeric>
#include <vector>

#include "ferry/error.hpp"
#include "regrid/global_sum_methods.hpp"
#include "util/format.hpp"
#include "util/mpi.hpp"

namespace ferry::regrid::detail {
namespace {

// What rank 0 found, broadcast so that every rank raises the same error.
struct Verdict {
  std::int64_t code = 0;  // an Errc, 0 when fine
  std::int64_t value = 0;  // the rank or id the message names
};

void share(MPI_Comm comm, Verdict& verdict) {
  std::int64_t data[2] = {verdict.code, verdict.value};
  FERRY_CALL_MPI(MPI_Bcast(data, 2, MPI_INT64_T, 0, comm));
  verdict = {data[0], data[1]};
  const auto code = static_cast<Errc>(verdict.code);
  if (code == Errc::Arg)
    throw Error(code, ferry::detail::cat("ferry::global_sums: rank ", verdict.value,
                                         " holds points but passed no ids; gather adds the "
                                         "terms by global id. Pass the ids of the points"));
  if (code == Errc::Overflow)
    throw Error(code, ferry::detail::cat("ferry::global_sums: gather would collect ", verdict.value,
                                         " values on rank 0, more than INT_MAX. Use "
                                         "reprosum, which is reproducible too"));
  if (code == Errc::Duplicate)
    throw Error(code, ferry::detail::cat("ferry::global_sums: id ", verdict.value,
                                         " is held more than once; gather needs each "
                                         "global id on one rank only"));
}

}  // namespace

std::vector<double> sum_gather(MPI_Comm comm, int count, std::size_t points,
                               const double* values, const std::int64_t* ids) {
  int rank = 0, size = 0;
  FERRY_CALL_MPI(MPI_Comm_rank(comm, &rank));
  FERRY_CALL_MPI(MPI_Comm_size(comm, &size));
  const bool root = rank == 0;

  // Point counts to rank 0 first (-1: ids missing), so it can refuse before data moves.
  const std::int64_t mine =
      points > 0 && ids == nullptr ? -1 : static_cast<std::int64_t>(points);
  std::vector<std::int64_t> counts(root ? size : 0);
  FERRY_CALL_MPI(MPI_Gather(&mine, 1, MPI_INT64_T, counts.data(), 1, MPI_INT64_T, 0, comm));
  Verdict verdict;
  std::vector<int> id_counts(counts.size()), id_offsets(counts.size());
  std::vector<int> value_counts(counts.size()), value_offsets(counts.size());
  std::int64_t total = 0;
  for (int p = 0; p < static_cast<int>(counts.size()) && verdict.code == 0; ++p) {
    if (counts[p] < 0) {
      verdict = {static_cast<std::int64_t>(Errc::Arg), p};
    } else if ((total + counts[p]) * count > INT_MAX) {
      verdict = {static_cast<std::int64_t>(Errc::Overflow), (total + counts[p]) * count};
    } else {
      id_offsets[p] = static_cast<int>(total);
      id_counts[p] = static_cast<int>(counts[p]);
      value_offsets[p] = static_cast<int>(total * count);
      value_counts[p] = static_cast<int>(counts[p] * count);
      total += counts[p];
    }
  }
  share(comm, verdict);

  // Every count fits an int now: rank 0 checked the total.
  std::vector<std::int64_t> all_ids(static_cast<std::size_t>(total));
  std::vector<double> all_values(static_cast<std::size_t>(total * count));
  FERRY_CALL_MPI(MPI_Gatherv(ids, static_cast<int>(points), MPI_INT64_T, all_ids.data(),
                             id_counts.data(), id_offsets.data(), MPI_INT64_T, 0, comm));
  FERRY_CALL_MPI(MPI_Gatherv(values, static_cast<int>(points) * count, MPI_DOUBLE,
                             all_values.data(), value_counts.data(), value_offsets.data(),
                             MPI_DOUBLE, 0, comm));

  std::vector<double> sums(static_cast<std::size_t>(count), 0.0);
  if (root) {
    std::vector<std::size_t> order(all_ids.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return all_ids[a] < all_ids[b]; });
    for (std::size_t i = 1; i < order.size() && verdict.code == 0; ++i)
      if (all_ids[order[i]] == all_ids[order[i - 1]])
        verdict = {static_cast<std::int64_t>(Errc::Duplicate), all_ids[order[i]]};
    for (const std::size_t q : order)
      for (int j = 0; j < count; ++j) sums[j] += all_values[q * count + j];
  }
  share(comm, verdict);
  FERRY_CALL_MPI(MPI_Bcast(sums.data(), count, MPI_DOUBLE, 0, comm));
  return sums;
}

}  // namespace ferry::regrid::detail
