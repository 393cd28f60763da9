// ferry::conserve: corrects a remapped field so that its area integral matches the
// source's, as OASIS3-MCT's CONSERV transform does (GLOBAL, GLBPOS, BASBAL, BASPOS).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "ferry/global_sum.hpp"
#include "ferry/weights.hpp"

namespace ferry {

/// The correction. With w = area (times frac for the basin methods) at the active
/// points of a grid (mask absent or non-zero), the integrals are S = sum of w * value
/// and W = sum of w, on the source (S_src, W_src) and on the destination (S_dst, W_dst).
/// The destination integral is brought to a target T; masked points are left alone.
enum class Conserve : int {
  /// OASIS GLOBAL: T = S_src, reached by adding (T - S_dst) / W_dst to every active
  /// destination value (the residual spread uniformly per unit area).
  Global = 0,
  /// OASIS GLBPOS: T = S_src, reached by multiplying every active destination value by
  /// T / S_dst, which keeps the sign of every value.
  GlobalPositive = 1,
  /// OASIS BASBAL: w includes frac; T = S_src * W_dst / W_src (the same mean per unit
  /// of unmasked area on both sides, not the same total), added as for Global.
  BasinBalance = 2,
  /// OASIS BASPOS: T as for BasinBalance, multiplied as for GlobalPositive.
  BasinPositive = 3,
};

/// The method's name as OASIS3-MCT spells it: "GLOBAL", "GLBPOS", "BASBAL", "BASPOS".
const char* conserve_name(Conserve method) noexcept;

/// The points one rank holds of one grid. The point data are as Remap::src_points() /
/// dst_points() give them: `area` is required, `frac` (absent: 1) and `mask` (absent:
/// every point active) optional, each with ids.size() values.
struct ConserveGrid {
  const GridPointData* points = nullptr;
  /// Global ids of the points: each id on one rank only, else its point counts twice.
  /// SumMethod::Gather adds by id; the other methods use only the number of ids.
  const std::vector<std::int64_t>* ids = nullptr;
};

/// Collective over `comm`; logically collective in method, sum and components. Corrects
/// the remapped field dst_values in place (every component separately) to conserve the
/// source field src_values; both hold value[point * components + c] at the points of
/// their grid. The integrals are formed in one global sum per side, by `sum`. The correction is
/// skipped (values unchanged) for a component whose divisor is 0: W_dst for the
/// additive methods, S_dst for the multiplicative ones, W_src for the basin ones.
///
/// Raises on every rank alike: Errc::Arg (components < 1, area missing, a null
/// pointer where points are held, a method, sum or components that differs between
/// ranks), Errc::ArgSize (area, frac or mask of another length
/// than ids), and the errors of global_sums.
void conserve(MPI_Comm comm, Conserve method, SumMethod sum, int components,
              const ConserveGrid& src, const double* src_values, const ConserveGrid& dst,
              double* dst_values);

}  // namespace ferry
