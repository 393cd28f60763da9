// ferry.TimeSeriesBuffer and ferry.TimeSeriesReader: the time-series ring buffer
// with NumPy arrays. A worker reads every new step of its box into an array of
// shape (steps, *box_shape) with one call.
//
// Argument errors found here are agreed over the ranks of the collective call (as
// the C++ library agrees on its own), so no rank raises while the others wait.
#include "ferry/time_series_buffer.hpp"

#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings/bindings.hpp"
#include "bindings/lifetime.hpp"
#include "bindings/comm_handle.hpp"
#include "bindings/datatypes.hpp"
#include "bindings/describe.hpp"
#include "bindings/nd_arrays.hpp"
#include "ferry/comm.hpp"
#include "ferry/error.hpp"
#include "util/agree.hpp"

namespace ferry::python {

using namespace nb::literals;

namespace {

using Extents = std::vector<std::int64_t>;

// One dimension of a box: a (start, stop) pair or a slice with both ends and step 1.
std::pair<std::int64_t, std::int64_t> box_range(nb::handle range, const std::string& what) {
  if (PySlice_Check(range.ptr())) {
    const nb::object step = range.attr("step");
    if (step.is_none() || index_from_python(step, what + " slice step") == 1) {
      const nb::object start = range.attr("start");
      const nb::object stop = range.attr("stop");
      if (!start.is_none() && !stop.is_none())
        return {index_from_python(start, what), index_from_python(stop, what)};
    }
  } else if ((nb::isinstance<nb::tuple>(range) || nb::isinstance<nb::list>(range)) &&
             nb::len(range) == 2) {
    return {index_from_python(range[0], what), index_from_python(range[1], what)};
  }
  throw Error(Errc::Arg, what + ": each dimension must be a (start, stop) pair or a slice "
                               "start:stop with both ends; got " +
                               nb::cast<std::string>(nb::repr(range)));
}

// A box: one range per dimension, such as ((0, 4), (2, 6)) or numpy.s_[0:4, 2:6]; a
// slice alone (numpy.s_[2:5]) is a 1-D box.
Box box_from_python(nb::handle box, const std::string& what) {
  if (PySlice_Check(box.ptr())) return box_from_python(nb::make_tuple(box), what);
  if (!nb::isinstance<nb::tuple>(box) && !nb::isinstance<nb::list>(box))
    throw Error(Errc::Arg, what + ": the box must be a tuple with one (start, stop) pair or "
                                  "slice per dimension, such as ((0, 4), (2, 6)) or "
                                  "numpy.s_[0:4, 2:6]; got " +
                                  nb::cast<std::string>(nb::repr(box)));
  Box result;
  for (nb::handle range : box) {
    const auto [start, stop] = box_range(range, what);
    result.start.push_back(start);
    result.end.push_back(stop);
  }
  return result;
}

// The extents of a box, or of nothing for an invalid one (the library reports it).
Extents box_shape(const Box& box) {
  Extents shape;
  for (std::size_t d = 0; d < box.start.size() && d < box.end.size(); ++d)
    shape.push_back(box.end[d] > box.start[d] ? box.end[d] - box.start[d] : 0);
  return shape;
}

BufferMode buffer_mode(nb::handle mode) {
  BufferMode result = BufferMode::Lossless;
  if (nb::try_cast(mode, result, false)) return result;
  if (nb::isinstance<nb::str>(mode)) {
    const auto text = nb::cast<std::string>(mode);
    if (text == "lossless") return BufferMode::Lossless;
    if (text == "lossy") return BufferMode::Lossy;
  }
  throw Error(Errc::Arg, "TimeSeriesBuffer.expose: mode " + nb::cast<std::string>(nb::repr(mode)) +
                             " is unknown; use \"lossless\" or \"lossy\", or ferry.BufferMode");
}

Capacity capacity_from_python(nb::handle steps, nb::handle bytes) {
  const std::string what = "TimeSeriesBuffer.expose: ";
  if (steps.is_none() == bytes.is_none())
    throw Error(Errc::Arg, what + "give exactly one of capacity (slots per requester rank) and "
                                  "capacity_bytes (bytes per requester rank)");
  if (!steps.is_none()) return Capacity::steps(index_from_python(steps, what + "capacity"));
  return Capacity::bytes(index_from_python(bytes, what + "capacity_bytes"));
}

class ReaderBinding {
 public:
  ReaderBinding(TimeSeriesReader reader, Comm group, Extents box_shape, Datatype type)
      : reader_(std::move(reader)),
        group_(std::move(group)),
        box_shape_(std::move(box_shape)),
        type_(type) {}

