// ferry.Exchange: a ferry::Exchange that takes NumPy arrays and reads and writes
// them in place. Each array is checked against its field before anything moves.
#include "ferry/exchange.hpp"

#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include <string>
#include <utility>
#include <vector>

#include "bindings/bindings.hpp"
#include "bindings/comm_handle.hpp"
#include "bindings/datatypes.hpp"
#include "bindings/describe.hpp"
#include "bindings/engine_options.hpp"
#include "bindings/fields.hpp"
#include "bindings/lifetime.hpp"
#include "ferry/comm.hpp"
#include "ferry/error.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"

namespace ferry::python {

using namespace nb::literals;

namespace {

class ExchangeBinding {
 public:
  ExchangeBinding(nb::handle comm, const Layout& src, const Layout& dst, nb::handle fields,
                  const std::string& engine, const nb::dict& options)
      : exchange_(make(comm, src, dst, fields, engine, options)) {
    MPI_Comm_rank(exchange_.comm(), &rank_);
  }

  void execute(nb::handle src, nb::handle dst, nb::handle mask) {
    FieldBuffers b = buffers("Exchange.execute", src, dst, mask);
    nb::gil_scoped_release unlocked;
    exchange_.execute(b.src.data(), b.dst.data(), b.mask.data());
  }

  void begin(nb::handle src, nb::handle dst, nb::handle mask) {
    FieldBuffers b = buffers("Exchange.begin", src, dst, mask);
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

  // A NumPy view of the memory the engine offers for `field`, owned by `self` (the
  // Python Exchange, kept alive by the view), or None.
  nb::object destination_field(nb::handle self, std::int64_t field) {
    FERRY_CHECK(field >= 0, Errc::ArgRange, "Exchange.destination_field: field ", field,
                " is negative");
    void* memory = nullptr;
    {
      nb::gil_scoped_release unlocked;  // may complete the adaptive engine's reduction
      memory = exchange_.destination_field(static_cast<std::size_t>(field));
    }
    if (!memory) return nb::none();
    const FieldSpec& spec = exchange_.fields()[static_cast<std::size_t>(field)];
    const std::size_t shape[2] = {static_cast<std::size_t>(exchange_.plan().dst_local_size()),
                                  static_cast<std::size_t>(spec.components)};
    nb::ndarray<nb::numpy> view(memory, spec.components == 1 ? 1 : 2, shape, self, nullptr,
                                dlpack_dtype(spec.type));
    return nb::cast(view);
  }

  void close() {
    nb::gil_scoped_release unlocked;
    exchange_.close();
  }

  const std::string& engine_name() const { return exchange_.engine_name(); }
  double setup_seconds() const { return exchange_.setup_seconds(); }

  nb::list fields() const { return fields_to_python(exchange_.fields()); }

  nb::dict traffic() const { return traffic_to_python(exchange_.traffic()); }

 private:
  static Exchange make(nb::handle comm, const Layout& src, const Layout& dst, nb::handle fields,
                       const std::string& engine, const nb::dict& options) {
    const MPI_Comm c = comm_from_python(comm, "Exchange");
    std::vector<FieldSpec> specs;
    EngineOptions opts;
    detail::agree_on(Comm::view(c), [&] {
      specs = field_specs(fields, "Exchange");
      opts = engine_options(options, "Exchange");
    });
    nb::gil_scoped_release unlocked;  // collective: other Python threads may run meanwhile
    return Exchange(c, src, dst, std::move(specs), engine, opts);
  }

  FieldBuffers buffers(const std::string& function, nb::handle src, nb::handle dst,
                       nb::handle mask) const {
    const Plan& plan = exchange_.plan();
    return field_buffers({function, rank_, plan.src_local_size(), plan.dst_local_size()},
                         exchange_.fields(), src, dst, mask);
  }

  Exchange exchange_;
  int rank_ = -1;
  std::vector<nb::object> in_flight_;  // the arrays of a begin() not yet ended
};

}  // namespace

void bind_exchange(nb::module_& m) {
  auto cls = nb::class_<ExchangeBinding>(
      m, "Exchange",
      "Moves fields from a source layout to a destination layout, again and again.\n\n"
      "Collective over `comm` (an mpi4py communicator, duplicated): every rank passes its\n"
      "source and destination layouts (Layout.none() on a side it is not part of), the\n"
      "same fields and the same engine. `fields` is a list of dtypes or (dtype,\n"
      "components) pairs (default: one float64 value per point); `engine` a name of\n"
      "engine_names(), \"auto\", or \"default\" ($FERRY_ENGINE, else p2p); `options` the\n"
      "engine's options. Raises ferry.Error, the same on every rank.\n\n"
      "close() (or the end of a `with` block) frees, collectively, what only every rank\n"
      "together can free (the rma engine's windows); garbage collection never waits for\n"
      "another rank, and leaves those to MPI_Finalize.")
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
      .def(
          "destination_field",
          [](nb::handle self, std::int64_t field) {
            return nb::cast<ExchangeBinding&>(self).destination_field(self, field);
          },
          "field"_a,
          "Not collective: a NumPy array over memory the engine allocated for field\n"
          "`field`'s received values on this rank, or None. rma (and \"auto\" for the\n"
          "exchanges it makes with rma) offers it to ranks with a source on the same node,\n"
          "which then write each value straight into it: pass it as that field's dst array\n"
          "to the next execute() or begin() for one copy per value. No copy is made: the\n"
          "array is a view. Ask again before each exchange (two areas take turns) and do\n"
          "not write the array before it; its values stay until the end of the next\n"
          "exchange, and the array must not be used after close(). It keeps the Exchange\n"
          "alive.")
      .def_prop_ro("engine_name", &ExchangeBinding::engine_name, "The engine in use.")
      .def_prop_ro("fields", &ExchangeBinding::fields,
                   "The fields: a list of (numpy.dtype, components).")
      .def_prop_ro("setup_seconds", &ExchangeBinding::setup_seconds,
                   "Seconds this rank spent building the plan and setting up the engine.")
      .def("traffic", &ExchangeBinding::traffic,
           "What one exchange of every field sends from this rank: a dict of messages,\n"
           "bytes and rounds.")
      .def("close", &ExchangeBinding::close,
           "Collective, idempotent: frees what only every rank together can free; afterwards\n"
           "only the properties and traffic() work. Does nothing collective on an exchange\n"
           "that failed.")
      .def("__repr__", [](nb::handle self) {
        return described(self, "Exchange", {"engine_name", "fields"});
      });
  add_context_manager(cls, [](ExchangeBinding& e) { e.close(); });
}

}  // namespace ferry::python
