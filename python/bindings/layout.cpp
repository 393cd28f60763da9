// ferry.Layout: the constructors of ferry::Layout, and its ids as a NumPy view.
#include "ferry/layout.hpp"

#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <utility>
#include <vector>

#include "bindings/bindings.hpp"

namespace ferry::python {

using namespace nb::literals;

void bind_layout(nb::module_& m) {
  nb::class_<Layout>(m, "Layout",
                     "The global ids (0 .. global_size-1) one rank holds, in its storage order.\n"
                     "Build it on every rank of a group with the same arguments and that rank's\n"
                     "part; a rank outside the group passes Layout.none(global_size). Not\n"
                     "collective: the ids are checked when an Exchange is built.")
      .def_static("block", &Layout::block, "global_size"_a, "parts"_a, "part"_a,
                  "1-D blocks: part p holds a contiguous run of ids.")
      .def_static("box", &Layout::box, "nx"_a, "ny"_a, "px"_a, "py"_a, "part"_a,
                  "An nx x ny grid (id = j*nx + i) cut into px x py rectangular blocks;\n"
                  "part = block_j*px + block_i.")
      .def_static("orange", &Layout::orange, "nx"_a, "ny"_a, "parts"_a, "part"_a,
                  "Latitude bands: the ny rows of an nx x ny grid in `parts` bands of whole rows.")
      .def_static("round_robin", &Layout::round_robin, "global_size"_a, "parts"_a, "part"_a,
                  "Ids dealt cyclically: part p holds p, p + parts, p + 2*parts, ...")
      .def_static(
          "points",
          [](std::int64_t global_size,
             nb::ndarray<const std::int64_t, nb::ndim<1>, nb::c_contig> ids) {
            return Layout::points(global_size,
                                  std::vector<std::int64_t>(ids.data(), ids.data() + ids.shape(0)));
          },
          // No implicit conversion: it would truncate a float array silently.
          "global_size"_a, "ids"_a.noconvert(),
          "An explicit list of ids (a 1-D int64 array), in the order this rank stores\n"
          "them. The ids are copied.")
      .def_static(
          "points",
          [](std::int64_t global_size, std::vector<std::int64_t> ids) {
            return Layout::points(global_size, std::move(ids));
          },
          "global_size"_a, "ids"_a,
          "An explicit list of ids (a sequence of integers, such as a list or an int32 array).")
      .def_static("random", &Layout::random, "global_size"_a, "parts"_a, "part"_a, "seed"_a,
                  "For tests: ids dealt to parts by a seeded hash, in a seeded random order.")
      .def_static("none", &Layout::none, "global_size"_a,
                  "This rank is not a member of the group: it holds nothing.")
      .def_prop_ro("global_size", &Layout::global_size, "Size N of the index space.")
      .def_prop_ro("local_size", &Layout::local_size, "Number of ids this rank holds.")
      .def_prop_ro("member", &Layout::member, "False for Layout.none().")
      .def_prop_ro(
          "ids",
          [](const Layout& layout) {
            return nb::ndarray<nb::numpy, const std::int64_t, nb::ndim<1>>(layout.ids().data(),
                                                                           {layout.ids().size()});
          },
          nb::rv_policy::reference_internal,
          "The ids this rank holds, in order: a read-only int64 NumPy view of the\n"
          "layout's own storage (no copy), valid while the layout lives.")
      .def("__len__", &Layout::local_size, "Number of ids this rank holds (local_size).")
      .def("__repr__", [](const Layout& layout) {
        return "Layout(global_size=" + std::to_string(layout.global_size()) +
               ", local_size=" + std::to_string(layout.local_size()) +
               (layout.member() ? "" : ", member=False") + ")";
      });
}

}  // namespace ferry::python
