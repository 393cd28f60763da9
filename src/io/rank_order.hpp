// Running a step on one rank at a time, in rank order (serial access to one file).
#pragma once

#include <functional>
#include <string>

#include "ferry/comm.hpp"

namespace ferry::io {

/// Collective over `comm`: runs `step` on rank 0, then on rank 1, and so on, each
/// rank starting when the previous one has finished (a token message on `comm`,
/// which must be private to the caller). After a step fails, the later ranks skip
/// theirs but still pass the token on; then every rank raises the first failure
/// (ferry::detail::agree), so no rank waits for a token that never comes.
void in_rank_order(const Comm& comm, const std::function<void()>& step);

/// Collective over `comm`: rank 0 renames the finished file `partial` to `path`, so a
/// reader never sees a half-written file; a failure raises Errc::Io on every rank.
void move_into_place(const Comm& comm, const char* caller, const std::string& partial,
                     const std::string& path);

}  // namespace ferry::io
