#include "bindings/buffers.hpp"

#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include "bindings/datatypes.hpp"
#include "ferry/error.hpp"

namespace ferry::python {

namespace {

std::string on_rank(const BufferContext& c) { return " on rank " + std::to_string(c.rank); }

std::string expected_shape(const BufferSpec& s) {
  const std::string rows = std::to_string(s.points);
  return s.columns == 1 ? "(" + rows + ",)" : "(" + rows + ", " + std::to_string(s.columns) + ")";
}

std::string numpy_empty(const BufferSpec& s) {
  return "numpy.empty(" + expected_shape(s) + ", dtype=numpy." + datatype_name(s.type) + ")";
}

std::string layout_text(const BufferSpec& s) {
  const std::string points = std::to_string(s.points) + " points";
  return s.columns == 1 ? points : points + " x " + std::to_string(s.columns) + " " + s.column_word;
}

// The right number of values in the wrong shape (a 2-D field of a box layout, say):
// the layout's points are in its id order, which for Layout.box is row by row, as in
// a C-order (ny, nx) array, so a view with one row per point is what ferry wants.
std::string reshape_hint(const BufferSpec& s) {
  const std::string shape = s.columns == 1 ? "-1" : "-1, " + std::to_string(s.columns);
  return "The values go in the layout's id order, one row per point (a box layout's block "
         "row by row, as a C-order (ny, nx) array holds it): pass array.reshape(" +
         shape + "), a view of a C-order array";
}

Error wrong(Errc code, const BufferContext& c, const std::string& problem, const std::string& fix) {
  return Error(code, c.what + " " + problem + on_rank(c) + fix, c.rank);
}

// C order, where NumPy ignores the stride of an extent-1 dimension (and of empty arrays).
template <class Array>
bool c_contiguous(const Array& a) {
  if (a.size() == 0) return true;
  std::int64_t expected = 1;
  for (std::size_t d = a.ndim(); d-- > 0;) {
    if (a.shape(d) != 1 && a.stride(d) != expected) return false;
    expected *= static_cast<std::int64_t>(a.shape(d));
  }
  return true;
}

template <class Array>
void check(const Array& a, const BufferSpec& s, const BufferContext& c) {
  if (a.device_type() != nb::device::cpu::value)
    throw wrong(Errc::Arg, c, "is not in host memory", "; ferry moves host (CPU) arrays only");
  if (a.dtype() != dlpack_dtype(s.type))
    throw wrong(
        Errc::Arg, c, "has dtype " + dtype_name(a.dtype()),
        ", expected " + std::string(datatype_name(s.type)) + ". Create it as " + numpy_empty(s));
  const std::int64_t values = s.points * s.columns;
  if (static_cast<std::int64_t>(a.size()) != values)
    throw wrong(Errc::ArgSize, c, "has " + std::to_string(a.size()) + " values",
                ", expected " + std::to_string(values) + " (" + layout_text(s) + "). " + c.hint);
  const bool flat = a.ndim() == 1 && s.columns == 1;
  const bool table = a.ndim() == 2 && static_cast<std::int64_t>(a.shape(0)) == s.points &&
                     static_cast<std::int64_t>(a.shape(1)) == s.columns;
  if (!flat && !table) {
    std::string shape = "(";
    for (std::size_t d = 0; d < a.ndim(); ++d)
      shape += (d ? ", " : "") + std::to_string(a.shape(d));
    shape += a.ndim() == 1 ? ",)" : ")";
    throw wrong(Errc::ArgSize, c, "has shape " + shape,
                ", expected " + expected_shape(s) + " (" + layout_text(s) + "). " +
                    reshape_hint(s));
  }
  if (!c_contiguous(a))
    throw wrong(Errc::Arg, c, "is not C-contiguous",
                "; ferry reads and writes arrays in place, without copies. Pass an array in C "
                "order, for example one created as " +
                    numpy_empty(s) + " (numpy.ascontiguousarray(array) makes a C-order copy "
                                     "of a source array; copy a destination's values back)");
}

void require_values(nb::handle array, const BufferSpec& s, const BufferContext& c) {
  if (array.is_none() && s.points * s.columns != 0)
    throw wrong(Errc::Arg, c, "is None",
                ", expected " + numpy_empty(s) + " (" + layout_text(s) + ")");
}

}  // namespace

const void* readable_buffer(nb::handle array, const BufferSpec& spec,
                            const BufferContext& context) {
  require_values(array, spec, context);
  if (array.is_none()) return nullptr;
  nb::ndarray<nb::ro> a;
  // No conversion: a converted array would be a copy.
  if (!nb::try_cast(array, a, false))
    throw wrong(Errc::Arg, context, "is a " + nb::cast<std::string>(nb::inst_name(array)),
                ", expected a NumPy array such as " + numpy_empty(spec));
  check(a, spec, context);
  return a.data();
}

void* writable_buffer(nb::handle array, const BufferSpec& spec, const BufferContext& context) {
  require_values(array, spec, context);
  if (array.is_none()) return nullptr;
  nb::ndarray<> a;
  if (!nb::try_cast(array, a, false)) {
    nb::ndarray<nb::ro> read_only;
    if (nb::try_cast(array, read_only, false))
      throw wrong(Errc::Arg, context, "is read-only",
                  "; ferry writes the received values into it. Pass a writable array");
    throw wrong(Errc::Arg, context, "is a " + nb::cast<std::string>(nb::inst_name(array)),
                ", expected a NumPy array such as " + numpy_empty(spec));
  }
  check(a, spec, context);
  return a.data();
}

}  // namespace ferry::python
