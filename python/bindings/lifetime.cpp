#include "bindings/lifetime.hpp"

#include <nanobind/stl/string.h>

namespace ferry::python {

std::string exception_text(nb::handle type, nb::handle value) {
  std::string name = nb::cast<std::string>(nb::str(type.attr("__name__")));
  const std::string message = value.is_none() ? "" : nb::cast<std::string>(nb::str(value));
  return message.empty() ? name : name + ": " + message;
}

}  // namespace ferry::python
