// Every rank of an exchange runs the same engine: checked in the fields' agreement.
#pragma once

#include <cstdint>
#include <string>

#include "ferry/comm.hpp"
#include "util/agree.hpp"

namespace ferry::detail {

/// The engine's name as one non-negative number (never kAnyValue), for
/// agree_with_spread: ranks that run different engines would wait for each other's
/// messages for ever instead of failing.
std::int64_t engine_fingerprint(const std::string& engine);

/// Collective over `comm`, on every rank once the ranks are known to pass different
/// engines (`spread` of engine_fingerprint over the ranks): every rank raises the same
/// Errc::Arg naming two of the engines and the lowest ranks that passed them. `caller`
/// starts the message ("Exchange").
[[noreturn]] void report_different_engines(const Comm& comm, const std::string& engine,
                                           ValueSpread spread, const char* caller);

}  // namespace ferry::detail
