// The __repr__ of ferry's Python objects: the class and the properties that say what
// an object is, as Python prints them.
#pragma once

#include <nanobind/nanobind.h>

#include <initializer_list>
#include <string>

namespace ferry::python {

namespace nb = nanobind;

/// "Name(a=<repr of self.a>, b=...)", each property read through Python. A property
/// that raises (on an object already closed, say) is left out, so repr never fails.
inline std::string described(nb::handle self, const char* name,
                             std::initializer_list<const char*> properties) {
  std::string text = std::string(name) + "(";
  bool first = true;
  for (const char* property : properties) {
    try {
      const std::string value = nb::cast<std::string>(nb::repr(self.attr(property)));
      text += (first ? "" : ", ") + std::string(property) + "=" + value;
      first = false;
    } catch (const nb::python_error&) {
    }
  }
  return text + ")";
}

}  // namespace ferry::python
