#include "coupling/arrival.hpp"

#include <map>
#include <memory>

#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::coupling {

namespace {

constexpr int kArrivalTag = 7310;  // + round
// What the other ranks allow rank 0, whose message names the ranks that did not come.
constexpr double kRootGraceSeconds = 1.0;

// The buffers and requests of one agreement. MPI may still use them after a rank gave
// up (a late rank completes the reduction), so a failed agreement's stay alive.
struct Pending {
  int mine = 0;
  int first = 0;
  int token = 0;  // the arrival message
  MPI_Request reduction = MPI_REQUEST_NULL;
  MPI_Request arrival = MPI_REQUEST_NULL;  // rank 0: the receive of the next arrival
  std::vector<char> arrived;              // rank 0: per rank of the run
  int count = 1;                          // rank 0: ranks arrived, itself included
};

void keep_alive(std::unique_ptr<Pending> pending) {
  static std::vector<std::unique_ptr<Pending>> abandoned;
  abandoned.push_back(std::move(pending));
}

// Rank 0: records the arrivals received so far, reposting the receive.
void count_arrivals(const Comm& comm, Pending& p, int tag, bool block) {
  while (p.count < comm.size()) {
    int done = 0;
    MPI_Status status;
    if (block) {
      FERRY_CALL_MPI(MPI_Wait(&p.arrival, &status));
      done = 1;
    } else {
      FERRY_CALL_MPI(MPI_Test(&p.arrival, &done, &status));
    }
    if (!done) return;
    p.arrived[static_cast<std::size_t>(status.MPI_SOURCE)] = 1;
    if (++p.count < comm.size())
      FERRY_CALL_MPI(
          MPI_Irecv(&p.token, 1, MPI_INT, MPI_ANY_SOURCE, tag, comm.get(), &p.arrival));
  }
}

std::string absent_ranks(const Pending& p, const std::vector<std::string>& components_of) {
  std::map<std::string, std::vector<int>> by_component;
  for (std::size_t r = 0; r < p.arrived.size(); ++r)
    if (!p.arrived[r]) by_component[components_of[r]].push_back(static_cast<int>(r));
  std::vector<std::string> parts;
  for (const auto& [component, ranks] : by_component)
    parts.push_back(detail::cat(component, " (rank", ranks.size() > 1 ? "s " : " ",
                                detail::list_first(ranks, 8), ")"));
  return detail::join(parts, ", ");
}

}  // namespace

void agree_on_arrival(FailureNotice& notice, const Watchdog& watchdog, const char* call,
                      int round, const std::optional<Error>& local,
                      const std::vector<std::string>& components_of) {
  const Comm& comm = notice.comm();
  const int tag = kArrivalTag + round;
  const bool root = comm.rank() == 0;
  auto pending = std::make_unique<Pending>();
  Pending& p = *pending;
  // A rank told of a failure before it arrives takes no part.
  watchdog.check_notice();
  if (root) {
    p.arrived.assign(static_cast<std::size_t>(comm.size()), 0);
    p.arrived[0] = 1;
    if (comm.size() > 1)
      FERRY_CALL_MPI(
          MPI_Irecv(&p.token, 1, MPI_INT, MPI_ANY_SOURCE, tag, comm.get(), &p.arrival));
  } else {
    FERRY_CALL_MPI(MPI_Isend(&p.token, 1, MPI_INT, 0, tag, comm.get(), &p.arrival));
  }
  p.mine = local ? comm.rank() : comm.size();
  FERRY_CALL_MPI(
      MPI_Iallreduce(&p.mine, &p.first, 1, MPI_INT, MPI_MIN, comm.get(), &p.reduction));

  const double timeout = watchdog.timeout();
  try {
    const auto ready = [&] {
      if (root) count_arrivals(comm, p, tag, false);
      int done = 0;
      FERRY_CALL_MPI(MPI_Test(&p.reduction, &done, MPI_STATUS_IGNORE));
      return done != 0;
    };
    if (root) {
      watchdog.wait(ready, [&] {
        const std::string what = detail::cat(
            call, ": waited ", timeout, " s for every rank of the run to call ", call, "; ",
            absent_ranks(p, components_of),
            " did not. A component that never makes the call has stopped, is stuck, or skips "
            "it; raise watchdog.collective_timeout if it is only slow");
        notice.tell(failure_text(components_of[0], 0, call, what));
        return what;
      });
    } else {
      watchdog.with_timeout(timeout > 0 ? timeout + kRootGraceSeconds : timeout)
          .wait(ready, [&] {
            const std::string what = detail::cat(
                call, ": waited ", timeout, " s for every rank of the run to call ", call,
                "; some did not (rank 0 of the run names them, unless it is one of them). "
                "Raise watchdog.collective_timeout if a component is only slow");
            notice.tell(failure_text(components_of[static_cast<std::size_t>(comm.rank())],
                                     comm.rank(), call, what),
                        0);
            return what;
          });
    }
  } catch (...) {
    keep_alive(std::move(pending));
    throw;
  }
  // Everybody is here, so the arrival messages still on their way arrive at once.
  if (root)
    count_arrivals(comm, p, tag, true);
  else
    FERRY_CALL_MPI(MPI_Wait(&p.arrival, MPI_STATUS_IGNORE));
  detail::share_error(comm, p.first, local);
}

}  // namespace ferry::coupling