  nb::tuple read(nb::handle out, std::optional<std::int64_t> max_steps) {
    Extents shape{-1};
    shape.insert(shape.end(), box_shape_.begin(), box_shape_.end());
    void* data = nullptr;
    std::int64_t steps = max_steps.value_or(0);
    detail::agree_on(group_, [&] {
      const std::string what = "TimeSeriesReader.read: the output array on worker rank " +
                               std::to_string(group_.rank());
      data = writable_array(out, {type_, shape}, what);
      const std::int64_t room = out.is_none() ? 0 : nb::cast<std::int64_t>(out.attr("shape")[0]);
      if (!max_steps) steps = room;
      if (!out.is_none() && steps > room)
        throw Error(Errc::ArgSize, what + " has room for " + std::to_string(room) +
                                       " steps, fewer than max_steps = " + std::to_string(steps) +
                                       ". Make it with reader.empty(max_steps)");
    });
    ReadResult result;
    {
      nb::gil_scoped_release unlocked;
      result = reader_.read(data, steps);
    }
    return nb::make_tuple(result.first_step, result.n_steps, result.lost_steps);
  }

  nb::object empty(std::int64_t max_steps) const {
    nb::list shape;
    shape.append(max_steps);
    for (const auto extent : box_shape_) shape.append(extent);
    return nb::module_::import_("numpy").attr("empty")(nb::tuple(shape), numpy_dtype(type_));
  }

  nb::object steps() const {
    const auto& steps = reader_.steps();
    return nb::module_::import_("numpy").attr("array")(nb::cast(steps), "dtype"_a = "int64");
  }

  void done() {
    nb::gil_scoped_release unlocked;
    reader_.done();
  }

  void close() {
    if (reader_.is_done()) return;
    done();
  }

  nb::tuple box_shape() const { return nb::tuple(nb::cast(box_shape_)); }
  nb::object dtype() const { return numpy_dtype(type_); }
  std::int64_t values_per_step() const { return reader_.values_per_step(); }

  nb::dict statistics() const {
    const ReaderStatistics& s = reader_.statistics();
    nb::dict result;
    result["reads"] = s.reads;
    result["steps"] = s.steps;
    result["lost_steps"] = s.lost_steps;
    result["torn_steps"] = s.torn_steps;
    result["data_gets"] = s.data_gets;
    result["control_ops"] = s.control_ops;
    result["wait_seconds"] = s.wait_seconds;
    result["transfer_seconds"] = s.transfer_seconds;
    return result;
  }

 private:
  TimeSeriesReader reader_;
  Comm group_;  // a copy of the group's communicator, to agree on argument errors
  Extents box_shape_;
  Datatype type_;
};

class BufferBinding {
 public:
  static BufferBinding expose(nb::handle comm, nb::handle shape, nb::handle box,
                              nb::handle dtype, nb::handle capacity, nb::handle capacity_bytes,
                              nb::handle mode) {
    const std::string what = "TimeSeriesBuffer.expose";
    const Comm parent = Comm::view(comm_from_python(comm, what));
    Extents global_shape;
    Box my_box;
    Datatype type = Datatype::Float64;
    std::optional<Capacity> limit;
    BufferMode buffer_mode_value = BufferMode::Lossless;
    // Matches the agreement of connect() on the worker ranks of the parent.
    detail::agree_on(parent, [&] {
      global_shape = indices_from_python(shape, what + ": the shape");
      my_box = box_from_python(box, what);
      type = datatype_from_python(dtype, what);
      limit = capacity_from_python(capacity, capacity_bytes);
      buffer_mode_value = buffer_mode(mode);
    });
    nb::gil_scoped_release unlocked;
    return BufferBinding(TimeSeriesBuffer::expose(parent.get(), global_shape, my_box, type,
                                                  *limit, buffer_mode_value),
                         box_shape(my_box));
  }

