// Agreeing on setup errors across ranks, so every rank fails the same way.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/error.hpp"
#include "util/check.hpp"

namespace ferry::detail {

/// Collective over `comm`. If any rank passes an error, every rank throws the
/// error of the lowest failing rank (same code, same message, that rank's number);
/// otherwise returns. One MPI_Allreduce when nobody failed.
void agree(const Comm& comm, const std::optional<Error>& local);

/// Collective over `comm`, once every rank knows `first`, the lowest rank that failed
/// (comm.size() if none did): throws on every rank the error `local` of rank `first`,
/// or returns. For agreements that find `first` their own way (a non-blocking
/// reduction under a watchdog).
void share_error(const Comm& comm, int first, const std::optional<Error>& local);

/// Runs `step` on this rank: the ferry::Error (or allocation failure) it threw, if any.
template <class Step>
std::optional<Error> error_of(const Comm& comm, Step&& step) {
  try {
    step();
  } catch (const Error& e) {
    return e;
  } catch (const std::bad_alloc&) {
    return Error(Errc::NoMemory, cat(kOutOfMemory, " (rank ", comm.rank(), ")"), comm.rank());
  }
  return std::nullopt;
}

/// Collective: runs `step` and agrees on whether it threw a ferry::Error (or an
/// allocation failure) on any rank.
template <class Step>
void agree_on(const Comm& comm, Step&& step) {
  agree(comm, error_of(comm, step));
}

/// In agree_with_spread: a rank that accepts any value of a setting (an empty array
/// fits any number of columns).
inline constexpr std::int64_t kAnyValue = std::numeric_limits<std::int64_t>::min();

/// The lowest and highest value of a setting over the ranks (both kAnyValue when every
/// rank accepts any).
struct ValueSpread {
  std::int64_t lowest;
  std::int64_t highest;
  bool same() const { return lowest == highest; }
};

/// Collective: agree() on `local` and, in the same MPI_Allreduce, the spread of each of
/// `values` (this rank's; kAnyValue: any) over the ranks, for settings that every rank
/// must pass alike. The caller raises on a spread (the same on every rank), in its
/// own words.
std::vector<ValueSpread> agree_with_spread(const Comm& comm, const std::optional<Error>& local,
                                           const std::vector<std::int64_t>& values);

/// A value every rank must pass alike (a method, a count), named for the error.
struct SameSetting {
  const char* name;
  std::int64_t value;
  /// Names a value in the message (an enum's name); nullptr: the number.
  const char* (*value_name)(std::int64_t) = nullptr;
};

/// A setting whose values are an Enum's, named in messages by `Name`.
template <class Enum, const char* (*Name)(Enum) noexcept>
SameSetting enum_setting(const char* setting, Enum value) {
  return {setting, static_cast<std::int64_t>(value),
          [](std::int64_t v) { return Name(static_cast<Enum>(v)); }};
}

/// `value` of `setting` as a message shows it.
std::string setting_value(const SameSetting& setting, std::int64_t value);

/// Collective: runs `step`, agrees on whether it threw (as agree_on) and then that
/// every rank passes the same `settings`, in one MPI_Allreduce: if one differs, every
/// rank throws Errc::Arg "<where>: the ranks pass different <name> (from <min> to
/// <max>). ...".
template <class Step>
void agree_on_same(const Comm& comm, const char* where,
                   std::initializer_list<SameSetting> settings, Step&& step) {
  std::vector<std::int64_t> values;
  for (const SameSetting& s : settings) values.push_back(s.value);
  const std::vector<ValueSpread> spread = agree_with_spread(comm, error_of(comm, step), values);
  std::size_t i = 0;
  for (const SameSetting& s : settings) {
    FERRY_CHECK(spread[i].same(), Errc::Arg, where, ": the ranks pass different ", s.name,
                " (from ", setting_value(s, spread[i].lowest), " to ",
                setting_value(s, spread[i].highest), "). Pass the same ", s.name,
                " on every rank");
    ++i;
  }
}

}  // namespace ferry::detail
