// N-dimensional NumPy arrays and index tuples from Python, for the objects whose
// arrays have the shape of a box of a global array (the time-series buffer).
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ferry/datatype.hpp"

namespace ferry::python {

namespace nb = nanobind;

/// An integer from Python: an int or a NumPy integer (anything with __index__, not a
/// float or a bool). Raises Errc::Arg, naming `what`, for anything else.
std::int64_t index_from_python(nb::handle value, const std::string& what);

/// A tuple of integers from a sequence of them (a shape). Errc::Arg otherwise.
std::vector<std::int64_t> indices_from_python(nb::handle values, const std::string& what);

/// What an array must be: C-contiguous, of `type`, of shape `shape`, where an entry
/// -1 accepts any extent (the number of steps of an output array).
struct ArraySpec {
  Datatype type = Datatype::Float64;
  std::vector<std::int64_t> shape;
};

/// The data of `array` (never copied), checked against `spec`; `what` starts the
/// messages. None is accepted for an array without values and gives nullptr. Not
/// collective. Raises Errc::ArgSize for a wrong shape, Errc::Arg otherwise.
const void* readable_array(nb::handle array, const ArraySpec& spec, const std::string& what);
/// As readable_array, for an array ferry writes into: it must also be writable.
void* writable_array(nb::handle array, const ArraySpec& spec, const std::string& what);

}  // namespace ferry::python
