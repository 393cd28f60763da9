// The algorithms' names, as the CLI, the reports and the tuning cache spell them.
#include <algorithm>

#include "ferry/collectives.hpp"

namespace ferry {

namespace {

template <class Algorithm>
std::optional<Algorithm> find_by_name(const std::vector<Algorithm>& all, const std::string& name) {
  const auto found = std::find_if(all.begin(), all.end(),
                                  [&](Algorithm a) { return name == algorithm_name(a); });
  if (found == all.end()) return std::nullopt;
  return *found;
}

}  // namespace

const char* algorithm_name(AlltoallvAlgorithm algorithm) noexcept {
  switch (algorithm) {
    case AlltoallvAlgorithm::Mpi: return "mpi";
    case AlltoallvAlgorithm::Ring: return "ring";
    case AlltoallvAlgorithm::Swap: return "swap";
    case AlltoallvAlgorithm::Bruck: return "bruck";
  }
  return "unknown";
}

const char* algorithm_name(AllreduceAlgorithm algorithm) noexcept {
  switch (algorithm) {
    case AllreduceAlgorithm::Mpi: return "mpi";
    case AllreduceAlgorithm::RecursiveDoubling: return "doubling";
    case AllreduceAlgorithm::RecursiveHalving: return "halving";
    case AllreduceAlgorithm::Ring: return "ring";
  }
  return "unknown";
}

std::vector<AlltoallvAlgorithm> alltoallv_algorithms() {
  return {AlltoallvAlgorithm::Mpi, AlltoallvAlgorithm::Ring, AlltoallvAlgorithm::Swap,
          AlltoallvAlgorithm::Bruck};
}

std::vector<AllreduceAlgorithm> allreduce_algorithms() {
  return {AllreduceAlgorithm::Mpi, AllreduceAlgorithm::RecursiveDoubling,
          AllreduceAlgorithm::RecursiveHalving, AllreduceAlgorithm::Ring};
}

std::optional<AlltoallvAlgorithm> parse_alltoallv_algorithm(const std::string& name) {
  return find_by_name(alltoallv_algorithms(), name);
}

std::optional<AllreduceAlgorithm> parse_allreduce_algorithm(const std::string& name) {
  return find_by_name(allreduce_algorithms(), name);
}

}  // namespace ferry
