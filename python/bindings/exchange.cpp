// ferry.Exchange: a ferry::Exchange that takes NumPy arrays and reads and writes
// them in place. Each array is checked against its field before anything moves.
#include "ferry/exchange.hpp"

#include <nanobind/stl/string.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "bindings/bindings.hpp"
#include "bindings/buffers.hpp"
#include "bindings/comm_handle.hpp"
#include "bindings/datatypes.hpp"
#include "bindings/engine_options.hpp"
#include "ferry/error.hpp"

namespace ferry::python {

using namespace nb::literals;

namespace {

bool is_sequence(nb::handle h) {
  return nb::isinstance<nb::list>(h) || nb::isinstance<nb::tuple>(h);
}

// A field is a dtype-like (one value per point) or a (dtype-like, components) pair.
FieldSpec field_spec(nb::handle field, std::size_t index) {
  const std::string what = "Exchange: field " + std::to_string(index);
  if (!is_sequence(field)) return {datatype_from_python(field, what), 1};
  if (nb::len(field) != 2)
    throw Error(Errc::Arg, what + ": expected (dtype, components); got " +
                               nb::cast<std::string>(nb::repr(field)));
  const nb::object components = field[1];
  int count = 0;
  if (PyBool_Check(components.ptr()) || !nb::try_cast(components, count, false))
    throw Error(Errc::Arg, what + ": components must be an int; got " +
                               nb::cast<std::string>(nb::repr(components)));
  return {datatype_from_python(field[0], what), count};
}

// None is one float64 value per point; one dtype-like is one field.
std::vector<FieldSpec> field_specs(nb::handle fields) {
  if (fields.is_none()) return {FieldSpec{}};
  if (!is_sequence(fields)) return {field_spec(fields, 0)};
  std::vector<FieldSpec> specs;
  for (nb::handle field : fields) specs.push_back(field_spec(field, specs.size()));
  return specs;
}

class ExchangeBinding {
 public:
  ExchangeBinding(nb::handle comm, const Layout& src, const Layout& dst, nb::handle fields,
                  const std::string& engine, const nb::dict& options)
      : exchange_(make(comm, src, dst, fields, engine, options)) {
    MPI_Comm_rank(exchange_.comm(), &rank_);
  }

  void execute(nb::handle src, nb::handle dst, nb::handle mask) {
    Buffers b = buffers("Exchange.execute", src, dst, mask);
    nb::gil_scoped_release unlocked;
    exchange_.execute(b.src.data(), b.dst.data(), b.mask.data());
  }

  void begin(nb::handle src, nb::handle dst, nb::handle mask) {
    Buffers b = buffers("Exchange.begin", src, dst, mask);
    {
      nb::gil_scoped_release unlocked;
      exchange_.begin(b.src.data(), b.dst.data(), b.mask.data());
    }
    // The engine uses the arrays until end(): keep them alive even if the caller drops them.
    in_flight_ = {nb::borrow(src), nb::borrow(dst)};
  }

  void end() {
    const std::vector<nb::object> arrays = std::move(in_flight_);  // released after end()
    nb::gil_scoped_release unlocked;
    exchange_.end();
  }

  bool test() { return exchange_.test(); }

  const std::string& engine_name() const { return exchange_.engine_name(); }
  double setup_seconds() const { return exchange_.setup_seconds(); }

  nb::list fields() const {
    nb::list result;
    for (const FieldSpec& f : exchange_.fields())
      result.append(nb::make_tuple(numpy_dtype(f.type), f.components));
    return result;
  }

  nb::dict traffic() const {
    const Traffic t = exchange_.traffic();
    nb::dict result;
    result["messages"] = t.messages;
    result["bytes"] = t.bytes;
    result["rounds"] = t.rounds;
    return result;
  }

 private:
  // The pointers handed to ferry: one per field and side, nullptr for fields the mask skips.
  struct Buffers {
    std::vector<const void*> src;
    std::vector<void*> dst;
    std::vector<std::uint8_t> mask;
  };

  static Exchange make(nb::handle comm, const Layout& src, const Layout& dst, nb::handle fields,
                       const std::string& engine, const nb::dict& options) {
    const MPI_Comm c = comm_from_python(comm, "Exchange");
    std::vector<FieldSpec> specs = field_specs(fields);
    const EngineOptions opts = engine_options(options, "Exchange");
    nb::gil_scoped_release unlocked;  // collective: other Python threads may run meanwhile
    return Exchange(c, src, dst, std::move(specs), engine, opts);
  }

