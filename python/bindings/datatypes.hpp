// NumPy dtypes and ferry::Datatype: how Python names the element type of a field.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <string>

#include "ferry/datatype.hpp"

namespace ferry::python {

namespace nb = nanobind;

/// The ferry type of a dtype-like object: numpy.float64, "float32", numpy.dtype("int32"), ...
/// Raises Errc::Arg, naming `what`, for anything else (only native byte order is accepted).
Datatype datatype_from_python(nb::handle dtype_like, const std::string& what);

/// The numpy.dtype object of a ferry type.
nb::object numpy_dtype(Datatype type);

/// The DLPack description of a ferry type, to compare with an array's element type.
nb::dlpack::dtype dlpack_dtype(Datatype type);

/// NumPy's name for an array element type: "float64", "uint8", "complex128", "bool", ...
std::string dtype_name(nb::dlpack::dtype type);

}  // namespace ferry::python
