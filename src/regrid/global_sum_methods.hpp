// The methods behind ferry::global_sums, one file each; every one is collective over
// `comm` and returns the `count` sums of the terms values[p * count + j], p < points.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ferry::regrid::detail {

std::vector<double> sum_gather(MPI_Comm comm, int count, std::size_t points,
                               const double* values, const std::int64_t* ids);
std::vector<double> sum_lsum8(MPI_Comm comm, int count, std::size_t points,
                              const double* values);
std::vector<double> sum_lsum16(MPI_Comm comm, int count, std::size_t points,
                               const double* values);
std::vector<double> sum_ddpdd(MPI_Comm comm, int count, std::size_t points,
                              const double* values);
std::vector<double> sum_reprosum(MPI_Comm comm, int count, std::size_t points,
                                 const double* values);

}  // namespace ferry::regrid::detail
