#include "bindings/datatypes.hpp"

#include <nanobind/stl/string.h>

#include <cstdint>

#include "ferry/error.hpp"

namespace ferry::python {

Datatype datatype_from_python(nb::handle dtype_like, const std::string& what) {
  const std::string supported = "; use float64, float32, int32 or int64 in native byte order";
  // numpy.dtype(None) means float64; a missing type is more likely a mistake.
  if (dtype_like.is_none()) throw Error(Errc::Arg, what + ": the dtype is None" + supported);
  nb::object dtype;
  try {
    dtype = nb::module_::import_("numpy").attr("dtype")(dtype_like);
  } catch (nb::python_error& e) {
    if (!e.matches(PyExc_TypeError)) throw;
    throw Error(Errc::Arg, what + ": " + nb::cast<std::string>(nb::repr(dtype_like)) +
                               " is not a NumPy dtype" + supported);
  }
  const auto kind = nb::cast<std::string>(dtype.attr("kind"));
  const auto size = nb::cast<int>(dtype.attr("itemsize"));
  if (nb::cast<bool>(dtype.attr("isnative"))) {
    if (kind == "f" && size == 8) return Datatype::Float64;
    if (kind == "f" && size == 4) return Datatype::Float32;
    if (kind == "i" && size == 4) return Datatype::Int32;
    if (kind == "i" && size == 8) return Datatype::Int64;
  }
  throw Error(Errc::Arg, what + ": dtype " + nb::cast<std::string>(nb::str(dtype)) +
                             " is not supported" + supported);
}

nb::object numpy_dtype(Datatype type) {
  return nb::module_::import_("numpy").attr("dtype")(datatype_name(type));
}

nb::dlpack::dtype dlpack_dtype(Datatype type) {
  switch (type) {
    case Datatype::Float64:
      return nb::dtype<double>();
    case Datatype::Float32:
      return nb::dtype<float>();
    case Datatype::Int32:
      return nb::dtype<std::int32_t>();
    case Datatype::Int64:
      return nb::dtype<std::int64_t>();
  }
  throw Error(Errc::Internal, "dlpack_dtype: unknown ferry::Datatype " +
                                  std::to_string(static_cast<int>(type)) +
                                  ". This is a bug in ferry, please report it");
}

std::string dtype_name(nb::dlpack::dtype type) {
  using Code = nb::dlpack::dtype_code;
  const std::string bits = std::to_string(type.bits);
  switch (static_cast<Code>(type.code)) {
    case Code::Int:
      return "int" + bits;
    case Code::UInt:
      return "uint" + bits;
    case Code::Float:
      return "float" + bits;
    case Code::Complex:
      return "complex" + bits;
    case Code::Bool:
      return "bool";
    default:
      return "a non-NumPy type (DLPack code " + std::to_string(type.code) + ", " + bits + " bits)";
  }
}

}  // namespace ferry::python
