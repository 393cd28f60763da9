// ferry.Coupler: a ferry::Coupler whose put and get take NumPy arrays, checked
// against the declared field (type, points, bundle) and read or written in place;
// the time-series buffers of the configuration load and read NumPy arrays the same way.
#include "ferry/coupler.hpp"

#include <nanobind/stl/filesystem.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/variant.h>
#include <nanobind/stl/vector.h>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "bindings/bindings.hpp"
#include "bindings/buffers.hpp"
#include "bindings/comm_handle.hpp"
#include "bindings/datatypes.hpp"
#include "bindings/lifetime.hpp"
#include "bindings/nd_arrays.hpp"
#include "ferry/error.hpp"

namespace ferry::python {

using namespace nb::literals;

namespace {

using Components = std::variant<std::string, std::vector<std::string>>;
using Direction = std::variant<FieldDirection, std::string>;

FieldDirection field_direction(const Direction& direction) {
  if (const auto* d = std::get_if<FieldDirection>(&direction)) return *d;
  const std::string& text = std::get<std::string>(direction);
  if (text == "out") return FieldDirection::Out;
  if (text == "in") return FieldDirection::In;
  throw Error(Errc::Arg,
              "Coupler.def_field: direction \"" + text +
                  "\" is unknown; use \"out\" (put) or \"in\" (get), or ferry.FieldDirection");
}

std::vector<std::string> component_names(const Components& components) {
  if (const auto* one = std::get_if<std::string>(&components)) return {*one};
  return std::get<std::vector<std::string>>(components);
}

class CouplerBinding {
 public:
  CouplerBinding(nb::handle comm, const Components& components, const std::filesystem::path& config)
      : CouplerBinding(comm_from_python(comm, "Coupler"), component_names(components),
                       config.string()) {}

  nb::object local_comm(const std::string& component) const {
    return comm_to_python(coupler_->local_comm(component));
  }

  GridId def_grid(const std::string& component, const std::string& name, std::int64_t nx,
                  std::int64_t ny) {
    return coupler_->def_grid(component, name, nx, ny);
  }

  PartitionId def_partition(GridId grid, const std::string& name, const Layout& layout) {
    return coupler_->def_partition(grid, name, layout);
  }

  void set_coordinates(PartitionId partition, nb::handle lon, nb::handle lat) {
    const char* function = "Coupler.set_coordinates";
    const double* lon_values = point_values<double>(partition, lon, 1, function, "lon");
    coupler_->set_coordinates(partition, lon_values,
                              point_values<double>(partition, lat, 1, function, "lat"));
  }

  void set_corners(PartitionId partition, int ncorner, nb::handle lon, nb::handle lat) {
    const char* function = "Coupler.set_corners";
    if (ncorner < 1) return coupler_->set_corners(partition, ncorner, nullptr, nullptr);  // raises
    const double* lon_values = point_values<double>(partition, lon, ncorner, function, "lon");
    coupler_->set_corners(partition, ncorner, lon_values,
                          point_values<double>(partition, lat, ncorner, function, "lat"));
  }

  void set_areas(PartitionId partition, nb::handle area) {
    coupler_->set_areas(partition,
                        point_values<double>(partition, area, 1, "Coupler.set_areas", "area"));
  }

  void set_mask(PartitionId partition, nb::handle mask) {
    coupler_->set_mask(partition,
                       point_values<std::int32_t>(partition, mask, 1, "Coupler.set_mask", "mask"));
  }

  std::int64_t partition_points(PartitionId partition) const {
    return coupler_->partition_points(partition);
  }

  FieldId def_field(PartitionId partition, const std::string& name, const Direction& direction,
                    nb::handle dtype, int bundle) {
    const Datatype type = datatype_from_python(dtype, "Coupler.def_field: field \"" + name + "\"");
    const FieldId id =
        coupler_->def_field(partition, name, field_direction(direction), type, bundle);
    declared_[id.value] = {name, bundle};
    return id;
  }

  std::int64_t field_values(FieldId field) const { return coupler_->field_values(field); }

  void enddef() {
    nb::gil_scoped_release unlocked;
    coupler_->enddef();
  }

  CouplingStatus put(FieldId field, double time, nb::handle values) {
    const Buffer b = buffer(field, "Coupler.put");
    const void* data = readable_buffer(values, b.spec, b.context);
    nb::gil_scoped_release unlocked;
    return static_cast<CouplingStatus>(coupler_->put(field, time, data));
  }

