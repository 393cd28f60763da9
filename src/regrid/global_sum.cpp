#include "ferry/global_sum.hpp"

#include "regrid/global_sum_methods.hpp"
#include "util/check.hpp"

namespace ferry {

const char* sum_method_name(SumMethod method) noexcept {
  switch (method) {
    case SumMethod::Gather: return "gather";
    case SumMethod::Lsum8: return "lsum8";
    case SumMethod::Lsum16: return "lsum16";
    case SumMethod::Ddpdd: return "ddpdd";
    case SumMethod::Reprosum: return "reprosum";
  }
  return "unknown";
}

std::vector<double> global_sums(MPI_Comm comm, SumMethod method, int count,
                                std::size_t points, const double* values,
                                const std::int64_t* ids) {
  // count and method are the same on every rank, so these raise everywhere alike.
  FERRY_CHECK(count >= 1, Errc::Arg, "ferry::global_sums: count is ", count,
              ", expected at least 1 sum");
  using namespace regrid::detail;
  switch (method) {
    case SumMethod::Gather: return sum_gather(comm, count, points, values, ids);
    case SumMethod::Lsum8: return sum_lsum8(comm, count, points, values);
    case SumMethod::Lsum16: return sum_lsum16(comm, count, points, values);
    case SumMethod::Ddpdd: return sum_ddpdd(comm, count, points, values);
    case SumMethod::Reprosum: return sum_reprosum(comm, count, points, values);
  }
  throw Error(Errc::Arg, detail::cat("ferry::global_sums: unknown method ",
                                     static_cast<int>(method),
                                     "; expected a ferry::SumMethod"));
}

}  // namespace ferry
