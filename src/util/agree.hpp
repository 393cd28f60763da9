// Agreeing on setup errors across ranks, so every rank fails the same way.
#pragma once

#include <optional>

#include "ferry/comm.hpp"
#include "ferry/error.hpp"

namespace ferry::detail {

/// Collective over `comm`. If any rank passes an error, every rank throws the
/// error of the lowest failing rank (same code, same message, that rank's number);
/// otherwise returns. One MPI_Allreduce when nobody failed.
void agree(const Comm& comm, const std::optional<Error>& local);

/// Collective: runs `step` and agrees on whether it threw a ferry::Error (or an
/// allocation failure) on any rank.
template <class Step>
void agree_on(const Comm& comm, Step&& step) {
  std::optional<Error> local;
  try {
    step();
  } catch (const Error& e) {
    local = e;
  } catch (const std::bad_alloc&) {
    local = Error(Errc::NoMemory, "out of memory while setting up", comm.rank());
  }
  agree(comm, local);
}

}  // namespace ferry::detail
