// Logging: FERRY_LOG_WARN / FERRY_LOG_INFO / FERRY_LOG_DEBUG to stderr, with a rank prefix.
#pragma once

#include <string>

#include "util/format.hpp"

namespace ferry::detail {

/// How much ferry says. Messages of a level are printed when the chosen level is
/// at least that high.
enum class LogLevel : int { None = 0, Warn = 1, Info = 2, Debug = 3 };

/// The level chosen by $FERRY_LOG_LEVEL (none, warn, info, debug; warn if unset),
/// read once per process.
LogLevel log_level() noexcept;

/// True if a message of `level` from `rank` (in the communicator of the code that
/// logs; -1 if it has none) is printed: the level is enabled, and the rank is 0 or
/// -1, or $FERRY_LOG_RANKS is "all".
bool log_enabled(LogLevel level, int rank) noexcept;

/// Writes "ferry[rank R] <level>: <message>" and a newline to stderr in one call.
/// Use the macros, which build the message only when it is printed.
void log_write(LogLevel level, int rank, const std::string& message);

}  // namespace ferry::detail

#define FERRY_LOG_AT(level, rank, ...)                                        \
  do {                                                                        \
    if (::ferry::detail::log_enabled((level), (rank)))                        \
      ::ferry::detail::log_write((level), (rank), ::ferry::detail::cat(__VA_ARGS__)); \
  } while (0)

/// Something the user should know about, though ferry carries on (an ignored file).
#define FERRY_LOG_WARN(rank, ...) FERRY_LOG_AT(::ferry::detail::LogLevel::Warn, rank, __VA_ARGS__)
/// What ferry decided and why (an engine choice and its timings).
#define FERRY_LOG_INFO(rank, ...) FERRY_LOG_AT(::ferry::detail::LogLevel::Info, rank, __VA_ARGS__)

#ifdef NDEBUG
// Compiled out of release builds, but still type-checked so it cannot rot.
#define FERRY_LOG_DEBUG(rank, ...)                                             \
  do {                                                                         \
    if (false) FERRY_LOG_AT(::ferry::detail::LogLevel::Debug, rank, __VA_ARGS__); \
  } while (0)
#else
/// Details for developers (every timing sample); only in builds without NDEBUG.
#define FERRY_LOG_DEBUG(rank, ...) FERRY_LOG_AT(::ferry::detail::LogLevel::Debug, rank, __VA_ARGS__)
#endif
