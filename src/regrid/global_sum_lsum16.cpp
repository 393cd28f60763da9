// lsum16: local sums and their reduction in quadruple precision, rounded to double
// once at the end.
#include <cstring>
#include <vector>

#include "regrid/global_sum_methods.hpp"
#include "regrid/global_sum_op.hpp"

namespace ferry::regrid::detail {
namespace {

// IEEE binary128 (113-bit significand, in software) where the compiler has it; else
// long double (64-bit significand on x86 with x87, 113 bits on some other targets).
#if defined(__SIZEOF_FLOAT128__)
__extension__ typedef __float128 Quad;
#else
typedef long double Quad;
#endif

void add_quads(void* in, void* inout, int* len, MPI_Datatype*) {
  // memcpy: MPI buffers need not be aligned for Quad.
  for (int i = 0; i < *len; ++i) {
    Quad a, b;
    std::memcpy(&a, static_cast<char*>(in) + i * sizeof(Quad), sizeof(Quad));
    std::memcpy(&b, static_cast<char*>(inout) + i * sizeof(Quad), sizeof(Quad));
    b += a;
    std::memcpy(static_cast<char*>(inout) + i * sizeof(Quad), &b, sizeof(Quad));
  }
}

}  // namespace

std::vector<double> sum_lsum16(MPI_Comm comm, int count, std::size_t points,
                               const double* values) {
  std::vector<Quad> local(static_cast<std::size_t>(count), Quad(0));
  for (std::size_t p = 0; p < points; ++p)
    for (int j = 0; j < count; ++j) local[j] += values[p * count + j];
  const UserReduction quad_sum(static_cast<int>(sizeof(Quad)), add_quads);
  quad_sum.allreduce(comm, local.data(), count);
  return std::vector<double>(local.begin(), local.end());
}

}  // namespace ferry::regrid::detail