  CouplingStatus get(FieldId field, double time, nb::handle out) {
    const Buffer b = buffer(field, "Coupler.get");
    void* data = writable_buffer(out, b.spec, b.context);
    nb::gil_scoped_release unlocked;
    return static_cast<CouplingStatus>(coupler_->get(field, time, data));
  }

  void load(const std::string& buffer, nb::handle values, std::int64_t step) {
    const std::int64_t points = coupler_->buffer_values(buffer);  // Errc::Arg if unknown
    const void* data = nullptr;
    // A rank without values of the buffer passes none: the library tells a rank that
    // does not load the buffer.
    if (points > 0)
      data = readable_buffer(
          values, {coupler_->buffer_type(buffer), points, 1, "values"},
          {"Coupler.load: the array for buffer \"" + buffer + "\"", rank_,
           "Size it with Coupler.buffer_values (this rank's points of the buffer's field)"});
    nb::gil_scoped_release unlocked;
    coupler_->load(buffer, data, step);
  }

  // Collective over the reading ranks, so a bad argument on this rank still enters
  // the read (without an array): every reading rank then fails alike.
  nb::tuple read(const std::string& buffer, nb::handle out) {
    const std::int64_t points = coupler_->buffer_values(buffer);  // Errc::Arg if unknown
    const Datatype type = coupler_->buffer_type(buffer);
    nb::object steps_array = nb::none();
    std::int64_t max_steps = 0;
    void* data = nullptr;
    std::optional<Error> problem;
    try {
      // An array has a shape of at least one extent; NumPy integers have shape () too.
      const bool is_array =
          nb::hasattr(out, "shape") && nb::len(nb::object(out.attr("shape"))) > 0;
      if (is_array) {
        steps_array = nb::borrow(out);
        max_steps = nb::cast<std::int64_t>(out.attr("shape")[0]);
      } else {
        max_steps = index_from_python(out, "Coupler.read: max_steps (or the output array)");
        if (max_steps >= 1)
          steps_array = nb::module_::import_("numpy").attr("empty")(
              nb::make_tuple(max_steps, points), numpy_dtype(type));
      }
      if (points > 0 && !steps_array.is_none())
        data = writable_array(steps_array, {type, {-1, points}},
                              "Coupler.read: the output array of buffer \"" + buffer +
                                  "\" on rank " + std::to_string(rank_));
    } catch (const Error& e) {
      problem = e;
    }
    ReadResult result;
    {
      nb::gil_scoped_release unlocked;
      if (!problem) {
        result = coupler_->read(buffer, data, max_steps);
      } else {
        try {
          coupler_->read(buffer, nullptr, max_steps);  // fails on every reading rank
        } catch (const Error&) {
        }
      }
    }
    if (problem) throw *problem;
    return nb::make_tuple(steps_array[nb::slice(result.n_steps)], result.first_step,
                          result.lost_steps);
  }

  nb::object read_steps(const std::string& buffer) {
    return nb::module_::import_("numpy").attr("array")(nb::cast(coupler_->read_steps(buffer)),
                                                       "dtype"_a = "int64");
  }

  std::int64_t buffer_values(const std::string& buffer) const {
    return coupler_->buffer_values(buffer);
  }

  void finalize() {
    nb::gil_scoped_release unlocked;
    coupler_->finalize();
  }

  std::string repr() const {
    std::string names;
    for (const auto& name : components_) names += (names.empty() ? "'" : ", '") + name + "'";
    return "Coupler(components=[" + names + "], config='" + config_ + "')";
  }

  void close() {
    nb::gil_scoped_release unlocked;
    coupler_->close();
  }

  void abandon(const std::string& reason) { coupler_->abandon(reason); }

 private:
  struct Declared {
    std::string name;
    int bundle = 1;
  };
  struct Buffer {
    BufferSpec spec;
    BufferContext context;
  };

  CouplerBinding(MPI_Comm comm, const std::vector<std::string>& components,
                 const std::string& config)
      : components_(components), config_(config) {
    {
      nb::gil_scoped_release unlocked;  // collective: other Python threads may run meanwhile
      coupler_ = std::make_unique<Coupler>(comm, components, config);
    }
    // After the coupler has checked `comm` (MPI_COMM_NULL would make MPI_Comm_rank fail).
    MPI_Comm_rank(comm, &rank_);
  }

