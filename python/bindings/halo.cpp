// ferry.Halo, ferry.CellGraph, ferry.GeodesicMesh and ferry.partition_cells: ghost
// cells of an unstructured mesh with NumPy arrays. A field's array has shape
// (local_count, *components): owned cells first, then the ghosts, ring by ring.
//
// Argument errors of the collective construction are agreed over the communicator;
// execute() checks its arrays on each rank, as Exchange.execute does.
#include "ferry/halo.hpp"

#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "bindings/bindings.hpp"
#include "bindings/lifetime.hpp"
#include "bindings/comm_handle.hpp"
#include "bindings/datatypes.hpp"
#include "bindings/describe.hpp"
#include "bindings/engine_options.hpp"
#include "bindings/fields.hpp"
#include "bindings/nd_arrays.hpp"
#include "ferry/cell_partition.hpp"
#include "ferry/comm.hpp"
#include "ferry/error.hpp"
#include "ferry/geodesic_mesh.hpp"
#include "util/agree.hpp"

namespace ferry::python {

using namespace nb::literals;

namespace {

using Ids = std::vector<std::int64_t>;

using IdView = nb::ndarray<nb::numpy, const std::int64_t, nb::ndim<1>>;

// A read-only NumPy view of ids the bound object holds (bound with reference_internal,
// so the view keeps the object alive).
IdView view(const Ids& values) { return IdView(values.data(), {values.size()}); }

// Global ids from Python: a 1-D integer array or a sequence of integers (copied).
Ids ids_from_python(nb::handle values, const std::string& what) {
  nb::ndarray<const std::int64_t, nb::ndim<1>, nb::c_contig> array;
  if (nb::try_cast(values, array, false)) return Ids(array.data(), array.data() + array.shape(0));
  if (is_sequence(values) || nb::hasattr(values, "tolist")) {
    const nb::object list =
        nb::hasattr(values, "tolist") ? values.attr("tolist")() : nb::borrow(values);
    if (is_sequence(list)) return indices_from_python(list, what);
  }
  throw Error(Errc::Arg, what + " must be a 1-D integer array or a sequence of integers; got " +
                             nb::cast<std::string>(nb::inst_name(values)));
}

// One field of a halo: its element type and the shape of the values of one cell.
struct HaloField {
  Datatype type = Datatype::Float64;
  Ids shape;  // () for one value per cell, (levels,), (levels, bins), ...
};

// A field is a dtype-like, or (dtype-like, components) with components an int or a
// tuple of ints (levels, bins).
HaloField halo_field(nb::handle field, std::size_t index) {
  const std::string what = "Halo: field " + std::to_string(index);
  if (!is_sequence(field)) return {datatype_from_python(field, what), {}};
  if (nb::len(field) != 2)
    throw Error(Errc::Arg, what + ": expected dtype or (dtype, components); got " +
                               nb::cast<std::string>(nb::repr(field)));
  const nb::object components = field[1];
  Ids shape = is_sequence(components) ? indices_from_python(components, what + ": components")
                                      : Ids{index_from_python(components, what + ": components")};
  for (const auto extent : shape)
    if (extent < 1)
      throw Error(Errc::Arg, what + ": components must be >= 1; got " +
                                 nb::cast<std::string>(nb::repr(components)));
  return {datatype_from_python(field[0], what), std::move(shape)};
}

std::vector<HaloField> halo_fields(nb::handle fields) {
  if (fields.is_none()) return {HaloField{}};
  if (!is_sequence(fields)) return {halo_field(fields, 0)};
  std::vector<HaloField> result;
  for (nb::handle field : fields) result.push_back(halo_field(field, result.size()));
  return result;
}

PartitionMethod partition_method(const std::string& name) {
  for (const auto method :
       {PartitionMethod::Block, PartitionMethod::Random, PartitionMethod::Metis})
    if (name == partition_method_name(method)) return method;
  throw Error(Errc::Arg, "partition_cells: method \"" + name +
                             "\" is unknown; use \"block\", \"random\" or \"metis\"");
}

CellGraph make_cell_graph(std::int64_t global_cells, nb::handle cells, nb::handle offsets,
                          nb::handle neighbours) {
  return CellGraph{global_cells, ids_from_python(cells, "CellGraph: cells"),
                   ids_from_python(offsets, "CellGraph: offsets"),
                   ids_from_python(neighbours, "CellGraph: neighbours")};
}

class HaloBinding {
 public:
  HaloBinding(nb::handle comm, nb::handle graph, int depth, nb::handle fields,
              const std::string& engine, const nb::dict& options) {
    const Comm c = Comm::view(comm_from_python(comm, "Halo"));
    HaloOptions halo_options;
    const CellGraph* cell_graph = nullptr;
    detail::agree_on(c, [&] {
      if (!nb::try_cast(graph, cell_graph, false) || cell_graph == nullptr)
        throw Error(Errc::Arg, "Halo: graph must be a ferry.CellGraph; got " +
                                   nb::cast<std::string>(nb::inst_name(graph)));
      fields_ = halo_fields(fields);
      halo_options.engine_options = engine_options(options, "Halo");
    });
    halo_options.depth = depth;
    halo_options.engine = engine;
    halo_options.fields.clear();
    for (const HaloField& f : fields_) {
      std::int64_t components = 1;
      for (const auto extent : f.shape) components *= extent;
      halo_options.fields.push_back({f.type, static_cast<int>(components)});
    }
    nb::gil_scoped_release unlocked;
    halo_ = std::make_unique<Halo>(c.get(), *cell_graph, halo_options);
  }

