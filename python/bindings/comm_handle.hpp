// Communicators between Python and C: mpi4py objects via py2f(), or Fortran handles.
// Going through the Fortran handle needs no mpi4py headers at build time.
#pragma once

#include <mpi.h>
#include <nanobind/nanobind.h>

#include <string>

namespace ferry::python {

namespace nb = nanobind;

/// The MPI_Comm behind `comm`: any object with py2f() (an mpi4py communicator) or an
/// int Fortran handle. Not collective. Raises Errc::State when MPI is not initialised
/// (or already finalised), Errc::Arg for any other object; `function` starts the message.
MPI_Comm comm_from_python(nb::handle comm, const std::string& function);

/// `comm` for Python code: an mpi4py.MPI.Intracomm viewing it when mpi4py can be
/// imported, else its Fortran handle (int). The caller keeps ownership.
nb::object comm_to_python(MPI_Comm comm);

}  // namespace ferry::python