  static BufferBinding connect(nb::handle comm, nb::handle group) {
    const std::string what = "TimeSeriesBuffer.connect";
    const Comm parent = Comm::view(comm_from_python(comm, what));
    int index = 0;
    detail::agree_on(parent, [&] {
      const std::int64_t value = index_from_python(group, what + ": the group");
      if (value < 0 || value > INT32_MAX)
        throw Error(Errc::Arg, what + ": group " + std::to_string(value) +
                                   " is not a group index 0, 1, ...");
      index = static_cast<int>(value);
    });
    nb::gil_scoped_release unlocked;
    return BufferBinding(TimeSeriesBuffer::connect(parent.get(), index), {});
  }

  void load(nb::handle data, std::int64_t step) {
    const void* values = nullptr;
    if (buffer_.is_requester())
      values = readable_array(data, {buffer_.type(), box_shape_},
                              "TimeSeriesBuffer.load: the step's array");
    nb::gil_scoped_release unlocked;
    buffer_.load(values, step);  // raises Errc::State on a worker rank
  }

  void close() {
    nb::gil_scoped_release unlocked;
    buffer_.close();
  }

  void free() {
    nb::gil_scoped_release unlocked;
    buffer_.free();
  }

  ReaderBinding attach(nb::handle comm, nb::handle box) {
    const std::string what = "TimeSeriesBuffer.attach";
    Comm group = Comm::dup(comm_from_python(comm, what));
    Box my_box;
    detail::agree_on(group, [&] { my_box = box_from_python(box, what); });
    std::optional<TimeSeriesReader> reader;
    {
      nb::gil_scoped_release unlocked;
      reader.emplace(buffer_.attach(group.get(), my_box));
    }
    return ReaderBinding(std::move(*reader), std::move(group), box_shape(my_box),
                         buffer_.type());
  }

  bool is_requester() const { return buffer_.is_requester(); }
  nb::tuple shape() const { return nb::tuple(nb::cast(buffer_.global_shape())); }
  nb::object dtype() const { return numpy_dtype(buffer_.type()); }
  BufferMode mode() const { return buffer_.mode(); }
  std::int64_t capacity_steps() const { return buffer_.capacity_steps(); }
  int groups() const { return buffer_.groups(); }

 private:
  BufferBinding(TimeSeriesBuffer buffer, Extents box_shape)
      : buffer_(std::move(buffer)), box_shape_(std::move(box_shape)) {}