  void execute(nb::handle arrays, nb::handle mask) {
    Fields f = field_pointers("Halo.execute", arrays, mask);
    nb::gil_scoped_release unlocked;
    halo_->execute(f.data.data(), f.mask.data());
  }

  void begin(nb::handle arrays, nb::handle mask) {
    Fields f = field_pointers("Halo.begin", arrays, mask);
    {
      nb::gil_scoped_release unlocked;
      halo_->begin(f.data.data(), f.mask.data());
    }
    in_flight_ = nb::borrow(arrays);  // the engine uses them until end()
  }

  void end() {
    const nb::object arrays = std::move(in_flight_);  // released after end()
    nb::gil_scoped_release unlocked;
    halo_->end();
  }

  nb::object empty(std::size_t field) const {
    const HaloField& f = field_at(field, "Halo.empty");
    nb::list shape;
    shape.append(halo_->local_count());
    for (const auto extent : f.shape) shape.append(extent);
    return nb::module_::import_("numpy").attr("empty")(nb::tuple(shape), numpy_dtype(f.type));
  }

  const Halo& halo() const { return *halo_; }

  void close() {
    nb::gil_scoped_release unlocked;
    halo_->close();
  }

 private:
  struct Fields {
    std::vector<void*> data;
    std::vector<std::uint8_t> mask;
  };

  const HaloField& field_at(std::size_t field, const std::string& function) const {
    if (field >= fields_.size())
      throw Error(Errc::ArgRange, function + ": field " + std::to_string(field) +
                                      " does not exist; the halo has " +
                                      std::to_string(fields_.size()) + " fields");
    return fields_[field];
  }

  Fields field_pointers(const std::string& function, nb::handle arrays, nb::handle mask) const {
    const std::size_t n = fields_.size();
    const int rank = halo_->exchange().plan().rank();
    const std::string on_rank = " on rank " + std::to_string(rank);
    std::vector<nb::handle> given;
    if (is_sequence(arrays)) {
      for (nb::handle a : arrays) given.push_back(a);
    } else {
      given.push_back(arrays);
    }
    if (given.size() != n)
      throw Error(Errc::ArgSize,
                  function + ": got " + std::to_string(given.size()) + " arrays" + on_rank +
                      ", expected " + std::to_string(n) + " (one per field; a list for several)",
                  rank);
    Fields f{std::vector<void*>(n, nullptr), std::vector<std::uint8_t>(n, 1)};
    if (!mask.is_none()) {
      if (nb::len(mask) != n)
        throw Error(Errc::ArgSize,
                    function + ": the mask has " + std::to_string(nb::len(mask)) + " entries" +
                        on_rank + ", expected " + std::to_string(n) + " (one per field)",
                    rank);
      std::size_t i = 0;
      for (nb::handle selected : mask) f.mask[i++] = nb::cast<bool>(selected) ? 1 : 0;
    }
    // Every field, even one the mask skips: the halo computes where its ghosts start.
    for (std::size_t i = 0; i < n; ++i) {
      Ids shape{halo_->local_count()};
      shape.insert(shape.end(), fields_[i].shape.begin(), fields_[i].shape.end());
      f.data[i] = writable_array(given[i], {fields_[i].type, shape},
                                 function + ": field " + std::to_string(i) + on_rank);
    }
    return f;
  }

