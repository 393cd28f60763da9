#include "engines/adaptive/plan_signature.hpp"

#include <algorithm>
#include <cstdint>

#include "util/mpi.hpp"

namespace ferry::detail {

std::string mpi_library() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
  int length = 0;
  FERRY_CALL_MPI(MPI_Get_library_version(text, &length));
  std::string version(text, static_cast<std::size_t>(length));
  version = version.substr(0, version.find('\n'));
  while (!version.empty() && (version.back() == ' ' || version.back() == '\0'))
    version.pop_back();
  std::replace(version.begin(), version.end(), '|', '/');
  return version;
}

std::string plan_signature(const Plan& plan, const Comm& comm, std::size_t point_bytes) {
  std::vector<std::int64_t> none;
  return plan_signature(plan, comm, point_bytes, none);
}

std::string plan_signature(const Plan& plan, const Comm& comm, std::size_t point_bytes,
                           std::vector<std::int64_t>& also_max) {
  const auto bytes = static_cast<std::int64_t>(point_bytes);
  const auto sends = static_cast<std::int64_t>(plan.send().peer_count());
  const auto recvs = static_cast<std::int64_t>(plan.recv().peer_count());
  const std::int64_t sent = plan.send().total() * bytes;
  std::int64_t sums[4] = {plan.src_member() ? 1 : 0, plan.dst_member() ? 1 : 0, sends, sent};
  std::vector<std::int64_t> maxima = {std::max(sends, recvs), sent};
  maxima.insert(maxima.end(), also_max.begin(), also_max.end());
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, sums, 4, MPI_INT64_T, MPI_SUM, comm.get()));
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, maxima.data(),
                               mpi_count<int>(maxima.size(), "plan_signature: maxima"),
                               MPI_INT64_T, MPI_MAX, comm.get()));
  std::copy(maxima.begin() + 2, maxima.end(), also_max.begin());
  return cat("ranks=", comm.size(), " src_ranks=", sums[0], " dst_ranks=", sums[1],
             " points=", plan.global_size(), " point_bytes=", point_bytes, " messages=", sums[2],
             " max_messages=", maxima[0], " bytes=", sums[3], " max_bytes=", maxima[1],
             " mpi=", mpi_library());
}

}  // namespace ferry::detail
