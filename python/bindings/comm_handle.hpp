// Communicators between Python and C: mpi4py objects, or ferry.FortranComm(handle), via py2f().
// Going through the Fortran handle needs no mpi4py headers at build time.
#pragma once

#include <mpi.h>
#include <nanobind/nanobind.h>

#include <string>

namespace ferry::python {

namespace nb = nanobind;

/// The MPI_Comm behind `comm`: any object with py2f() (an mpi4py communicator, or
/// ferry.FortranComm naming a Fortran handle). Not collective. Raises Errc::State when
/// MPI is not initialised (or already finalised), Errc::Arg for any other object, a
/// bare int included; `function` starts the message.
MPI_Comm comm_from_python(nb::handle comm, const std::string& function);

/// `comm` for Python code: an mpi4py.MPI.Intracomm viewing it when mpi4py can be
/// imported, else ferry.FortranComm(its Fortran handle). The caller keeps ownership.
nb::object comm_to_python(MPI_Comm comm);

}  // namespace ferry::python
