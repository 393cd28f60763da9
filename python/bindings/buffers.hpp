// Checking the NumPy arrays handed to ferry: the library reads and writes them in
// place, so each must have exactly the type, shape and memory layout of the field.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <string>

#include "ferry/datatype.hpp"

namespace ferry::python {

namespace nb = nanobind;

/// What one array must hold: `points` rows of `columns` values of `type`, in C order.
/// A 1-D array of `points` values is accepted when `columns` is 1.
struct BufferSpec {
  Datatype type = Datatype::Float64;
  std::int64_t points = 0;
  int columns = 1;
  const char* column_word = "components";  ///< what a column is, for messages
};

/// Who checks, for messages: `what` starts them ("Exchange.execute: source field 1"),
/// `rank` is named in them, `hint` ends size errors (where the size comes from).
struct BufferContext {
  std::string what;
  int rank = -1;
  std::string hint;
};

/// The data of `array`, checked against `spec`, never copied: a C-contiguous host array
/// (NumPy, or anything nanobind imports through DLPack or the buffer protocol) of the
/// field's dtype and shape. None stands for an array without values and gives nullptr.
/// Not collective. Raises Errc::ArgSize for a wrong size or shape, Errc::Arg otherwise.
const void* readable_buffer(nb::handle array, const BufferSpec& spec, const BufferContext& context);

/// As readable_buffer, for an array ferry writes into: it must also be writable.
void* writable_buffer(nb::handle array, const BufferSpec& spec, const BufferContext& context);

}  // namespace ferry::python
