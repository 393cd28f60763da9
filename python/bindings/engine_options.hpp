// Engine options from Python: a dict of str, bool or number values.
#pragma once

#include <nanobind/nanobind.h>

#include <string>

#include "ferry/engine.hpp"

namespace ferry::python {

namespace nb = nanobind;

/// The options of `options`, as text: True/False become "true"/"false". Not
/// collective. Raises Errc::Arg, starting with `function`, for other value types.
EngineOptions engine_options(const nb::dict& options, const std::string& function);

}  // namespace ferry::python
