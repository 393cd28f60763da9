// close() and the `with` statement for the objects that hold MPI resources.
#pragma once

#include <string>

#include "bindings/bindings.hpp"

namespace ferry::python {

/// What an exception that ends a `with` block says: "TypeName: message".
std::string exception_text(nb::handle type, nb::handle value);

/// Adds the context-manager protocol to `cls`: `with obj:` returns obj, and at the
/// block's end calls `close(obj)` (collective) if the block ended normally, or
/// `on_error(obj, text)` with the exception's text if it raised. On an exception the
/// other ranks may be elsewhere, so on_error must not wait for them; the object is
/// freed without a collective call when garbage-collected. Never swallows exceptions.
template <class Binding, class Close, class OnError>
void add_context_manager(nb::class_<Binding>& cls, Close close, OnError on_error) {
  cls.def("__enter__", [](nb::object self) { return self; })
      .def(
          "__exit__",
          [close, on_error](Binding& self, nb::handle type, nb::handle value, nb::handle) {
            if (type.is_none())
              close(self);
            else
              on_error(self, exception_text(type, value));
            return false;
          },
          nb::arg("exc_type").none(), nb::arg("exc_value").none(), nb::arg("traceback").none());
}

/// The same when an exception needs nothing done: the object waits for the garbage
/// collector, which frees it without a collective call.
template <class Binding, class Close>
void add_context_manager(nb::class_<Binding>& cls, Close close) {
  add_context_manager(cls, close, [](Binding&, const std::string&) {});
}

}  // namespace ferry::python
