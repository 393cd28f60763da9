// pyoasis._oasis: the calls of OASIS's C API (oasis_c.h, over ferry_oasis.h) for the
// Python package pyoasis, whose classes (Component, partitions, Var, Grid) are Python.
// Every function returns the C call's status first (OASIS_Ok or OASIS_Error; the
// message is then in last_error()) and its results after it. Communicators are
// Fortran handles (mpi4py's py2f/f2py); arrays are NumPy arrays in Fortran order
// (first index fastest), passed without a copy.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "ferry_oasis.h"
#include "oasis_c.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace {

using Array = nb::ndarray<nb::f_contig, nb::device::cpu>;
using Doubles = nb::ndarray<const double, nb::f_contig, nb::device::cpu>;
using Ints = nb::ndarray<const std::int32_t, nb::f_contig, nb::device::cpu>;

// OASIS_Real for float32, OASIS_Double for float64, 0 for anything else.
int kind_of(const Array& field) {
  if (field.dtype() == nb::dtype<double>()) return OASIS_Double;
  if (field.dtype() == nb::dtype<float>()) return OASIS_Real;
  return 0;
}

// A field of `bundle` members as OASIS's (x, y = 1, bundle): x the points per member.
int points_of(const Array& field, int bundle) {
  return static_cast<int>(field.size() / static_cast<std::size_t>(bundle > 0 ? bundle : 1));
}

std::tuple<int, int> put(int var_id, int date, const Array& field, int bundle, bool write_restart) {
  int kinfo = 0;
  const int kind = kind_of(field);
  const int points = points_of(field, bundle);
  nb::gil_scoped_release unlocked;
  const int status = oasis_c_put(var_id, date, points, 1, bundle, kind, OASIS_COL_MAJOR,
                                 field.data(), write_restart, &kinfo);
  return {status, kinfo};
}

std::tuple<int, int> get(int var_id, int date, const Array& field, int bundle) {
  int kinfo = 0;
  const int kind = kind_of(field);
  const int points = points_of(field, bundle);
  nb::gil_scoped_release unlocked;
  const int status = oasis_c_get(var_id, date, points, 1, bundle, kind, OASIS_COL_MAJOR,
                                 field.data(), &kinfo);
  return {status, kinfo};
}

// A communicator of this component with component `other`: (status, Fortran handle).
std::tuple<int, int> comm_with(int (*make)(MPI_Fint*, const char*), const std::string& other) {
  MPI_Fint comm = 0;
  nb::gil_scoped_release unlocked;
  const int status = make(&comm, other.c_str());
  return {status, static_cast<int>(comm)};
}

// The local extent of grid data: (nx_loc, ny_loc) of a 1-, 2- or 3-D array (the
// third dimension: corners).
std::tuple<int, int> local_shape(std::size_t ndim, std::size_t s0, std::size_t s1) {
  return {static_cast<int>(s0), ndim > 1 ? static_cast<int>(s1) : 1};
}

template <class A>
std::tuple<int, int> shape_of(const A& a) {
  return local_shape(a.ndim(), a.shape(0), a.ndim() > 1 ? a.shape(1) : 1);
}

// Grid data of one kind (mask, frac, area, angle): one array, then the part and, for a
// mask or fraction, the companion grid.
template <class Write, class Values, class... Rest>
int write_values(Write write, const std::string& grid, int nx, int ny, const Values& values,
                 Rest... rest) {
  const auto [x, y] = shape_of(values);
  return write(grid.c_str(), nx, ny, x, y, values.data(), rest...);
}

}  // namespace