  TimeSeriesBuffer buffer_;
  Extents box_shape_;  // of this requester rank's box
};

}  // namespace

void bind_buffer(nb::module_& m) {
  nb::enum_<BufferMode>(m, "BufferMode",
                        "What a TimeSeriesBuffer does when a ring is full (or \"lossless\" / "
                        "\"lossy\").")
      .value("LOSSLESS", BufferMode::Lossless, "load() waits for the slowest worker group")
      .value("LOSSY", BufferMode::Lossy, "load() never waits; late readers lose steps");

  auto reader = nb::class_<ReaderBinding>(
      m, "TimeSeriesReader",
      "One worker group's reader of a TimeSeriesBuffer, made by TimeSeriesBuffer.attach.\n"
      "close() (or the end of a `with` block) detaches it: done() unless done already.")
      .def("read", &ReaderBinding::read, "out"_a.none(), "max_steps"_a = nb::none(),
           "Collective over the group: waits for new steps, then writes up to max_steps of\n"
           "them (default: out.shape[0], the same on every rank) into out, an array of\n"
           "shape (steps, *box_shape) and the buffer's dtype (see empty()). Returns\n"
           "(first_step, n_steps, lost_steps); n_steps == 0 means the stream ended.\n"
           "out[:n_steps] holds the steps listed by `steps`. None for an empty box.")
      .def("empty", &ReaderBinding::empty, "max_steps"_a,
           "Not collective: numpy.empty((max_steps, *box_shape), dtype), for read().")
      .def_prop_ro("steps", &ReaderBinding::steps,
                   "The step numbers of the last read (an int64 array of n_steps values).")
      .def("done", &ReaderBinding::done,
           "Collective over the group: detaches; a lossless requester stops waiting for it.")
      .def("__repr__",
           [](nb::handle self) {
             return described(self, "TimeSeriesReader", {"box_shape", "dtype", "steps"});
           })
      .def_prop_ro("box_shape", &ReaderBinding::box_shape, "The shape of this rank's box.")
      .def_prop_ro("dtype", &ReaderBinding::dtype, "The element type (a numpy.dtype).")
      .def_prop_ro("values_per_step", &ReaderBinding::values_per_step,
                   "Values of one step of this rank's box.")
      .def_prop_ro("statistics", &ReaderBinding::statistics,
                   "What this rank's reads did so far: a dict of reads, steps, lost_steps,\n"
                   "torn_steps, data_gets, control_ops, wait_seconds, transfer_seconds.")
      .def("close", &ReaderBinding::close,
           "Collective over the group, idempotent: done() unless it was called.");
  add_context_manager(reader, [](ReaderBinding& r) { r.close(); });

  auto buffer = nb::class_<BufferBinding>(
      m, "TimeSeriesBuffer",
      "A ring of time steps in MPI one-sided memory: requester ranks load one box of a\n"
      "global array per step, worker groups read the sub-boxes they want, many steps\n"
      "per call. Every rank of a parent communicator calls expose() (requester) or\n"
      "connect() (worker) collectively. free() (or the end of a `with` block, which\n"
      "also ends the stream on requester ranks) frees the window, collectively over the\n"
      "parent; garbage collection never waits for another rank, and leaves the window\n"
      "to MPI_Finalize.")
      .def_static("expose", &BufferBinding::expose, "comm"_a, "shape"_a, "box"_a, "dtype"_a,
                  "capacity"_a.none() = nb::none(), nb::kw_only(),
                  "capacity_bytes"_a.none() = nb::none(), "mode"_a = "lossless",
                  "Collective over `comm` (the parent, with the workers' connect()): this rank\n"
                  "holds `box` of a global array of `shape` (1 to 3 extents). A box is one\n"
                  "(start, stop) pair or slice per dimension, e.g. numpy.s_[0:4, 2:6].\n"
                  "`capacity`: slots per requester rank, or `capacity_bytes`: bytes per\n"
                  "requester rank. `mode`: \"lossless\" or \"lossy\".")
      .def_static("connect", &BufferBinding::connect, "comm"_a, "group"_a,
                  "Collective over `comm` (the parent, with the requesters' expose()): this\n"
                  "rank is a worker of `group` (0, 1, ...).")
      .def("load", &BufferBinding::load, "data"_a.none(), "step"_a,
           "Requester ranks, not collective: copies this step's array (the shape of this\n"
           "rank's box, the buffer's dtype) into the next slot. Steps strictly increase.\n"
           "Lossless mode waits while a worker group has not read the slot's step.")
      .def("close", &BufferBinding::close,
           "Collective over the requester ranks: no more steps will come.")
      .def("attach", &BufferBinding::attach, "comm"_a, "box"_a,
           "Collective over `comm`, exactly the ranks of one worker group: each names the\n"
           "box it reads. Returns a TimeSeriesReader.")
      .def("__repr__",
           [](nb::handle self) {
             return described(self, "TimeSeriesBuffer",
                              {"shape", "dtype", "mode", "capacity_steps", "is_requester"});
           })
      .def_prop_ro("is_requester", &BufferBinding::is_requester)
      .def_prop_ro("shape", &BufferBinding::shape, "The global shape.")
      .def_prop_ro("dtype", &BufferBinding::dtype, "The element type (a numpy.dtype).")
      .def_prop_ro("mode", &BufferBinding::mode)
      .def_prop_ro("capacity_steps", &BufferBinding::capacity_steps,
                   "Slots of every requester rank's ring.")
      .def_prop_ro("groups", &BufferBinding::groups, "Number of worker groups.")
      .def("free", &BufferBinding::free,
           "Collective over the parent, idempotent: frees the window once every rank is done\n"
           "with it, closing the stream first on requester ranks that have not. Detach the\n"
           "readers (done or close) before. Afterwards the buffer refuses every call.");
  add_context_manager(buffer, [](BufferBinding& b) { b.free(); });
}

}  // namespace ferry::python
