#include "io/rank_order.hpp"

#include <filesystem>
#include <new>
#include <optional>
#include <system_error>

#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::io {

namespace {
// The communicator is private to the caller, so one fixed tag cannot collide.
constexpr int kTokenTag = 1;
}  // namespace

void in_rank_order(const Comm& comm, const std::function<void()>& step) {
  // The token says whether every earlier step succeeded.
  int ok = 1;
  if (comm.rank() > 0)
    FERRY_CALL_MPI(MPI_Recv(&ok, 1, MPI_INT, comm.rank() - 1, kTokenTag, comm.get(),
                            MPI_STATUS_IGNORE));
  std::optional<Error> failure;
  if (ok) {
    try {
      step();
    } catch (const Error& e) {
      failure = e;
    } catch (const std::bad_alloc&) {
      failure = Error(Errc::NoMemory, "out of memory while accessing a file", comm.rank());
    }
    ok = failure ? 0 : 1;
  }
  if (comm.rank() + 1 < comm.size())
    FERRY_CALL_MPI(MPI_Send(&ok, 1, MPI_INT, comm.rank() + 1, kTokenTag, comm.get()));
  ferry::detail::agree(comm, failure);
}

void move_into_place(const Comm& comm, const char* caller, const std::string& partial,
                     const std::string& path) {
  ferry::detail::agree_on(comm, [&] {
    if (comm.rank() != 0) return;
    std::error_code error;
    std::filesystem::rename(partial, path, error);
    FERRY_CHECK(!error, Errc::Io, caller, ": cannot rename \"", partial, "\" to \"", path,
                "\": ", error.message(), ". Check the permissions of the directory");
  });
}

}  // namespace ferry::io
