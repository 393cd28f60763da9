#include "bindings/comm_handle.hpp"

#include <nanobind/stl/string.h>

#include "bindings/arguments.hpp"
#include "ferry/error.hpp"

namespace ferry::python {

MPI_Comm comm_from_python(nb::handle comm, const std::string& function) {
  int initialized = 0;
  int finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized)
    throw Error(Errc::State, function +
                                 ": MPI is not initialised (or already finalised). Import "
                                 "mpi4py.MPI before using ferry, and destroy ferry objects first");
  // Any int would pass for a Fortran handle: one must be named as such.
  if (PyLong_Check(comm.ptr()))
    throw Error(Errc::Arg, function + ": got " + repr_text(comm) +
                               " as the communicator; pass an mpi4py communicator, or a Fortran "
                               "handle named as such: ferry.FortranComm(" + repr_text(comm) +
                               ")");
  if (!nb::hasattr(comm, "py2f"))
    throw Error(Errc::Arg, function +
                               ": the communicator must be an mpi4py communicator (an object "
                               "with py2f()) or ferry.FortranComm(handle); got a " +
                               nb::cast<std::string>(nb::inst_name(comm)));
  const nb::object handle = comm.attr("py2f")();
  MPI_Fint fortran = 0;
  if (!nb::try_cast(handle, fortran, false))
    throw Error(Errc::Arg, function + ": " + repr_text(handle) +
                               " is not a Fortran communicator handle");
  return MPI_Comm_f2c(fortran);
}

nb::object comm_to_python(MPI_Comm comm) {
  const MPI_Fint handle = MPI_Comm_c2f(comm);
  try {
    return nb::module_::import_("mpi4py.MPI").attr("Intracomm").attr("f2py")(handle);
  } catch (nb::python_error& e) {
    if (!e.matches(PyExc_ImportError)) throw;
    return nb::module_::import_("ferry").attr("FortranComm")(handle);
  }
}

}  // namespace ferry::python
