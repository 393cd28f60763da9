// lsum8: local double sums, one MPI_Allreduce(SUM); OASIS3-MCT 3.0 "opt".
#include <vector>

#include "regrid/global_sum_methods.hpp"
#include "util/mpi.hpp"

namespace ferry::regrid::detail {

std::vector<double> sum_lsum8(MPI_Comm comm, int count, std::size_t points,
                              const double* values) {
  std::vector<double> sums(static_cast<std::size_t>(count), 0.0);
  for (std::size_t p = 0; p < points; ++p)
    for (int j = 0; j < count; ++j) sums[j] += values[p * count + j];
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, sums.data(), count, MPI_DOUBLE, MPI_SUM, comm));
  return sums;
}

}  // namespace ferry::regrid::detail
