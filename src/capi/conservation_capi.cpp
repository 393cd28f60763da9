// The C API of global sums and conservation: ferry::global_sums and ferry::conserve
// behind ferry/conservation.h.
//
// Both check their C arguments in an agreement before the first reduction, so a NULL
// array on one rank fails every rank alike; a method or count that differs between ranks
// fails every rank too (ferry_global_sums in that agreement, ferry_conserve in
// ferry::conserve's own).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "capi/c_call.hpp"
#include "capi/layout_handle.hpp"
#include "ferry/comm.hpp"
#include "ferry/conservation.h"
#include "ferry/conservation.hpp"
#include "ferry/global_sum.hpp"
#include "util/agree.hpp"

namespace {

using ferry::detail::c_call;
using ferry::detail::CCall;

constexpr const char* kSumNames =
    "FERRY_SUM_GATHER, FERRY_SUM_LSUM8, FERRY_SUM_LSUM16, FERRY_SUM_DDPDD or FERRY_SUM_REPROSUM";

// One grid of ferry_conserve: its layout's ids and the point data copied from C.
struct ConserveSide {
  std::vector<std::int64_t> ids;
  ferry::GridPointData points;

  ConserveSide(const ferry_layout* layout, const double* area, const double* frac,
               const int* mask, const double* values, const CCall& call, const std::string& side) {
    ids = call.handle(layout, (side + " layout").c_str()).layout.ids();
    const auto n = static_cast<std::int64_t>(ids.size());
    points.area = call.array(area, n, side + "_area");
    if (frac) points.frac = call.array(frac, n, side + "_frac");
    if (mask) points.mask = call.array(mask, n, side + "_mask");
    FERRY_CHECK(values != nullptr || n == 0, ferry::Errc::Arg, call.function(), ": ", side,
                "_values is NULL on a rank holding ", n, " points");
  }

  ferry::ConserveGrid grid() const { return {&points, &ids}; }
};

}  // namespace

extern "C" {

int ferry_global_sums(MPI_Comm comm, int method, int count, int64_t points, const double* values,
                      const int64_t* ids, double* sums) {
  return c_call("ferry_global_sums", [&](const CCall& call) {
    const char* function = call.function();
    call.comm(comm);
    ferry::SumMethod sum{};
    const auto read_arguments = [&] {
      sum = call.choice<ferry::SumMethod>(method, FERRY_SUM_REPROSUM, "method", kSumNames);
      FERRY_CHECK(count >= 1, ferry::Errc::Arg, function, ": count is ", count,
                  ", expected at least 1 sum");
      FERRY_CHECK(points >= 0, ferry::Errc::Arg, function, ": points is ", points,
                  ", expected 0 or more");
      FERRY_CHECK(values != nullptr || points == 0, ferry::Errc::Arg, function,
                  ": values is NULL on a rank holding ", points, " points");
      FERRY_CHECK(ids != nullptr || points == 0 || sum != ferry::SumMethod::Gather,
                  ferry::Errc::Arg, function, ": ids is NULL on a rank holding ", points,
                  " points; FERRY_SUM_GATHER adds by id and needs them");
      FERRY_CHECK(sums != nullptr, ferry::Errc::Arg, function, ": sums is NULL; need room for ",
                  count, " values");
    };
    ferry::detail::agree_on_same(ferry::Comm::view(comm), function,
                                 {ferry::detail::enum_setting<ferry::SumMethod,
                                                              ferry::sum_method_name>(
                                      "method", static_cast<ferry::SumMethod>(method)),
                                  {"count", count}},
                                 read_arguments);
    const std::vector<double> result = ferry::global_sums(
        comm, sum, count, static_cast<std::size_t>(points), values, ids);
    std::copy(result.begin(), result.end(), sums);
  });
}

int ferry_conserve(MPI_Comm comm, int method, int sum, int components, const ferry_layout* src,
                   const double* src_area, const double* src_frac, const int* src_mask,
                   const double* src_values, const ferry_layout* dst, const double* dst_area,
                   const double* dst_frac, const int* dst_mask, double* dst_values) {
  return c_call("ferry_conserve", [&](const CCall& call) {
    call.comm(comm);
    ferry::Conserve conserve_method{};
    ferry::SumMethod sum_method{};
    std::vector<ConserveSide> sides;
    const auto read_arguments = [&] {
      conserve_method = call.choice<ferry::Conserve>(
          method, FERRY_CONSERVE_BASIN_POSITIVE, "method",
          "FERRY_CONSERVE_GLOBAL, FERRY_CONSERVE_GLOBAL_POSITIVE, FERRY_CONSERVE_BASIN_BALANCE "
          "or FERRY_CONSERVE_BASIN_POSITIVE");
      sum_method = call.choice<ferry::SumMethod>(sum, FERRY_SUM_REPROSUM, "sum", kSumNames);
      sides.emplace_back(src, src_area, src_frac, src_mask, src_values, call, "src");
      sides.emplace_back(dst, dst_area, dst_frac, dst_mask, dst_values, call, "dst");
    };
    // ferry::conserve checks that method, sum and components are the same everywhere.
    ferry::detail::agree_on(ferry::Comm::view(comm), read_arguments);
    ferry::conserve(comm, conserve_method, sum_method, components, sides[0].grid(), src_values,
                    sides[1].grid(), dst_values);
  });
}

}  // extern "C"
