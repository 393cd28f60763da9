// The preamble of every C entry point, written once: the function's name for its
// messages, the exception firewall, and the checks of its handles and C arguments.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "capi/firewall.hpp"
#include "ferry/datatype.hpp"
#include "ferry/engine_options.hpp"
#include "ferry/ferry.h"
#include "util/check.hpp"

namespace ferry::detail {

/// One call of a C function: every check raises Errc::Arg or Errc::State with a
/// message that starts with the function's name.
///
/// Handles name themselves in messages with `static constexpr const char* kWhat`.
/// A handle made in two steps (create gathers fields and options, then a collective
/// setup builds the C++ object) also names its setup function, `kSetup`, and keeps
/// the built object in a `std::optional` member `object`.
class CCall {
 public:
  explicit CCall(const char* function) noexcept : function_(function) {}
  const char* function() const noexcept { return function_; }

  /// The handle's struct; Errc::Arg when the handle is NULL.
  template <class Handle>
  Handle& handle(Handle* h) const {
    return handle(h, Handle::kWhat);
  }
  /// The same for a handle the message calls `what` ("source layout").
  template <class Handle>
  Handle& handle(Handle* h, const char* what) const {
    FERRY_CHECK(h != nullptr, Errc::Arg, function_, ": ", what, " is NULL. Create it first");
    return *h;
  }
  /// A two-step handle before its setup: Errc::State once it is set up.
  template <class Handle>
  Handle& unbuilt(Handle* h) const {
    Handle& checked = handle(h);
    FERRY_CHECK(!checked.object.has_value(), Errc::State, function_, ": the ", Handle::kWhat,
                " is already set up; add fields and options before ", Handle::kSetup);
    return checked;
  }
  /// The object a two-step handle's setup built: Errc::State before the setup.
  template <class Handle>
  auto& built(Handle* h) const {
    Handle& checked = handle(h);
    FERRY_CHECK(checked.object.has_value(), Errc::State, function_, ": the ", Handle::kWhat,
                " is not set up. Call ", Handle::kSetup, " first");
    return *checked.object;
  }

  /// What an output pointer points to; Errc::Arg when it is NULL.
  template <class T>
  T& out(T* pointer) const {
    FERRY_CHECK(pointer != nullptr, Errc::Arg, function_, ": output pointer is NULL");
    return *pointer;
  }
  /// The `count` values of a C array, which may be NULL only when it is empty.
  template <class T>
  std::vector<T> array(const T* values, std::int64_t count, const std::string& what) const {
    FERRY_CHECK(count >= 0 && (values != nullptr || count == 0), Errc::Arg, function_, ": ",
                what, " is NULL (or its length ", count, " is negative)");
    return std::vector<T>(values, values + count);
  }
  /// Copies `values` to the C array `out`, which may be NULL only when there are none.
  template <class T>
  void copy_out(const std::vector<T>& values, T* out, const char* what) const {
    if (values.empty()) return;
    FERRY_CHECK(out != nullptr, Errc::Arg, function_, ": ", what, " is NULL; need room for ",
                values.size(), " values");
    std::copy(values.begin(), values.end(), out);
  }
  /// A C string; Errc::Arg when it is NULL.
  std::string text(const char* s, const char* what) const {
    FERRY_CHECK(s != nullptr, Errc::Arg, function_, ": ", what, " is NULL");
    return s;
  }
  /// A communicator; Errc::Arg for MPI_COMM_NULL.
  MPI_Comm comm(MPI_Comm comm) const {
    FERRY_CHECK(comm != MPI_COMM_NULL, Errc::Arg, function_, ": comm is MPI_COMM_NULL");
    return comm;
  }
  /// `value` as an Enum whose enumerators are 0 .. last; `names` tells the caller the C
  /// constants to use instead of a value out of range.
  template <class Enum>
  Enum choice(int value, int last, const char* what, const char* names) const {
    FERRY_CHECK(value >= 0 && value <= last, Errc::Arg, function_, ": unknown ", what, " ",
                value, ". Use ", names);
    return static_cast<Enum>(value);
  }
  /// `type`, a FERRY_TYPE_* constant, as a Datatype.
  Datatype datatype(int type) const {
    return choice<Datatype>(type, FERRY_TYPE_INT64, "type",
                            "FERRY_TYPE_FLOAT64, FLOAT32, INT32 or INT64");
  }
  /// Sets an engine option from C strings.
  void set_option(EngineOptions& options, const char* key, const char* value) const {
    FERRY_CHECK(key && value, Errc::Arg, function_, ": key or value is NULL");
    options.values[key] = value;
  }

 private:
  const char* function_;
};

/// The body of C function `function`: runs body(call) under the firewall and returns
/// FERRY_SUCCESS or the error's code (its message kept as the last error).
template <class Body>
int c_call(const char* function, Body&& body) noexcept {
  const CCall call(function);
  return guarded(function, [&] { body(call); });
}

/// The body of a ferry_*_create: *out is NULL until make(call) has returned the new
/// handle, so a failed call leaves NULL. Errc::Arg when `out` is NULL. (A collective
/// create that agrees on its arguments across ranks checks `out` inside that
/// agreement instead, with CCall::out.)
template <class Handle, class Make>
int create_handle(const char* function, Handle** out, Make&& make) noexcept {
  return c_call(function, [&](const CCall& call) {
    call.out(out) = nullptr;
    *out = make(call);
  });
}

/// The body of a ferry_*_destroy: deletes *handle and sets it to NULL. A NULL
/// pointer or handle is not an error.
template <class Handle>
int destroy_handle(const char* function, Handle** handle) noexcept {
  return c_call(function, [&](const CCall&) {
    if (handle == nullptr) return;
    delete *handle;
    *handle = nullptr;
  });
}

/// A C mask (int per field, non-zero: move it) as the bytes the C++ calls take, in
/// `bytes` (sized at setup, so nothing is allocated per exchange); NULL stays NULL.
inline const std::uint8_t* mask_bytes(const int* mask, std::vector<std::uint8_t>& bytes) {
  if (mask == nullptr) return nullptr;
  for (std::size_t f = 0; f < bytes.size(); ++f) bytes[f] = mask[f] != 0 ? 1 : 0;
  return bytes.data();
}

}  // namespace ferry::detail