  std::vector<HaloField> fields_;
  std::unique_ptr<Halo> halo_;
  nb::object in_flight_;  // the arrays of a begin() not yet ended
};

}  // namespace

void bind_halo(nb::module_& m) {
  nb::class_<CellGraph>(m, "CellGraph",
                        "One rank's part of an unstructured mesh: the cells it owns (global\n"
                        "ids, in its storage order) and, in CSR form, their neighbours: cell\n"
                        "cells[i]'s neighbours are neighbours[offsets[i]:offsets[i+1]]. The\n"
                        "arrays are copied. Not collective.")
      .def("__init__",
           [](CellGraph* self, std::int64_t global_cells, nb::handle cells, nb::handle offsets,
              nb::handle neighbours) {
             new (self) CellGraph(make_cell_graph(global_cells, cells, offsets, neighbours));
           },
           "global_cells"_a, "cells"_a, "offsets"_a, "neighbours"_a)
      .def_ro("global_cells", &CellGraph::global_cells)
      .def_prop_ro("cells", [](const CellGraph& g) { return view(g.cells); },
                   nb::rv_policy::reference_internal)
      .def_prop_ro("offsets", [](const CellGraph& g) { return view(g.offsets); },
                   nb::rv_policy::reference_internal)
      .def_prop_ro("neighbours", [](const CellGraph& g) { return view(g.neighbours); },
                   nb::rv_policy::reference_internal);

  auto halo = nb::class_<HaloBinding>(
      m, "Halo",
      "Ghost cells of an unstructured mesh, filled from their owners.\n\n"
      "Collective over `comm` (duplicated): each rank passes its CellGraph; `depth`\n"
      "ghost rings; `fields` a list of dtypes or (dtype, components) pairs, components\n"
      "an int or a tuple such as (levels, bins) (default: one float64 value per cell);\n"
      "`engine` and `options` as for Exchange. A field's array has shape\n"
      "(local_count, *components): the owned cells in the graph's order, then ring 1,\n"
      "ring 2, ... (each by ascending global id). Raises ferry.Error, the same on\n"
      "every rank. close() (or the end of a `with` block) frees it collectively, as\n"
      "for Exchange.")
      .def(nb::init<nb::handle, nb::handle, int, nb::handle, const std::string&, const nb::dict&>(),
           "comm"_a, "graph"_a, "depth"_a = 1, "fields"_a.none() = nb::none(),
           "engine"_a = "default", "options"_a = nb::dict())
      .def("execute", &HaloBinding::execute, "arrays"_a, "mask"_a.none() = nb::none(),
           "Collective: copies every owned value into every ghost copy of it, in place. One\n"
           "array per field (a list, or the array itself for one field), of shape\n"
           "(local_count, *components); `mask` (one bool per field) selects the fields\n"
           "that move, but every field needs its array.")
      .def("begin", &HaloBinding::begin, "arrays"_a, "mask"_a.none() = nb::none(),
           "Collective, non-blocking: starts execute(); until end(), read the owned part\n"
           "only and leave the ghosts alone.")
      .def("end", &HaloBinding::end, "Collective: completes begin().")
      .def("empty", &HaloBinding::empty, "field"_a = 0,
           "numpy.empty((local_count, *components), dtype) for field `field`.")
      .def("__repr__",
           [](nb::handle self) {
             return described(self, "Halo",
                              {"engine_name", "depth", "owned_count", "ghost_count"});
           })
      .def_prop_ro("depth", [](const HaloBinding& h) { return h.halo().depth(); })
      .def_prop_ro("owned_count", [](const HaloBinding& h) { return h.halo().owned_count(); })
      .def_prop_ro("ghost_count", [](const HaloBinding& h) { return h.halo().ghost_count(); })
      .def_prop_ro("local_count", [](const HaloBinding& h) { return h.halo().local_count(); },
                   "Owned plus ghost cells: the first extent of a field's array.")
      .def("ring_end", [](const HaloBinding& h, int ring) { return h.halo().ring_end(ring); },
           "ring"_a, "Local cells within `ring` steps of the owned ones: [0, ring_end(ring)).")
      .def_prop_ro(
          "cells", [](const HaloBinding& h) { return view(h.halo().cells()); },
          nb::rv_policy::reference_internal,
          "Global ids of the local cells, in storage order (a read-only int64 view).")
      .def_prop_ro(
          "neighbour_offsets",
          [](const HaloBinding& h) { return view(h.halo().neighbour_offsets()); },
          nb::rv_policy::reference_internal)
      .def_prop_ro(
          "neighbours", [](const HaloBinding& h) { return view(h.halo().neighbours()); },
          nb::rv_policy::reference_internal,
          "Local indices of the neighbours of the cells [0, ring_end(depth - 1)), in CSR form\n"
          "with neighbour_offsets.")
      .def_prop_ro("engine_name",
                   [](const HaloBinding& h) { return h.halo().exchange().engine_name(); })
      .def("close", &HaloBinding::close,
           "Collective, idempotent: frees what only every rank together can free; afterwards\n"
           "only the properties work. Does nothing collective after a failure.");
  add_context_manager(halo, [](HaloBinding& h) { h.close(); });

  nb::class_<GeodesicMesh>(
      m, "GeodesicMesh",
      "A test mesh: the Voronoi dual of an icosahedron with edges cut into `frequency`\n"
      "parts, 10 f^2 + 2 cells on the unit sphere (12 pentagons, the rest hexagons). The\n"
      "whole mesh lives on this rank. Not collective.")
      .def(nb::init<int>(), "frequency"_a)
      .def_static("frequency_for", &GeodesicMesh::frequency_for, "cells"_a,
                  "The frequency whose mesh has the cell count closest to `cells`.")
      .def_prop_ro("frequency", &GeodesicMesh::frequency)
      .def_prop_ro("cell_count", &GeodesicMesh::cell_count)
      .def_prop_ro("offsets", [](const GeodesicMesh& mesh) { return view(mesh.offsets()); },
                   nb::rv_policy::reference_internal)
      .def_prop_ro(
          "neighbours", [](const GeodesicMesh& mesh) { return view(mesh.neighbours()); },
          nb::rv_policy::reference_internal,
          "Cells-on-cell in CSR form with offsets, counterclockwise.")
      .def_prop_ro(
          "centres",
          [](const GeodesicMesh& mesh) {
            nb::object xyz = nb::module_::import_("numpy").attr("empty")(
                nb::make_tuple(mesh.cell_count(), 3));
            auto out = nb::cast<nb::ndarray<double, nb::ndim<2>, nb::c_contig>>(xyz);
            for (std::int64_t c = 0; c < mesh.cell_count(); ++c)
              for (int k = 0; k < 3; ++k) out(c, k) = mesh.centre(c)[k];
            return xyz;
          },
          "Cell centres, unit vectors: a (cell_count, 3) float64 array.")
      .def("cell_graph", &GeodesicMesh::cell_graph, "owner"_a, "rank"_a,
           "The CellGraph of `rank` under the partition `owner` (owner[c]: the rank of cell c).");

  m.def(
      "partition_cells",
      [](nb::handle offsets, nb::handle neighbours, int parts, const std::string& method,
         std::uint64_t seed) {
        const std::vector<int> owner =
            partition_cells(ids_from_python(offsets, "partition_cells: offsets"),
                            ids_from_python(neighbours, "partition_cells: neighbours"), parts,
                            partition_method(method), seed);
        return nb::module_::import_("numpy").attr("array")(nb::cast(owner), "dtype"_a = "int32");
      },
      "offsets"_a, "neighbours"_a, "parts"_a, "method"_a = "block", "seed"_a = 0,
      "The owner (0 .. parts-1) of each cell of a CSR graph, an int32 array: method\n"
      "\"block\", \"random\" or \"metis\" (in builds with METIS). The same on every rank.\n"
      "Not collective.");
}

}  // namespace ferry::python
