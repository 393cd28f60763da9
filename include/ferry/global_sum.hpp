// ferry::global_sums: several global sums over a communicator in one reduction, by
// the methods of OASIS3-MCT's CONSERV (gather, lsum8, lsum16, ddpdd, reprosum).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ferry {

/// How a global sum is formed. See docs/user/conservation.md for costs and guarantees.
enum class SumMethod : int {
  /// Every term goes to rank 0, which adds them by ascending global id and broadcasts
  /// the sums: the same bits for any process count and layout. Slow; needs the ids.
  Gather = 0,
  /// Local double sums, then MPI_Allreduce(SUM): fast; the last bits depend on the
  /// process count and the layout.
  Lsum8 = 1,
  /// Local sums and the reduction in quadruple precision (__float128 with GCC and
  /// Clang on x86-64, else long double): rounding to double hides most differences.
  Lsum16 = 2,
  /// Double-double (He and Ding, 2001): local sums by Knuth's two-sum, reduced with
  /// a double-double addition; about 106 bits.
  Ddpdd = 3,
  /// Exact integer sums (two reductions: MAX of the exponent, SUM of int64 digits):
  /// the correctly rounded sum, the same bits for any process count and layout.
  Reprosum = 4,
};

/// The method's name as OASIS3-MCT spells it: "gather", "lsum8", ...
const char* sum_method_name(SumMethod method) noexcept;

/// Collective over `comm`; logically collective in `method` and `count` (the same on
/// every rank). Returns on every rank the `count` sums over all ranks of the terms
/// this rank holds: term j of local point p is values[p * count + j], for `points`
/// points. `ids` gives the global id of each point; Gather adds the terms in
/// ascending id order and needs it (each id held once over all ranks), the other
/// methods ignore it (nullptr is fine). All sums move in one reduction.
///
/// Raises on every rank alike: Errc::Arg (count < 1; with Reprosum, a term that is not
/// finite; with Gather, ids missing on a rank that holds points), Errc::Duplicate
/// (Gather: an id held twice), Errc::Overflow (Gather: more than INT_MAX values to
/// gather). The other methods let a NaN or infinity propagate to the sums.
std::vector<double> global_sums(MPI_Comm comm, SumMethod method, int count,
                                std::size_t points, const double* values,
                                const std::int64_t* ids = nullptr);

}  // namespace ferry
