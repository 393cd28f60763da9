#include "coupling/failure_notice.hpp"

#include <algorithm>
#include <vector>

#include "util/format.hpp"
#include "util/mpi.hpp"

namespace ferry::coupling {

namespace {
constexpr int kNoticeTag = 7301;
// Long enough for eager sends to leave over any transport, short enough that a
// failing rank never lingers: the notice is a courtesy, the watchdog the guarantee.
constexpr double kTellSeconds = 1.0;
}  // namespace

std::string failure_text(const std::string& who, int rank, const std::string& call,
                         const std::string& what) {
  return detail::cat(who, " (rank ", rank, " of the run) failed in ", call, ": ", what);
}

FailureNotice::FailureNotice(const Comm& run) : comm_(Comm::dup(run.get())) {
  FERRY_CALL_MPI(MPI_Irecv(incoming_.data(), static_cast<int>(kMaxText), MPI_CHAR,
                           MPI_ANY_SOURCE, kNoticeTag, comm_.get(), &receive_));
}

FailureNotice::~FailureNotice() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized || receive_ == MPI_REQUEST_NULL) return;
  // Cancelling a receive is local: it completes at once, cancelled or matched.
  MPI_Cancel(&receive_);
  MPI_Wait(&receive_, MPI_STATUS_IGNORE);
}

const std::optional<std::string>& FailureNotice::poll() {
  if (receive_ == MPI_REQUEST_NULL) return received_;
  int arrived = 0;
  MPI_Status status;
  FERRY_CALL_MPI(MPI_Test(&receive_, &arrived, &status));
  if (arrived) {
    int length = 0;
    MPI_Get_count(&status, MPI_CHAR, &length);
    received_ = std::string(incoming_.data(), static_cast<std::size_t>(std::max(length, 0)));
  }
  return received_;
}

void FailureNotice::tell(const std::string& text, int only) {
  if (!comm_.valid() || told_) return;
  told_ = true;
  // MPI reads the text until each send completes, possibly after this returns.
  outgoing_ = text.substr(0, kMaxText);
  const int length = static_cast<int>(outgoing_.size());
  std::vector<MPI_Request> sends;
  for (int rank = 0; rank < comm_.size(); ++rank) {
    if (rank == comm_.rank() || (only >= 0 && rank != only)) continue;
    MPI_Request request = MPI_REQUEST_NULL;
    // A failing rank tells whom it can: one send that fails does not stop the others.
    if (MPI_Isend(outgoing_.data(), length, MPI_CHAR, rank, kNoticeTag, comm_.get(), &request) ==
        MPI_SUCCESS)
      sends.push_back(request);
  }
  const double start = MPI_Wtime();
  int done = sends.empty() ? 1 : 0;
  while (!done && MPI_Wtime() - start < kTellSeconds)
    if (MPI_Testall(static_cast<int>(sends.size()), sends.data(), &done, MPI_STATUSES_IGNORE) !=
        MPI_SUCCESS)
      break;
  for (MPI_Request& request : sends)
    if (request != MPI_REQUEST_NULL) MPI_Request_free(&request);
}

}  // namespace ferry::coupling
