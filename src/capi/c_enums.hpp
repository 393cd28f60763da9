// C API enumerators (plain ints in C) checked and turned into the C++ enums.
#pragma once

#include "ferry/datatype.hpp"
#include "ferry/ferry.h"
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

/// `type`, a FERRY_TYPE_* constant, as a Datatype.
inline Datatype datatype_of(int type, const char* function) {
  return enumerator<Datatype>(type, FERRY_TYPE_INT64, function, "type",
                              "FERRY_TYPE_FLOAT64, FLOAT32, INT32 or INT64");
}

}  // namespace ferry::detail