  // One array per field: a list or tuple, or a single array when there is one field.
  std::vector<nb::handle> per_field(nb::handle arrays, const std::string& what) const {
    const std::size_t n = exchange_.fields().size();
    if (!is_sequence(arrays)) {
      if (n == 1) return {arrays};
      throw Error(Errc::Arg,
                  what + " is a " + nb::cast<std::string>(nb::inst_name(arrays)) + " on rank " +
                      std::to_string(rank_) + "; give a list of " + std::to_string(n) +
                      " arrays, one per field",
                  rank_);
    }
    if (nb::len(arrays) != n)
      throw Error(Errc::ArgSize,
                  what + ": got " + std::to_string(nb::len(arrays)) + " arrays on rank " +
                      std::to_string(rank_) + ", expected " + std::to_string(n) +
                      " (one per field)",
                  rank_);
    std::vector<nb::handle> result;
    for (nb::handle a : arrays) result.push_back(a);
    return result;
  }

  Buffers buffers(const std::string& function, nb::handle src, nb::handle dst,
                  nb::handle mask) const {
    const std::vector<FieldSpec>& fields = exchange_.fields();
    const std::size_t n = fields.size();
    Buffers b{std::vector<const void*>(n, nullptr), std::vector<void*>(n, nullptr),
              std::vector<std::uint8_t>(n, 1)};
    if (!mask.is_none()) {
      if (nb::len(mask) != n)
        throw Error(Errc::ArgSize,
                    function + ": the mask has " + std::to_string(nb::len(mask)) +
                        " entries on rank " + std::to_string(rank_) + ", expected " +
                        std::to_string(n) + " (one per field)",
                    rank_);
      std::size_t f = 0;
      for (nb::handle selected : mask) {
        const int truth = PyObject_IsTrue(selected.ptr());
        if (truth < 0) throw nb::python_error();
        b.mask[f++] = static_cast<std::uint8_t>(truth);
      }
    }
    const std::vector<nb::handle> src_arrays = per_field(src, function + ": the source");
    const std::vector<nb::handle> dst_arrays = per_field(dst, function + ": the destination");
    const Plan& plan = exchange_.plan();
    for (std::size_t f = 0; f < n; ++f) {
      if (b.mask[f] == 0) continue;
      const std::string field = " field " + std::to_string(f);
      b.src[f] = readable_buffer(src_arrays[f],
                                 {fields[f].type, plan.src_local_size(), fields[f].components},
                                 {function + ": source" + field, rank_,
                                  "Size it from the source layout (Layout.local_size points)"});
      b.dst[f] = writable_buffer(
          dst_arrays[f], {fields[f].type, plan.dst_local_size(), fields[f].components},
          {function + ": destination" + field, rank_,
           "Size it from the destination layout (Layout.local_size points)"});
    }
    return b;
  }

  Exchange exchange_;
  int rank_ = -1;
  std::vector<nb::object> in_flight_;  // the arrays of a begin() not yet ended
};

}  // namespace

void bind_exchange(nb::module_& m) {
  nb::class_<ExchangeBinding>(
      m, "Exchange",
      "Moves fields from a source layout to a destination layout, again and again.\n\n"
      "Collective over `comm` (an mpi4py communicator, duplicated): every rank passes its\n"
      "source and destination layouts (Layout.none() on a side it is not part of), the\n"
      "same fields and the same engine. `fields` is a list of dtypes or (dtype,\n"
      "components) pairs (default: one float64 value per point); `engine` a name of\n"
      "engine_names(), \"auto\", or \"default\" ($FERRY_ENGINE, else p2p); `options` the\n"
      "engine's options. Raises ferry.Error, the same on every rank.")
      .def(nb::init<nb::handle, const Layout&, const Layout&, nb::handle, const std::string&,
                    const nb::dict&>(),
           "comm"_a, "src"_a, "dst"_a, "fields"_a.none() = nb::none(), "engine"_a = "default",
           "options"_a = nb::dict())
      .def("execute", &ExchangeBinding::execute, "src"_a.none(), "dst"_a.none(),
           "mask"_a.none() = nb::none(),
           "Collective: moves every field (or those `mask` selects) from the source arrays\n"
           "into the destination arrays, in place. One array per field (a list, or the\n"
           "array itself for one field), C-contiguous, of the field's dtype and shape\n"
           "(local_size,) or (local_size, components); None on a side without values.")
      .def("begin", &ExchangeBinding::begin, "src"_a.none(), "dst"_a.none(),
           "mask"_a.none() = nb::none(),
           "Collective, non-blocking: starts execute(); do not touch the arrays until end().")
      .def("end", &ExchangeBinding::end, "Collective: completes the exchange begin() started.")
      .def("test", &ExchangeBinding::test, "Not collective: True when end() would not wait.")
      .def_prop_ro("engine_name", &ExchangeBinding::engine_name, "The engine in use.")
      .def_prop_ro("fields", &ExchangeBinding::fields,
                   "The fields: a list of (numpy.dtype, components).")
      .def_prop_ro("setup_seconds", &ExchangeBinding::setup_seconds,
                   "Seconds this rank spent building the plan and setting up the engine.")
      .def("traffic", &ExchangeBinding::traffic,
           "What one exchange of every field sends from this rank: a dict of messages,\n"
           "bytes and rounds.");
}

}  // namespace ferry::python
