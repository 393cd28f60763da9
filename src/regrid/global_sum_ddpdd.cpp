// ddpdd: double-double sums (He and Ding, 2001). Each sum is a pair (hi, lo) with
// |lo| <= ulp(hi) / 2; adding uses Knuth's error-free two-sum, so about 106 bits
// survive, locally and in the reduction.
#include <cstring>
#include <vector>

#include "regrid/global_sum_methods.hpp"
#include "regrid/global_sum_op.hpp"

namespace ferry::regrid::detail {
namespace {

struct DoubleDouble {
  double hi = 0;
  double lo = 0;
};

// b += a, the DDPDD operation of He and Ding. Needs strict IEEE double arithmetic
// (no -ffast-math, no x87 extended registers).
void add_to(const DoubleDouble& a, DoubleDouble& b) {
  const double t1 = a.hi + b.hi;
  const double e = t1 - a.hi;
  const double t2 = ((b.hi - e) + (a.hi - (t1 - e))) + a.lo + b.lo;
  b.hi = t1 + t2;
  b.lo = t2 - (b.hi - t1);
}

void add_double_doubles(void* in, void* inout, int* len, MPI_Datatype*) {
  for (int i = 0; i < *len; ++i) {
    DoubleDouble a, b;
    std::memcpy(&a, static_cast<char*>(in) + i * sizeof(DoubleDouble), sizeof a);
    std::memcpy(&b, static_cast<char*>(inout) + i * sizeof(DoubleDouble), sizeof b);
    add_to(a, b);
    std::memcpy(static_cast<char*>(inout) + i * sizeof(DoubleDouble), &b, sizeof b);
  }
}

}  // namespace

std::vector<double> sum_ddpdd(MPI_Comm comm, int count, std::size_t points,
                              const double* values) {
  std::vector<DoubleDouble> local(static_cast<std::size_t>(count));
  for (std::size_t p = 0; p < points; ++p)
    for (int j = 0; j < count; ++j) add_to({values[p * count + j], 0.0}, local[j]);
  const UserReduction dd_sum(static_cast<int>(sizeof(DoubleDouble)), add_double_doubles);
  dd_sum.allreduce(comm, local.data(), count);
  std::vector<double> sums(local.size());
  for (std::size_t j = 0; j < local.size(); ++j) sums[j] = local[j].hi + local[j].lo;
  return sums;
}

}  // namespace ferry::regrid::detail
