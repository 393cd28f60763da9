// ferry::Error becomes ferry.Error, a RuntimeError with .code (a ferry.Errc) and .rank,
// the way mpi4py's MPI.Exception carries its error class; so does an allocation that
// fails inside ferry (code NO_MEMORY).
#include <new>

#include "bindings/bindings.hpp"
#include "ferry/error.hpp"
#include "util/check.hpp"

namespace ferry::python {

namespace {

void raise(void* error_type, Errc code, const char* message, int rank) {
  const nb::handle type(static_cast<PyObject*>(error_type));
  try {
    nb::object error = type(message);
    error.attr("code") = code;
    error.attr("rank") = rank;
    PyErr_SetObject(type.ptr(), error.ptr());
  } catch (nb::python_error& failure) {
    failure.restore();
  }
}

void translate(const std::exception_ptr& exception, void* error_type) {
  try {
    std::rethrow_exception(exception);
  } catch (const Error& e) {
    raise(error_type, e.code(), e.what(), e.rank());
  } catch (const std::bad_alloc&) {
    // As the C API's FERRY_ERR_NO_MEMORY: a ferry.Error, not a bare MemoryError.
    raise(error_type, Errc::NoMemory, detail::kOutOfMemory, -1);
  }
}

}  // namespace

void bind_errors(nb::module_& m) {
  nb::enum_<Errc>(m, "Errc", nb::is_arithmetic(),
                  "Stable error codes, the same numbers as ferry::Errc and FERRY_ERR_*.")
      .value("SUCCESS", Errc::Success)
      .value("ARG", Errc::Arg, "an argument has a wrong value")
      .value("ARG_SIZE", Errc::ArgSize, "a size or count does not match")
      .value("ARG_RANGE", Errc::ArgRange, "an index or id lies outside its range")
      .value("DUPLICATE", Errc::Duplicate, "an id is owned by more than one source rank")
      .value("MISSING", Errc::Missing, "a destination id has no source")
      .value("OVERFLOW", Errc::Overflow, "a size or count does not fit its integer type")
      .value("STATE", Errc::State, "a call in the wrong order, or on a failed object")
      .value("MPI", Errc::Mpi, "the MPI library returned an error")
      .value("UNSUPPORTED", Errc::Unsupported, "not available in this build or MPI library")
      .value("NO_MEMORY", Errc::NoMemory, "an allocation failed")
      .value("IO", Errc::Io, "reading or writing a file failed")
      .value("INTERNAL", Errc::Internal, "a bug in ferry: please report it");

  PyObject* type = PyErr_NewExceptionWithDoc(
      "ferry.Error",
      "A failure reported by ferry. str(error) says what is wrong and how to fix it;\n"
      ".code is a ferry.Errc (the stable contract), .rank the rank that found the\n"
      "problem (-1 when not known).",
      PyExc_RuntimeError, nullptr);
  if (type == nullptr) throw nb::python_error();
  m.attr("Error") = nb::steal(type);
  nb::register_exception_translator(translate, type);
}

}  // namespace ferry::python
