#include "timing.hpp"

#include <utility>

#include "progress.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::bench {

std::vector<Summary> time_in_rotation(const Comm& comm, int repeat,
                                      const std::vector<std::function<void()>>& steps) {
  FERRY_CHECK(repeat >= 1, Errc::Arg, "time_in_rotation: repeat must be >= 1; got ", repeat);
  std::vector<std::vector<double>> samples(steps.size());
  for (auto& s : samples) s.reserve(static_cast<std::size_t>(repeat));
  for (int r = 0; r < repeat; ++r) {
    for (std::size_t k = 0; k < steps.size(); ++k) {
      FERRY_CALL_MPI(MPI_Barrier(comm.get()));
      const double start = MPI_Wtime();
      steps[k]();
      samples[k].push_back(max_over_ranks(comm, MPI_Wtime() - start));
    }
    progress().step(r + 1, repeat);
  }
  std::vector<Summary> summaries;
  for (auto& s : samples) summaries.push_back(summarize(std::move(s)));
  return summaries;
}

}  // namespace ferry::bench
