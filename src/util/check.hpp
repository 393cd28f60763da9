// FERRY_CHECK for user input and FERRY_ASSERT for internal invariants.
#pragma once

#include "ferry/error.hpp"
#include "util/format.hpp"

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
