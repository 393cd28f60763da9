#include "ferry/comm.hpp"

#include <utility>

#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry {

namespace {
void require_mpi(const char* what) {
  int initialized = 0;
  int finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  FERRY_CHECK(initialized && !finalized, Errc::State, what,
              ": MPI is not initialised (or already finalised). Call MPI_Init before "
              "using ferry and MPI_Finalize after destroying every ferry object");
}
}  // namespace

Comm::Comm(MPI_Comm comm, bool owning) : comm_(comm), owning_(owning) {
  if (comm_ != MPI_COMM_NULL) {
    FERRY_CALL_MPI(MPI_Comm_rank(comm_, &rank_));
    FERRY_CALL_MPI(MPI_Comm_size(comm_, &size_));
  }
}

Comm Comm::dup(MPI_Comm comm) {
  require_mpi("Comm::dup");
  FERRY_CHECK(comm != MPI_COMM_NULL, Errc::Arg,
              "Comm::dup: the communicator is MPI_COMM_NULL. Pass the communicator of the "
              "ranks that take part");
  MPI_Comm copy = MPI_COMM_NULL;
  FERRY_CALL_MPI(MPI_Comm_dup(comm, &copy));
  // Errors on ferry's private communicator come back as codes, never abort the job.
  MPI_Comm_set_errhandler(copy, MPI_ERRORS_RETURN);
  return Comm(copy, true);
}

Comm Comm::view(MPI_Comm comm) {
  require_mpi("Comm::view");
  return Comm(comm, false);
}

Comm Comm::adopt(MPI_Comm comm) {
  if (comm != MPI_COMM_NULL) MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  return Comm(comm, true);
}

Comm::Comm(Comm&& other) noexcept
    : comm_(std::exchange(other.comm_, MPI_COMM_NULL)),
      owning_(std::exchange(other.owning_, false)),
      rank_(std::exchange(other.rank_, -1)),
      size_(std::exchange(other.size_, 0)) {}

Comm& Comm::operator=(Comm&& other) noexcept {
  if (this != &other) {
    release();
    comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
    owning_ = std::exchange(other.owning_, false);
    rank_ = std::exchange(other.rank_, -1);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

Comm::~Comm() { release(); }

void Comm::release() noexcept {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (owning_ && comm_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm_);
  comm_ = MPI_COMM_NULL;
  owning_ = false;
}

}  // namespace ferry
