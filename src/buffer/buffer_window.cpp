#include "buffer/buffer_window.hpp"

#include <cstring>
#include <optional>
#include <utility>

#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::detail {

namespace {

// An info object freed on scope exit.
class Info {
 public:
  Info() { FERRY_CALL_MPI(MPI_Info_create(&info_)); }
  Info(const Info&) = delete;
  Info& operator=(const Info&) = delete;
  ~Info() { MPI_Info_free(&info_); }
  void set(const char* key, const char* value) { FERRY_CALL_MPI(MPI_Info_set(info_, key, value)); }
  MPI_Info get() const { return info_; }

 private:
  MPI_Info info_ = MPI_INFO_NULL;
};

}  // namespace

BufferWindow::BufferWindow(const Comm& comm, MPI_Aint bytes) : comm_(comm.get()) {
  Info info;
  // Each control word sees one update op (MPI_REPLACE or MPI_MAX) besides MPI_NO_OP
  // reads, which lets the library use hardware atomics.
  info.set("accumulate_ops", "same_op_no_op");
  void* base = nullptr;
  FERRY_CALL_MPI(MPI_Win_allocate(bytes, 1, info.get(), comm.get(), &base, &win_));
  base_ = static_cast<char*>(base);
  try {
    FERRY_CALL_MPI(MPI_Win_set_errhandler(win_, MPI_ERRORS_RETURN));
    std::optional<Error> local;
    int* model = nullptr;
    int found = 0;
    FERRY_CALL_MPI(MPI_Win_get_attr(win_, MPI_WIN_MODEL, &model, &found));
    if (!found || *model != MPI_WIN_UNIFIED)
      local = Error(Errc::Unsupported,
                    cat("TimeSeriesBuffer: the MPI library gives the buffer's window the ",
                        found ? "separate" : "unknown",
                        " memory model on rank ", comm.rank(),
                        "; the buffer needs MPI_WIN_UNIFIED (MPI-3 RMA with coherent memory, "
                        "as on every cache-coherent machine). Use an MPI library or transport "
                        "that offers the unified model"),
                    comm.rank());
    agree(comm, local);
    if (bytes > 0) std::memset(base_, 0, static_cast<std::size_t>(bytes));
    FERRY_CALL_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win_));
    FERRY_CALL_MPI(MPI_Win_sync(win_));
  } catch (...) {
    // Freeing waits for every rank, and an MPI error may be this rank's alone: the
    // window is left to MPI_Finalize.
    release();
    throw;
  }
}

BufferWindow::BufferWindow(BufferWindow&& other) noexcept
    : comm_(std::exchange(other.comm_, MPI_COMM_NULL)),
      win_(std::exchange(other.win_, MPI_WIN_NULL)),
      base_(std::exchange(other.base_, nullptr)) {}

BufferWindow& BufferWindow::operator=(BufferWindow&& other) noexcept {
  if (this != &other) {
    release();
    comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
    win_ = std::exchange(other.win_, MPI_WIN_NULL);
    base_ = std::exchange(other.base_, nullptr);
  }
  return *this;
}

BufferWindow::~BufferWindow() = default;

void BufferWindow::free() {
  if (win_ == MPI_WIN_NULL) return;
  FERRY_CALL_MPI(MPI_Win_unlock_all(win_));
  FERRY_CALL_MPI(MPI_Barrier(comm_));
  FERRY_CALL_MPI(MPI_Win_free(&win_));
  release();
}

void BufferWindow::release() noexcept {
  win_ = MPI_WIN_NULL;
  base_ = nullptr;
}

void BufferWindow::fetch(int target, MPI_Aint disp, int count, std::int64_t* out) const {
  FERRY_CALL_MPI(MPI_Get_accumulate(nullptr, 0, MPI_INT64_T, out, count, MPI_INT64_T, target, disp,
                                    count, MPI_INT64_T, MPI_NO_OP, win_));
}

void BufferWindow::update(int target, MPI_Aint disp, int count, const std::int64_t* values,
                          MPI_Op op) const {
  FERRY_CALL_MPI(
      MPI_Accumulate(values, count, MPI_INT64_T, target, disp, count, MPI_INT64_T, op, win_));
}

void BufferWindow::flush(int target) const { FERRY_CALL_MPI(MPI_Win_flush(target, win_)); }

void BufferWindow::flush_local(int target) const {
  FERRY_CALL_MPI(MPI_Win_flush_local(target, win_));
}

void BufferWindow::sync() const { FERRY_CALL_MPI(MPI_Win_sync(win_)); }

}  // namespace ferry::detail
