// C API enumerators (plain ints in C) checked and turned into the C++ enums.
#pragma once

#include "util/check.hpp"

namespace ferry::detail {

/// `value` as an Enum whose enumerators are 0 .. last; `names` tells the caller the
/// C constants to use instead of a value out of range.
template <class Enum>
Enum enumerator(int value, int last, const char* function, const char* what, const char* names) {
  FERRY_CHECK(value >= 0 && value <= last, Errc::Arg, function, ": unknown ", what, " ", value,
              ". Use ", names);
  return static_cast<Enum>(value);
}

}  // namespace ferry::detail
