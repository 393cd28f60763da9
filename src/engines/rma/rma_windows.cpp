#include "engines/rma/rma_windows.hpp"

#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::detail {

namespace {

std::size_t round_up(std::size_t bytes) {
  return (bytes + RmaWindows::kPartAlign - 1) / RmaWindows::kPartAlign * RmaWindows::kPartAlign;
}

}  // namespace

bool RmaWindows::fits(std::size_t bytes) const noexcept {
  return !windows_.empty() && windows_.back().used + round_up(bytes) <= windows_.back().size;
}

void RmaWindows::allocate(std::size_t bytes) {
  Window w;
  w.size = round_up(bytes);
  // Each rank's memory on its own pages, so that a part is as aligned as memory the
  // caller allocates.
  MPI_Info info = MPI_INFO_NULL;
  FERRY_CALL_MPI(MPI_Info_create(&info));
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  void* base = nullptr;
  int rc = MPI_Comm_dup(route_->node.get(), &w.comm);
  if (rc == MPI_SUCCESS)
    rc = MPI_Win_allocate_shared(static_cast<MPI_Aint>(w.size), 1, info, w.comm, &base,
                                 &w.window);
  MPI_Info_free(&info);
  if (rc != MPI_SUCCESS && w.comm != MPI_COMM_NULL) MPI_Comm_free(&w.comm);
  FERRY_CALL_MPI(rc);
  windows_.push_back(w);  // before anything can fail, so that close() frees it
  windows_.back().base = static_cast<char*>(base);
  FERRY_CALL_MPI(MPI_Win_set_errhandler(w.window, MPI_ERRORS_RETURN));
  FERRY_CALL_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, w.window));
}

RmaWindows::Part RmaWindows::take(std::size_t bytes) {
  FERRY_ASSERT(fits(bytes), "rma: a part of ", bytes, " bytes taken from a window without room");
  Window& w = windows_.back();
  Part part{w.window, w.base + w.used, w.used};
  w.used += round_up(bytes);
  return part;
}

void RmaWindows::close() {
  for (Window& w : windows_) {
    if (w.window == MPI_WIN_NULL) continue;
    FERRY_CALL_MPI(MPI_Win_unlock_all(w.window));
    FERRY_CALL_MPI(MPI_Win_free(&w.window));
    FERRY_CALL_MPI(MPI_Comm_free(&w.comm));
  }
  windows_.clear();
}

}  // namespace ferry::detail
