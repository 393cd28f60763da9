// Arguments of the collective functions from Python: enumerators given as the enum or
// as the configuration file's words, and arrays converted to C-ordered NumPy arrays.
// Both raise ferry::Error, so that a collective call can agree on it across ranks.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstddef>
#include <initializer_list>
#include <string>
#include <utility>

#include "ferry/error.hpp"

namespace ferry::python {

namespace nb = nanobind;

/// Runs `read`, which reads Python arguments, with a Python exception it raises turned
/// into Errc::Arg naming `function`, so that detail::agree_on shares it with the ranks.
template <class Read>
void read_python_arguments(const std::string& function, Read&& read) {
  try {
    read();
  } catch (const nb::python_error& e) {
    throw Error(Errc::Arg, function + ": " + e.what());
  }
}

/// repr(value), for messages.
inline std::string repr_text(nb::handle value) { return nb::cast<std::string>(nb::repr(value)); }

/// An enumerator from Python: the enum itself or one of `names`, the words of the
/// configuration file ("dst", "reprosum"). Errc::Arg, naming `what`, otherwise.
template <class Enum>
Enum enum_from_python(nb::handle value, std::initializer_list<std::pair<const char*, Enum>> names,
                      const std::string& what) {
  Enum result{};
  if (nb::try_cast(value, result, false)) return result;
  std::string known;
  for (const auto& [name, enumerator] : names) {
    if (nb::isinstance<nb::str>(value) && nb::cast<std::string>(value) == name) return enumerator;
    known += (known.empty() ? "\"" : ", \"") + std::string(name) + "\"";
  }
  throw Error(Errc::Arg, what + " is " + repr_text(value) + "; use one of " + known);
}

/// `values` as a C-ordered NumPy array of `dtype` (T), copied only when it is not one
/// already (lists, other dtypes of the same kind, strided arrays). Raises Errc::Arg for
/// a cast that would change the kind of non-empty values (floats to integers), and for
/// an array whose number of dimensions is not one of `ndims`.
template <class T>
nb::ndarray<const T, nb::c_contig> numpy_array(nb::handle values, const char* dtype,
                                               std::initializer_list<std::size_t> ndims,
                                               const std::string& what) {
  using namespace nb::literals;
  nb::object array;
  try {
    const nb::module_ numpy = nb::module_::import_("numpy");
    const nb::object input = numpy.attr("asarray")(values);
    // An empty list is float64 to NumPy; with no values nothing can be lost.
    const bool empty = nb::cast<std::size_t>(input.attr("size")) == 0;
    array = numpy.attr("ascontiguousarray")(input.attr("astype")(
        dtype, "casting"_a = empty ? "unsafe" : "same_kind", "copy"_a = false));
  } catch (const nb::python_error& e) {
    throw Error(Errc::Arg, what + " cannot be read as " + dtype + " values: " + e.what());
  }
  nb::ndarray<const T, nb::c_contig> result;
  bool allowed = false;
  if (nb::try_cast(array, result, false))
    for (const std::size_t n : ndims) allowed = allowed || result.ndim() == n;
  if (!allowed) {
    std::string expected;
    for (const std::size_t n : ndims)
      expected += (expected.empty() ? "" : " or ") + std::to_string(n) + "-D";
    throw Error(Errc::Arg, what + " must be a " + expected + " array of " + dtype +
                               " values; got shape " + repr_text(array.attr("shape")));
  }
  return result;
}

}  // namespace ferry::python
