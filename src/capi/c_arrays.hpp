// Copies between C arrays and vectors for the C API files, with the checks every
// entry point makes on them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "util/check.hpp"

namespace ferry::detail {

/// The `count` values of a C array, which may be NULL only when it is empty.
template <class T>
std::vector<T> copied(const T* values, std::int64_t count, const char* function,
                      const char* what) {
  FERRY_CHECK(count >= 0 && (values != nullptr || count == 0), Errc::Arg, function, ": ", what,
              " is NULL (or its length ", count, " is negative)");
  return std::vector<T>(values, values + count);
}

/// Copies `values` to the C array `out`, which may be NULL only when there are none.
template <class T>
void copy_out(const std::vector<T>& values, T* out, const char* function, const char* what) {
  if (values.empty()) return;
  FERRY_CHECK(out != nullptr, Errc::Arg, function, ": ", what, " is NULL; need room for ",
              values.size(), " values");
  std::copy(values.begin(), values.end(), out);
}

}  // namespace ferry::detail
