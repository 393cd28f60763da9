// Fields from Python for the objects that move fields between a source and a
// destination layout (Exchange, Remap): their specs, and the arrays of one call.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ferry/engine.hpp"

namespace ferry::python {

namespace nb = nanobind;

/// A list or a tuple.
bool is_sequence(nb::handle h);

/// Fields from Python: None is one float64 value per point, a dtype-like one field,
/// a list of dtype-likes or (dtype-like, components) pairs several. `owner` starts
/// the messages ("Exchange"). Not collective; raises Errc::Arg.
std::vector<FieldSpec> field_specs(nb::handle fields, const std::string& owner);

/// The fields as Python sees them: a list of (numpy.dtype, components).
nb::list fields_to_python(const std::vector<FieldSpec>& fields);

/// What one call sends from this rank: a dict of messages, bytes and rounds.
nb::dict traffic_to_python(const Traffic& traffic);

/// The pointers handed to ferry for one call: one per field and side, nullptr for
/// the fields the mask skips and for None arrays of fields without points here.
struct FieldBuffers {
  std::vector<const void*> src;
  std::vector<void*> dst;
  std::vector<std::uint8_t> mask;
};

/// What the arrays of one call must be: `function` names the call in messages
/// ("Exchange.execute"), `rank` is this rank, and each field has src_points rows on
/// the source side and dst_points on the destination side.
struct FieldCall {
  std::string function;
  int rank = -1;
  std::int64_t src_points = 0;
  std::int64_t dst_points = 0;
};

/// The arrays `src` and `dst` (one per field: a list or tuple, or the array itself
/// when there is one field) and the optional `mask` (one truth value per field),
/// each array checked against its field and never copied. Not collective. Raises
/// Errc::ArgSize for a wrong count or shape, Errc::Arg otherwise.
FieldBuffers field_buffers(const FieldCall& call, const std::vector<FieldSpec>& fields,
                           nb::handle src, nb::handle dst, nb::handle mask);

}  // namespace ferry::python
