// The two states of a C handle whose object is made in two steps: create (not
// collective) gathers fields and options, then a collective setup builds the C++
// object into a std::optional of the handle.
#pragma once

#include <optional>

#include "ferry/engine.hpp"
#include "util/check.hpp"

namespace ferry::detail {

/// Errc::State if `object` (the `what` of `setup_function`) is already built.
template <class Object>
void check_not_set_up(const std::optional<Object>& object, const char* function,
                      const char* what, const char* setup_function) {
  FERRY_CHECK(!object.has_value(), Errc::State, function, ": the ", what,
              " is already set up; add fields and options before ", setup_function);
}

/// The built object; Errc::State before `setup_function` has built it.
template <class Optional>
auto& set_up(Optional& object, const char* function, const char* what,
             const char* setup_function) {
  FERRY_CHECK(object.has_value(), Errc::State, function, ": the ", what, " is not set up. Call ",
              setup_function, " first");
  return *object;
}

/// Sets an engine option from C strings (checked before setup by the caller).
inline void set_engine_option(EngineOptions& options, const char* key, const char* value,
                              const char* function) {
  FERRY_CHECK(key && value, Errc::Arg, function, ": key or value is NULL");
  options.values[key] = value;
}

}  // namespace ferry::detail
