#include "bindings/engine_options.hpp"

#include <nanobind/stl/string.h>

#include "ferry/error.hpp"

namespace ferry::python {

EngineOptions engine_options(const nb::dict& options, const std::string& function) {
  EngineOptions result;
  for (auto [key, value] : options) {
    const auto name = nb::cast<std::string>(nb::str(key));
    if (PyBool_Check(value.ptr()))
      result.values[name] = nb::cast<bool>(value) ? "true" : "false";
    else if (nb::isinstance<nb::str>(value) || nb::isinstance<nb::int_>(value) ||
             nb::isinstance<nb::float_>(value))
      result.values[name] = nb::cast<std::string>(nb::str(value));
    else
      throw Error(Errc::Arg, function + ": option \"" + name + "\" has a " +
                                 nb::cast<std::string>(nb::inst_name(value)) +
                                 " value; give a str, bool or number");
  }
  return result;
}

}  // namespace ferry::python
