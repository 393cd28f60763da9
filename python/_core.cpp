// ferry._core: the nanobind module behind the Python package ferry. Each part is
// bound in its own file under bindings/; this file assembles them.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings/bindings.hpp"
#include "ferry/config.hpp"
#include "ferry/engine.hpp"

NB_MODULE(_core, m) {
  namespace nb = nanobind;
  namespace py = ferry::python;
  m.doc() = "ferry's C++ library, bound with nanobind; import ferry rather than this module.";
  m.attr("__version__") = FERRY_VERSION_STRING;
  py::bind_errors(m);
  m.def("engine_names", &ferry::engine_names,
        "Names of the engines of this build, in registration order.");
  m.def("disabled_engines", &ferry::disabled_engines,
        "Built-in engines this build could not offer, each with the reason.");
  py::bind_layout(m);
  py::bind_exchange(m);
  py::bind_coupler(m);
  py::bind_buffer(m);
  py::bind_halo(m);
  py::bind_conservation(m);  // before Remap, whose src_points are GridPointData
  py::bind_regrid(m);
  py::bind_collectives(m);
}
