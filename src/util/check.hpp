// FERRY_CHECK for user input and FERRY_ASSERT for internal invariants.
#pragma once

#include "ferry/error.hpp"
#include "util/format.hpp"

namespace ferry::detail {
/// What every language says when an allocation inside ferry fails (std::bad_alloc,
/// raised as Errc::NoMemory / FERRY_ERR_NO_MEMORY / ferry.Error).
inline constexpr const char* kOutOfMemory =
    "out of memory: an allocation inside ferry failed. Free memory, or use more ranks or "
    "smaller layouts and fields";
}  // namespace ferry::detail

/// Checks user input; always on. Throws ferry::Error(code, message).
#define FERRY_CHECK(cond, code, ...)                                   \
  do {                                                                 \
    if (!(cond)) throw ::ferry::Error((code), ::ferry::detail::cat(__VA_ARGS__)); \
  } while (0)

#if !defined(NDEBUG) || defined(FERRY_ENABLE_ASSERTIONS)
/// Checks an internal invariant; a failure is a bug and throws Errc::Internal.
#define FERRY_ASSERT(cond, ...)                                                      \
  do {                                                                               \
    if (!(cond))                                                                     \
      throw ::ferry::Error(::ferry::Errc::Internal,                                  \
                           ::ferry::detail::cat(__FILE__, ":", __LINE__, ": ", #cond, \
                                                " failed: ", __VA_ARGS__,            \
                                                ". This is a bug in ferry, please report it")); \
  } while (0)
#else
#define FERRY_ASSERT(cond, ...) \
  do {                          \
  } while (0)
#endif
