#include "bindings/nd_arrays.hpp"

#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include "bindings/arguments.hpp"
#include "bindings/datatypes.hpp"
#include "ferry/error.hpp"

namespace ferry::python {

namespace {

// "(2, 3)", "(4,)" as Python prints a shape; "n" for an extent of any size (-1).
std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string text = "(";
  for (std::size_t d = 0; d < shape.size(); ++d)
    text += (d ? ", " : "") + (shape[d] < 0 ? std::string("n") : std::to_string(shape[d]));
  return text + (shape.size() == 1 ? ",)" : ")");
}

std::string numpy_empty(const ArraySpec& spec) {
  return "numpy.empty(" + shape_text(spec.shape) + ", dtype=numpy." + datatype_name(spec.type) +
         ")";
}

bool shape_matches(const std::vector<std::int64_t>& got, const std::vector<std::int64_t>& want) {
  if (got.size() != want.size()) return false;
  for (std::size_t d = 0; d < got.size(); ++d)
    if (want[d] >= 0 && got[d] != want[d]) return false;
  return true;
}

template <class Array>
void check(const Array& a, nb::handle array, const ArraySpec& spec, const std::string& what) {
  if (a.device_type() != nb::device::cpu::value)
    throw Error(Errc::Arg, what + " is not in host memory; ferry moves host (CPU) arrays only");
  if (a.dtype() != dlpack_dtype(spec.type))
    throw Error(Errc::Arg, what + " has dtype " + dtype_name(a.dtype()) + ", expected " +
                               datatype_name(spec.type) + ". Create it as " + numpy_empty(spec));
  std::vector<std::int64_t> shape(a.ndim());
  for (std::size_t d = 0; d < a.ndim(); ++d) shape[d] = static_cast<std::int64_t>(a.shape(d));
  if (!shape_matches(shape, spec.shape))
    throw Error(Errc::ArgSize, what + " has shape " + shape_text(shape) + ", expected " +
                                   numpy_empty(spec) + " or an array of that shape");
  // Checked last, so that the shape and dtype are known to be right: nanobind's own
  // check of the strides.
  nb::ndarray<nb::c_contig> contiguous;
  if (!nb::try_cast(array, contiguous, false))
    throw Error(Errc::Arg, what +
                               " is not C-contiguous; ferry reads and writes arrays in place, "
                               "without copies. Pass a contiguous array, such as " +
                               numpy_empty(spec));
}

void* checked_data(nb::handle array, const ArraySpec& spec, const std::string& what,
                   bool writable) {
  if (array.is_none()) {
    std::int64_t values = 1;
    for (const auto extent : spec.shape) values *= extent < 0 ? 1 : extent;
    if (values != 0) throw Error(Errc::Arg, what + " is None, expected " + numpy_empty(spec));
    return nullptr;
  }
  nb::ndarray<nb::ro> any;
  // No conversion: a converted array would be a copy.
  if (!nb::try_cast(array, any, false))
    throw Error(Errc::Arg, what + " is a " + nb::cast<std::string>(nb::inst_name(array)) +
                               ", expected a NumPy array such as " + numpy_empty(spec));
  check(any, array, spec, what);
  if (!writable) return const_cast<void*>(any.data());
  nb::ndarray<> mutable_array;
  if (!nb::try_cast(array, mutable_array, false))
    throw Error(Errc::Arg, what + " is read-only; ferry writes into it. Pass a writable array");
  return mutable_array.data();
}

}  // namespace

std::int64_t index_from_python(nb::handle value, const std::string& what) {
  if (!PyBool_Check(value.ptr()) && PyIndex_Check(value.ptr())) {
    const nb::object index = nb::steal(PyNumber_Index(value.ptr()));
    long long result = 0;
    if (index.is_valid()) result = PyLong_AsLongLong(index.ptr());
    if (!PyErr_Occurred()) return result;
    PyErr_Clear();
  }
  throw Error(Errc::Arg, what + " must be an integer (int64); got " + repr_text(value));
}

std::vector<std::int64_t> indices_from_python(nb::handle values, const std::string& what) {
  if (!nb::isinstance<nb::tuple>(values) && !nb::isinstance<nb::list>(values))
    throw Error(Errc::Arg, what + " must be a tuple or list of integers; got " + repr_text(values));
  std::vector<std::int64_t> result;
  for (nb::handle value : values) result.push_back(index_from_python(value, what));
  return result;
}

const void* readable_array(nb::handle array, const ArraySpec& spec, const std::string& what) {
  return checked_data(array, spec, what, false);
}

void* writable_array(nb::handle array, const ArraySpec& spec, const std::string& what) {
  return checked_data(array, spec, what, true);
}

}  // namespace ferry::python
