// The entry of the coupler's collective calls: every rank arrives, or every rank is told.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "coupling/failure_notice.hpp"
#include "coupling/watchdog.hpp"
#include "ferry/error.hpp"

namespace ferry::coupling {

/// Collective over the run (the notice channel's communicator), at the start of a
/// collective call of the coupler (`call`: "Coupler::enddef", "Coupler::finalize"):
/// waits until every rank of the run has made the call, then agrees on `local` as
/// detail::agree does (every rank raises the error of the lowest failing rank). The
/// wait is a non-blocking reduction under `watchdog`, so a rank that never comes, or
/// fails elsewhere and says so, ends it with Errc::State instead of a hang.
///
/// Rank 0 counts the arrivals (one short message from every rank; `round` keeps the
/// calls apart and is the same on every rank). When the watchdog fires on rank 0, its
/// message names the ranks that did not come with their components (`components_of`,
/// per rank of the run) and it tells every rank so (they stop at once, and a rank
/// that arrives later stops on arrival). The other ranks allow rank 0 one second
/// more before they give up on their own; they tell rank 0 only, so that a late rank
/// 0 stops too. Either way every rank fails by itself: nobody need tell anyone more.
void agree_on_arrival(FailureNotice& notice, const Watchdog& watchdog, const char* call,
                      int round, const std::optional<Error>& local,
                      const std::vector<std::string>& components_of);

}  // namespace ferry::coupling
