// ferry::conserve: the CONSERV transform of OASIS3-MCT on a remapped field.
#include "ferry/conservation.hpp"

#include <cstddef>
#include <vector>

#include "ferry/comm.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"

namespace ferry {
namespace {

bool is_basin(Conserve method) {
  return method == Conserve::BasinBalance || method == Conserve::BasinPositive;
}

bool is_multiplicative(Conserve method) {
  return method == Conserve::GlobalPositive || method == Conserve::BasinPositive;
}

void check_grid(const char* side, const ConserveGrid& grid, const double* values) {
  FERRY_CHECK(grid.points != nullptr && grid.ids != nullptr, Errc::Arg, "ferry::conserve: the ",
              side, " grid has no point data or no ids. Pass Remap::", side,
              "_points() and the ids of the ", side, " layout");
  const GridPointData& data = *grid.points;
  const std::size_t n = grid.ids->size();
  FERRY_CHECK(data.area.has_value(), Errc::Arg, "ferry::conserve: the ", side,
              " grid has no cell areas; the weight file or the caller must provide them");
  FERRY_CHECK(n == 0 || values != nullptr, Errc::Arg, "ferry::conserve: the ", side,
              " values are null on a rank holding ", n, " points");
  const auto check_size = [&](const char* what, std::size_t size) {
    FERRY_CHECK(size == n, Errc::ArgSize, "ferry::conserve: ", side, " ", what, " has ", size,
                " values, expected ", n, " (one per id)");
  };
  check_size("area", data.area->size());
  if (data.frac) check_size("frac", data.frac->size());
  if (data.mask) check_size("mask", data.mask->size());
}

bool active(const GridPointData& data, std::size_t p) {
  return !data.mask || (*data.mask)[p] != 0;
}

// The global integrals of one side: sum of w * value per component, then sum of w,
// with w = area (times frac for the basin methods) at active points, 0 elsewhere.
std::vector<double> integrals(MPI_Comm comm, Conserve method, SumMethod sum, int components,
                              const ConserveGrid& grid, const double* values) {
  const GridPointData& data = *grid.points;
  const std::size_t n = grid.ids->size();
  const std::size_t stride = static_cast<std::size_t>(components) + 1;
  std::vector<double> terms(n * stride, 0.0);
  for (std::size_t p = 0; p < n; ++p) {
    if (!active(data, p)) continue;
    double w = (*data.area)[p];
    if (is_basin(method) && data.frac) w *= (*data.frac)[p];
    for (int c = 0; c < components; ++c) terms[p * stride + c] = w * values[p * components + c];
    terms[p * stride + components] = w;
  }
  return global_sums(comm, sum, components + 1, n, terms.data(), grid.ids->data());
}

}  // namespace

const char* conserve_name(Conserve method) noexcept {
  switch (method) {
    case Conserve::Global: return "GLOBAL";
    case Conserve::GlobalPositive: return "GLBPOS";
    case Conserve::BasinBalance: return "BASBAL";
    case Conserve::BasinPositive: return "BASPOS";
  }
  return "unknown";
}

void conserve(MPI_Comm comm, Conserve method, SumMethod sum, int components,
              const ConserveGrid& src, const double* src_values, const ConserveGrid& dst,
              double* dst_values) {
  const auto check_arguments = [&] {
    FERRY_CHECK(components >= 1, Errc::Arg, "ferry::conserve: components is ", components,
                ", expected at least 1");
    check_grid("src", src, src_values);
    check_grid("dst", dst, dst_values);
  };
  // Settings that differ between ranks would make the global sums mismatch: checked in
  // the same reduction.
  detail::agree_on_same(Comm::view(comm), "ferry::conserve",
                        {detail::enum_setting<Conserve, conserve_name>("method", method),
                         detail::enum_setting<SumMethod, sum_method_name>("sum", sum),
                         {"components", components}},
                        check_arguments);
  const std::vector<double> s = integrals(comm, method, sum, components, src, src_values);
  const std::vector<double> d = integrals(comm, method, sum, components, dst, dst_values);
  const double w_src = s[components];
  const double w_dst = d[components];
  // Basin methods aim at the source's mean per unit of unmasked area, not its total.
  if (is_basin(method) && w_src == 0) return;
  const double target_scale = is_basin(method) ? w_dst / w_src : 1.0;

  const GridPointData& data = *dst.points;
  for (int c = 0; c < components; ++c) {
    const double target = s[c] * target_scale;
    if (is_multiplicative(method)) {
      if (d[c] == 0) continue;
      const double factor = target / d[c];
      for (std::size_t p = 0; p < dst.ids->size(); ++p)
        if (active(data, p)) dst_values[p * components + c] *= factor;
    } else {
      if (w_dst == 0) continue;
      const double shift = (target - d[c]) / w_dst;
      for (std::size_t p = 0; p < dst.ids->size(); ++p)
        if (active(data, p)) dst_values[p * components + c] += shift;
    }
  }
}

}  // namespace ferry
