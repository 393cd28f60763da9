// The exception firewall of the extern "C" layer: every C entry point (the C API
// and the Fortran shims) runs its body through guarded(), so no exception crosses
// into C or Fortran and the last error's text is kept for ferry_last_error_message().
#pragma once

#include <exception>
#include <new>

#include "ferry/error.hpp"
#include "util/check.hpp"

namespace ferry::detail {

/// Keeps the message of an error raised under the C function `function` as this
/// thread's last error and returns `code` as the C code. The message starts with
/// `function`, which replaces a leading C++ or C function or class name of `what`
/// ("Coupler::put: ", "ferry_coupler_field_values: ", "Remap: "). Defined once in libferry, so
/// every C entry point shares one storage.
int record_c_error(Errc code, const char* function, const char* what) noexcept;
/// The same for an exception that is not a ferry::Error (a bug): Errc::Internal.
int record_unexpected_c_error(const char* function, const char* what) noexcept;

/// Runs `body` and turns every exception into an error code + last-error message.
template <class Body>
int guarded(const char* function, Body&& body) noexcept {
  try {
    body();
    return 0;
  } catch (const Error& e) {
    return record_c_error(e.code(), function, e.what());
  } catch (const std::bad_alloc&) {
    return record_c_error(Errc::NoMemory, function, kOutOfMemory);
  } catch (const std::exception& e) {
    return record_unexpected_c_error(function, e.what());
  } catch (...) {
    return record_unexpected_c_error(function, "unknown exception");
  }
}

}  // namespace ferry::detail
