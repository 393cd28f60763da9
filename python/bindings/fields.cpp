#include "bindings/fields.hpp"

#include <nanobind/stl/string.h>

#include "bindings/buffers.hpp"
#include "bindings/datatypes.hpp"
#include "ferry/error.hpp"

namespace ferry::python {

namespace {

// A field is a dtype-like (one value per point) or a (dtype-like, components) pair.
FieldSpec field_spec(nb::handle field, std::size_t index, const std::string& owner) {
  const std::string what = owner + ": field " + std::to_string(index);
  if (!is_sequence(field)) return {datatype_from_python(field, what), 1};
  if (nb::len(field) != 2)
    throw Error(Errc::Arg, what + ": expected (dtype, components); got " +
                               nb::cast<std::string>(nb::repr(field)));
  const nb::object components = field[1];
  int count = 0;
  if (PyBool_Check(components.ptr()) || !nb::try_cast(components, count, false))
    throw Error(Errc::Arg, what + ": components must be an int; got " +
                               nb::cast<std::string>(nb::repr(components)));
  return {datatype_from_python(field[0], what), count};
}

std::string on_rank(int rank) { return " on rank " + std::to_string(rank); }

// One array per field: a list or tuple, or a single array when there is one field.
std::vector<nb::handle> per_field(nb::handle arrays, std::size_t n, const std::string& what,
                                  int rank) {
  if (!is_sequence(arrays)) {
    if (n == 1) return {arrays};
    throw Error(Errc::Arg,
                what + " is a " + nb::cast<std::string>(nb::inst_name(arrays)) + on_rank(rank) +
                    "; give a list of " + std::to_string(n) + " arrays, one per field",
                rank);
  }
  if (nb::len(arrays) != n)
    throw Error(Errc::ArgSize,
                what + ": got " + std::to_string(nb::len(arrays)) + " arrays" + on_rank(rank) +
                    ", expected " + std::to_string(n) + " (one per field)",
                rank);
  std::vector<nb::handle> result;
  for (nb::handle a : arrays) result.push_back(a);
  return result;
}

}  // namespace

bool is_sequence(nb::handle h) {
  return nb::isinstance<nb::list>(h) || nb::isinstance<nb::tuple>(h);
}

std::vector<FieldSpec> field_specs(nb::handle fields, const std::string& owner) {
  if (fields.is_none()) return {FieldSpec{}};
  if (!is_sequence(fields)) return {field_spec(fields, 0, owner)};
  std::vector<FieldSpec> specs;
  for (nb::handle field : fields) specs.push_back(field_spec(field, specs.size(), owner));
  return specs;
}

nb::list fields_to_python(const std::vector<FieldSpec>& fields) {
  nb::list result;
  for (const FieldSpec& f : fields)
    result.append(nb::make_tuple(numpy_dtype(f.type), f.components));
  return result;
}

nb::dict traffic_to_python(const Traffic& traffic) {
  nb::dict result;
  result["messages"] = traffic.messages;
  result["bytes"] = traffic.bytes;
  result["rounds"] = traffic.rounds;
  return result;
}

FieldBuffers field_buffers(const FieldCall& call, const std::vector<FieldSpec>& fields,
                           nb::handle src, nb::handle dst, nb::handle mask) {
  const std::size_t n = fields.size();
  FieldBuffers b{std::vector<const void*>(n, nullptr), std::vector<void*>(n, nullptr),
                 std::vector<std::uint8_t>(n, 1)};
  if (!mask.is_none()) {
    if (nb::len(mask) != n)
      throw Error(Errc::ArgSize,
                  call.function + ": the mask has " + std::to_string(nb::len(mask)) +
                      " entries" + on_rank(call.rank) + ", expected " + std::to_string(n) +
                      " (one per field)",
                  call.rank);
    std::size_t f = 0;
    for (nb::handle selected : mask) {
      const int truth = PyObject_IsTrue(selected.ptr());
      if (truth < 0) throw nb::python_error();
      b.mask[f++] = static_cast<std::uint8_t>(truth);
    }
  }
  const std::vector<nb::handle> src_arrays =
      per_field(src, n, call.function + ": the source", call.rank);
  const std::vector<nb::handle> dst_arrays =
      per_field(dst, n, call.function + ": the destination", call.rank);
  for (std::size_t f = 0; f < n; ++f) {
    if (b.mask[f] == 0) continue;
    const std::string field = " field " + std::to_string(f);
    b.src[f] =
        readable_buffer(src_arrays[f], {fields[f].type, call.src_points, fields[f].components},
                        {call.function + ": source" + field, call.rank,
                         "Size it from the source layout (Layout.local_size points)"});
    b.dst[f] =
        writable_buffer(dst_arrays[f], {fields[f].type, call.dst_points, fields[f].components},
                        {call.function + ": destination" + field, call.rank,
                         "Size it from the destination layout (Layout.local_size points)"});
  }
  return b;
}

}  // namespace ferry::python