  // The values of grid metadata array `what`: `per_point` values of `type` for each of
  // this rank's points of the partition, as an array of shape (points,) or (points, per_point).
  template <class T>
  const T* point_values(PartitionId partition, nb::handle array, int per_point,
                        const std::string& function, const char* what) const {
    const std::int64_t points = coupler_->partition_points(partition);  // Errc::Arg if unknown
    const Datatype type = std::is_same_v<T, double> ? Datatype::Float64 : Datatype::Int32;
    return static_cast<const T*>(
        readable_buffer(array, {type, points, per_point, "corners"},
                        {function + ": " + what, rank_,
                         "Size it with Coupler.partition_points (the layout's local size)"}));
  }

  // What a put or get of `field` reads or writes: points x bundle values of the field's type.
  Buffer buffer(FieldId field, const std::string& function) const {
    const std::int64_t values = coupler_->field_values(field);  // Errc::Arg for an unknown field
    const Declared& d = declared_.at(field.value);
    return {{coupler_->field_type(field), values / d.bundle, d.bundle, "bundle members"},
            {function + ": field \"" + d.name + "\"", rank_,
             "Size it from the partition's layout (Layout.local_size points)"}};
  }

  std::unique_ptr<Coupler> coupler_;
  std::vector<std::string> components_;  // this rank's, for repr
  std::string config_;
  int rank_ = -1;
  std::map<int, Declared> declared_;  // by FieldId, as def_field declared them
};

}  // namespace

void bind_coupler(nb::module_& m) {
  nb::enum_<FieldDirection>(m, "FieldDirection",
                            "Direction of a field, seen by the component that declares it.")
      .value("OUT", FieldDirection::Out, "the component puts it")
      .value("IN", FieldDirection::In, "the component gets it");

  nb::enum_<CouplingStatus>(m, "Status", nb::is_flag(), "What a put or get did (bit flags).")
      .value("NOTHING", kStatusNothing, "not a coupling time: nothing moved or accumulated")
      .value("TRANSFORMED", kStatusTransformed, "put: the values fed the time transform only")
      .value("SENT", kStatusSent, "put: the period's value was sent (or stored for the restart)")
      .value("TO_RESTART", kStatusToRestart, "put (with SENT): kept for the restart file")
      .value("WAIT_GROUP", kStatusWaitGroup,
             "put (with SENT): the entry's other fields are not put yet")
      .value("RECEIVED", kStatusReceived, "get: values received")
      .value("FROM_RESTART", kStatusFromRestart, "get: a lagged value put before the run started")
      .value("OUTPUT", kStatusOutput, "the values were also written to the output file");

  nb::class_<GridId>(m, "GridId", "A grid declared by Coupler.def_grid.")
      .def_ro("value", &GridId::value)
      .def("__repr__", [](const GridId& id) { return "GridId(" + std::to_string(id.value) + ")"; });
  nb::class_<PartitionId>(m, "PartitionId", "A partition declared by Coupler.def_partition.")
      .def_ro("value", &PartitionId::value)
      .def("__repr__",
           [](const PartitionId& id) { return "PartitionId(" + std::to_string(id.value) + ")"; });
  nb::class_<FieldId>(m, "FieldId", "A field declared by Coupler.def_field.")
      .def_ro("value", &FieldId::value)
      .def("__repr__",
           [](const FieldId& id) { return "FieldId(" + std::to_string(id.value) + ")"; });

  auto coupler = nb::class_<CouplerBinding>(
      m, "Coupler",
      "A coupled run seen from one rank; see docs/user/coupler.md.\n\n"
      "  Coupler(comm, components, config)   collective over comm (every rank of the run)\n"
      "  def_grid / def_partition / def_field   per component, on the ranks holding data\n"
      "  enddef()                             collective: builds every exchange\n"
      "  put / get ...                        as the model steps\n"
      "  load / read ...                      time-series buffers (`buffers:` entries)\n"
      "  finalize()                           collective: writes restarts and timers\n\n"
      "`components` is the name (str) or names (list) of the components this rank runs;\n"
      "`config` the YAML configuration file, the same on every rank.\n\n"
      "Use it in a `with` block: at the block's end close() finalizes it; when the block\n"
      "raises, abandon() tells every other rank at once (see docs/user/failures.md).")
      .def(nb::init<nb::handle, const Components&, const std::filesystem::path&>(), "comm"_a,
           "components"_a, "config"_a)
      .def("__repr__", &CouplerBinding::repr)
      .def("local_comm", &CouplerBinding::local_comm, "component"_a,
           "The ranks of `component`: an mpi4py Intracomm (the Fortran handle, an int, without\n"
           "mpi4py). Owned by the coupler: do not free it; valid while the coupler lives.")
      .def("def_grid", &CouplerBinding::def_grid, "component"_a, "name"_a, "nx"_a, "ny"_a = 1,
           "Declares a grid of `component` with nx x ny points (ny = 1: unstructured).")
      .def("def_partition", &CouplerBinding::def_partition, "grid"_a, "name"_a, "layout"_a,
           "Declares which points of `grid` this rank holds.")
      .def("set_coordinates", &CouplerBinding::set_coordinates, "partition"_a, "lon"_a.none(),
           "lat"_a.none(),
           "Optional grid metadata, before enddef: the centres of this rank's points of the\n"
           "partition (degrees), float64 arrays of shape (points,) in layout order.")
      .def("set_corners", &CouplerBinding::set_corners, "partition"_a, "ncorner"_a, "lon"_a.none(),
           "lat"_a.none(),
           "Cell corners (degrees): float64 arrays of shape (points, ncorner), ncorner >= 3.")
      .def("set_areas", &CouplerBinding::set_areas, "partition"_a, "area"_a.none(),
           "Cell areas: a float64 array of shape (points,).")
      .def("set_mask", &CouplerBinding::set_mask, "partition"_a, "mask"_a.none(),
           "Mask: an int32 array of shape (points,), 1 for a valid point, 0 for a masked one.")
      .def("partition_points", &CouplerBinding::partition_points, "partition"_a,
           "This rank's number of points of the partition: the length of the set_* arrays.")
      .def("def_field", &CouplerBinding::def_field, "partition"_a, "name"_a, "direction"_a,
           "dtype"_a, "bundle"_a = 1,
           "Declares a field on a partition: direction \"out\" (put) or \"in\" (get), a dtype\n"
           "(float64, float32, int32, int64) and `bundle` values per point.")
      .def("field_values", &CouplerBinding::field_values, "field"_a,
           "This rank's number of values of the field (local points x bundle).")
      .def("enddef", &CouplerBinding::enddef,
           "Collective over the run: checks the declarations against the configuration and\n"
           "builds every exchange.")
      .def("put", &CouplerBinding::put, "field"_a, "time"_a, "values"_a.none(),
           "Puts this rank's values of an \"out\" field at model time `time` (seconds).\n"
           "`values`: C-contiguous, the field's dtype, shape (points,) or (points, bundle).\n"
           "Returns the ferry.Status flags.")
      .def("get", &CouplerBinding::get, "field"_a, "time"_a, "out"_a.none(),
           "Gets this rank's values of an \"in\" field at model time `time` into `out` (in\n"
           "place; same shape rules as put). Blocks until they arrive. Returns ferry.Status.")
      .def("load", &CouplerBinding::load, "buffer"_a, "values"_a.none(), "step"_a,
           "Not collective: loads this rank's values of the source field of `buffer` (a\n"
           "`buffers:` entry) as step `step`: C-contiguous, the field's dtype, shape\n"
           "(points,). Steps strictly increase; a lossless buffer may wait for the target.")
      .def("read", &CouplerBinding::read, "buffer"_a, "out"_a,
           "Collective over the ranks that read `buffer`, the same max_steps on each: waits\n"
           "for new steps, then reads up to max_steps of them. `out`: an array of shape\n"
           "(max_steps, points) and the field's dtype, written in place, or the number\n"
           "max_steps for a new array. Returns (values, first_step, lost_steps), values of\n"
           "shape (n_steps, points); n_steps == 0 means the stream ended.")
      .def("read_steps", &CouplerBinding::read_steps, "buffer"_a,
           "The step numbers of this rank's last read of `buffer` (an int64 array).")
      .def("buffer_values", &CouplerBinding::buffer_values, "buffer"_a,
           "This rank's points of the buffer's field: the values of one step (0 on ranks\n"
           "that neither load nor read it).")
      .def("finalize", &CouplerBinding::finalize,
           "Collective over the run: completes pending puts, closes the buffers (steps not\n"
           "read by then are dropped), writes restarts and timers.")
      .def("close", &CouplerBinding::close,
           "Idempotent: finalize() (collective) between enddef and finalize; before enddef,\n"
           "not collective: tells the other ranks this one leaves (as abandon); after\n"
           "finalize or a failure, nothing.")
      .def("abandon", &CouplerBinding::abandon, "reason"_a,
           "Not collective, never waits: this rank gives up on the run. Every other rank's\n"
           "current or next coupler call raises ferry.Error naming this rank, its\n"
           "component, its last coupler call and `reason`. Nothing after finalize or a\n"
           "failure.");
  add_context_manager(
      coupler, [](CouplerBinding& c) { c.close(); },
      [](CouplerBinding& c, const std::string& text) { c.abandon(text); });
}

}  // namespace ferry::python
