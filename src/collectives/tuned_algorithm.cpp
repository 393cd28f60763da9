// The algorithm `ferry tune kernels` recorded in the tuning cache for a collective.
#include <optional>
#include <string>
#include <vector>

#include "collectives/tuned_entry.hpp"
#include "ferry/collectives.hpp"
#include "ferry/comm.hpp"
#include "util/log.hpp"
#include "util/mpi.hpp"

namespace ferry {

namespace {

// Rank 0 looks the entry up and parses its choice; every rank returns the result.
template <class Algorithm>
Algorithm tuned_algorithm(MPI_Comm user_comm, const std::string& cache, const char* operation,
                          std::int64_t bytes, Algorithm fallback,
                          std::optional<Algorithm> (*parse)(const std::string&)) {
  const Comm comm = Comm::dup(user_comm);
  int chosen = static_cast<int>(fallback);
  if (comm.rank() == 0 && !cache.empty()) {
    std::vector<std::string> warnings;
    const auto entry = detail::find_tuned_entry(cache, comm.size(), operation, bytes, warnings);
    for (const std::string& warning : warnings) FERRY_LOG_WARN(0, operation, ": ", warning);
    const std::optional<Algorithm> parsed =
        entry ? parse(entry->choice.label()) : std::nullopt;
    if (entry && !parsed)
      FERRY_LOG_WARN(0, operation, ": the tuning cache \"", cache, "\" names \"",
                     entry->choice.label(), "\", which is no algorithm of this ferry; using ",
                     "the default");
    chosen = static_cast<int>(parsed.value_or(fallback));
  }
  FERRY_CALL_MPI(MPI_Bcast(&chosen, 1, MPI_INT, 0, comm.get()));
  return static_cast<Algorithm>(chosen);
}

}  // namespace

AlltoallvAlgorithm tuned_alltoallv_algorithm(MPI_Comm comm, const std::string& cache,
                                             std::int64_t block_bytes,
                                             AlltoallvAlgorithm fallback) {
  return tuned_algorithm(comm, cache, "alltoallv", block_bytes, fallback,
                         parse_alltoallv_algorithm);
}

AllreduceAlgorithm tuned_allreduce_algorithm(MPI_Comm comm, const std::string& cache,
                                             std::int64_t vector_bytes,
                                             AllreduceAlgorithm fallback) {
  return tuned_algorithm(comm, cache, "allreduce", vector_bytes, fallback,
                         parse_allreduce_algorithm);
}

}  // namespace ferry