NB_MODULE(_oasis, m) {
  m.doc() = "OASIS3-MCT's calls over ferry's coupler, for the package pyoasis";
  m.def("last_error", [] { return std::string(ferry_oasis_last_error()); },
        "The message of the last call that failed on this process.");
  m.def(
      "init_comp",
      [](const std::string& name, bool coupled, MPI_Fint world) {
        int compid = 0;
        nb::gil_scoped_release unlocked;
        const int status = ferry_oasis_init_comp(&compid, name.c_str(), coupled ? 1 : 0, 1, world);
        return std::make_tuple(status, compid);
      },
      "name"_a, "coupled"_a, "world"_a);
  m.def("get_localcomm", [] {
    MPI_Fint comm = 0;
    const int status = ferry_oasis_get_localcomm(&comm);
    return std::make_tuple(status, static_cast<int>(comm));
  });
  m.def(
      "create_couplcomm",
      [](int icpl, MPI_Fint local) {
        MPI_Fint comm = 0;
        nb::gil_scoped_release unlocked;
        const int status = ferry_oasis_create_couplcomm(icpl, local, &comm);
        return std::make_tuple(status, static_cast<int>(comm));
      },
      "icpl"_a, "local"_a);
  m.def(
      "set_couplcomm",
      [](MPI_Fint comm) {
        nb::gil_scoped_release unlocked;
        return ferry_oasis_set_couplcomm(comm);
      },
      "comm"_a);
  m.def(
      "get_intracomm",
      [](const std::string& other) { return comm_with(&ferry_oasis_get_intracomm, other); },
      "other"_a);
  m.def(
      "get_multi_intracomm",
      [](const std::vector<std::string>& names) {
        std::vector<const char*> texts;
        for (const std::string& n : names) texts.push_back(n.c_str());
        std::vector<int> root_ranks(names.size());
        MPI_Fint comm = 0;
        nb::gil_scoped_release unlocked;
        const int status = ferry_oasis_get_multi_intracomm(&comm, static_cast<int>(names.size()),
                                                           texts.data(), root_ranks.data());
        return std::make_tuple(status, static_cast<int>(comm), root_ranks);
      },
      "names"_a);
  m.def(
      "get_intercomm",
      [](const std::string& other) { return comm_with(&ferry_oasis_get_intercomm, other); },
      "other"_a);
  m.def(
      "def_partition",
      [](const std::vector<int>& kparal, int global_size, const std::string& name) {
        int part_id = 0;
        const int status = oasis_c_def_partition(&part_id, static_cast<int>(kparal.size()),
                                                 kparal.data(), global_size, name.c_str());
        return std::make_tuple(status, part_id);
      },
      "kparal"_a, "global_size"_a, "name"_a,
      "ig_paral as OASIS 5's C API takes it: POINTS indices from 0.");
  m.def(
      "def_var",
      [](const std::string& name, int part_id, int bundle, int kinout) {
        int var_id = 0;
        const int status = oasis_c_def_var(&var_id, name.c_str(), part_id, bundle, kinout, OASIS_Double);
        return std::make_tuple(status, var_id);
      },
      "name"_a, "part_id"_a, "bundle"_a, "kinout"_a);
  m.def("enddef", [] {
    nb::gil_scoped_release unlocked;
    return oasis_c_enddef();
  });
  m.def("put", &put, "var_id"_a, "date"_a, "field"_a, "bundle"_a, "write_restart"_a,
        "field: float32 or float64, Fortran order, points x bundle values.");
  m.def("get", &get, "var_id"_a, "date"_a, "field"_a, "bundle"_a,
        "field: writable float32 or float64, Fortran order, points x bundle values.");
  m.def(
      "put_inquire",
      [](int var_id, int date) {
        int kinfo = 0;
        const int status = oasis_c_put_inquire(var_id, date, &kinfo);
        return std::make_tuple(status, kinfo);
      },
      "var_id"_a, "date"_a);
  m.def(
      "get_freqs",
      [](int var_id, int kinout) {
        int ncpl = 0;
        int status = oasis_c_get_ncpl(var_id, &ncpl);
        std::vector<int> freqs(static_cast<std::size_t>(ncpl > 0 ? ncpl : 0));
        if (status == OASIS_Ok && ncpl > 0)
          status = oasis_c_get_freqs(var_id, kinout, ncpl, freqs.data());
        return std::make_tuple(status, freqs);
      },
      "var_id"_a, "kinout"_a, "The coupling periods of the variable, one per namcouple entry.");
  m.def("get_debug", [] {
    int level = 0;
    const int status = oasis_c_get_debug(&level);
    return std::make_tuple(status, level);
  });
  m.def("set_debug", &oasis_c_set_debug, "level"_a);
  m.def("start_grids_writing", &oasis_c_start_grids_writing);
  m.def("terminate_grids_writing", &oasis_c_terminate_grids_writing);
  m.def(
      "write_grid",
      [](const std::string& grid, int nx, int ny, const Doubles& lon, const Doubles& lat,
         int part_id) {
        const auto [x, y] = shape_of(lon);
        return oasis_c_write_grid(grid.c_str(), nx, ny, x, y, lon.data(), lat.data(), part_id);
      },
      "grid"_a, "nx"_a, "ny"_a, "lon"_a, "lat"_a, "part_id"_a);
  m.def(
      "write_corner",
      [](const std::string& grid, int nx, int ny, const Doubles& clo, const Doubles& cla,
         int part_id) {
        const auto [x, y] = shape_of(clo);
        const int corners = clo.ndim() == 3 ? static_cast<int>(clo.shape(2)) : 1;
        return oasis_c_write_corner(grid.c_str(), nx, ny, corners, x, y, clo.data(), cla.data(),
                                    part_id);
      },
      "grid"_a, "nx"_a, "ny"_a, "clo"_a, "cla"_a, "part_id"_a,
      "clo, cla: (x, y, corners) in Fortran order.");
  m.def(
      "write_mask",
      [](const std::string& grid, int nx, int ny, const Ints& mask, int part_id,
         const std::string& companion) {
        return write_values(&oasis_c_write_mask, grid, nx, ny, mask, part_id, companion.c_str());
      },
      "grid"_a, "nx"_a, "ny"_a, "mask"_a, "part_id"_a, "companion"_a);
  m.def(
      "write_frac",
      [](const std::string& grid, int nx, int ny, const Doubles& frac, int part_id,
         const std::string& companion) {
        return write_values(&oasis_c_write_frac, grid, nx, ny, frac, part_id, companion.c_str());
      },
      "grid"_a, "nx"_a, "ny"_a, "frac"_a, "part_id"_a, "companion"_a);
  m.def(
      "write_area",
      [](const std::string& grid, int nx, int ny, const Doubles& area, int part_id) {
        return write_values(&oasis_c_write_area, grid, nx, ny, area, part_id);
      },
      "grid"_a, "nx"_a, "ny"_a, "area"_a, "part_id"_a);
  m.def(
      "write_angle",
      [](const std::string& grid, int nx, int ny, const Doubles& angle, int part_id) {
        return write_values(&oasis_c_write_angle, grid, nx, ny, angle, part_id);
      },
      "grid"_a, "nx"_a, "ny"_a, "angle"_a, "part_id"_a);
  m.def("terminate", [] {
    nb::gil_scoped_release unlocked;
    return oasis_c_terminate();
  });
  m.def(
      "abort",
      [](int compid, const std::string& routine, const std::string& message, int rcode) {
        ferry_oasis_abort(compid, routine.c_str(), message.c_str(), rcode);
      },
      "compid"_a, "routine"_a, "message"_a, "rcode"_a,
      "Ends every process of the coupled run (MPI_Abort), after the message.");
}
