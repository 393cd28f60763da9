#include "buffer_bench.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>

#include "ferry/comm.hpp"
#include "ferry/time_series_buffer.hpp"
#include "json_line.hpp"
#include "progress.hpp"
#include "statistics.hpp"
#include "text_table.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"
#include "util/streaming_copy.hpp"

namespace ferry::bench {

namespace {

constexpr int kTag = 7301;
constexpr int kRequester = 0;
constexpr int kWorker = 1;
// Untimed steps before the timed ones (negative step numbers), so that mapping and
// first touch of memory are not timed; the buffer and the ring copy warm up a
// whole ring instead.
constexpr std::int64_t kWarmupSteps = 1;

// Called through a volatile pointer so the compiler cannot drop a copy nobody reads.
void* (*volatile g_copy)(void*, const void*, std::size_t) = std::memcpy;

void* stream(void* dst, const void* src, std::size_t bytes) {
  detail::streaming_copy(dst, src, bytes);
  return dst;
}

// The ring-huge bound's slots: private anonymous memory on 2 MiB boundaries, advised
// for transparent huge pages (Linux) and faulted in, so the kernel backs it with
// 2 MiB pages where it can. Elsewhere, or if mapping fails, plain heap memory.
class HugePageRing {
 public:
  explicit HugePageRing(std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::size_t kHuge = std::size_t{2} << 20;
    length_ = (bytes + kHuge - 1) / kHuge * kHuge;
    // One huge page more than needed; the unaligned ends are given back.
    void* raw = mmap(nullptr, length_ + kHuge, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw != MAP_FAILED) {
      char* const first = static_cast<char*>(raw);
      const std::size_t head =
          (kHuge - reinterpret_cast<std::uintptr_t>(first) % kHuge) % kHuge;
      base_ = first + head;
      if (head > 0) munmap(first, head);
      munmap(base_ + length_, kHuge - head);
      madvise(base_, length_, MADV_HUGEPAGE);
      std::memset(base_, 0, length_);
      return;
    }
#endif
    fallback_.assign(bytes, 0);
    base_ = fallback_.data();
  }
  HugePageRing(const HugePageRing&) = delete;
  HugePageRing& operator=(const HugePageRing&) = delete;
  ~HugePageRing() {
#if defined(__linux__)
    if (fallback_.empty()) munmap(base_, length_);
#endif
  }

  char* data() const { return base_; }

  // How much of the ring the kernel backs with huge pages: AnonHugePages of its
  // mapping in /proc/self/smaps over its length; 0 where that is unknown.
  double huge_page_share() const {
    if (!fallback_.empty()) return 0;
    std::ifstream smaps("/proc/self/smaps");
    const auto begin = reinterpret_cast<std::uintptr_t>(base_);
    bool inside = false;
    double kib = 0;
    for (std::string line; std::getline(smaps, line);) {
      unsigned long low = 0;
      unsigned long high = 0;
      char dash = 0;
      if (std::sscanf(line.c_str(), "%lx%c%lx", &low, &dash, &high) == 3 && dash == '-') {
        inside = begin >= low && begin < high;
      } else if (inside && line.rfind("AnonHugePages:", 0) == 0) {
        kib = std::strtod(line.c_str() + 14, nullptr);
      }
    }
    return std::min(1.0, kib * 1024 / static_cast<double>(length_));
  }

 private:
  char* base_ = nullptr;
  std::size_t length_ = 0;
  std::vector<char> fallback_;
};

// One method's run, each number filled by the rank that knows it.
struct Run {
  double requester_median = 0;
  double requester_mean = 0;
  double worker_seconds = 0;
  double calls = 0;
  double wrong_values = 0;
};

// What a run measured on this rank, before the two ranks combine it.
struct Samples {
  std::vector<double> requester;  // per timed step
  double worker_seconds = 0;
  double calls = 0;
  double wrong_values = 0;
};

// The requester's array and the worker's sub-array, and the values they hold.
class BufferBench {
 public:
  BufferBench(MPI_Comm user_comm, const BufferBenchConfig& config)
      : comm_(Comm::dup(user_comm)), config_(config) {
    FERRY_CHECK(comm_.size() == 2, Errc::Arg, "bench buffer: needs exactly 2 ranks (requester and "
                "worker); got ", comm_.size(), ". Run it as mpiexec -n 2 ferry bench buffer");
    FERRY_CHECK(config.size >= 6 && config.max_n >= 1 && config.steps_per_n >= 1 &&
                    config.capacity_mib >= 1 && config.repeat >= 1,
                Errc::Arg, "bench buffer: need size >= 6, max N >= 1, steps >= 1, capacity >= 1 "
                "MiB and repeat >= 1; got ", config.size, ", ", config.max_n, ", ",
                config.steps_per_n, ", ", config.capacity_mib, " and ", config.repeat);
    const std::int64_t offset = config.size / 6;
    sub_extent_ = config.size - 2 * offset;
    sub_box_ = Box{{offset, offset}, {offset + sub_extent_, offset + sub_extent_}};
    step_bytes_ = config.size * config.size * static_cast<std::int64_t>(sizeof(std::int32_t));
    ring_slots_ = (config.capacity_mib << 20) / step_bytes_;
    FERRY_CHECK(ring_slots_ >= 1, Errc::Arg, "bench buffer: a ring of ", config.capacity_mib,
                " MiB holds no step of ", step_bytes_, " bytes. Give a larger --capacity-mib");
    if (requester()) {
      array_.assign(static_cast<std::size_t>(config.size * config.size), 0);
      copy_.assign(static_cast<std::size_t>(step_bytes_), 0);
      ring_.assign(static_cast<std::size_t>(ring_slots_ * step_bytes_), 0);
      huge_ring_ =
          std::make_unique<HugePageRing>(static_cast<std::size_t>(ring_slots_ * step_bytes_));
      huge_page_share_ = huge_ring_->huge_page_share();
    } else {
      sub_.assign(static_cast<std::size_t>(sub_values()), 0);
    }
    const int sizes[2] = {mpi_int(config.size), mpi_int(config.size)};
    const int subsizes[2] = {mpi_int(sub_extent_), mpi_int(sub_extent_)};
    const int starts[2] = {mpi_int(offset), mpi_int(offset)};
    FERRY_CALL_MPI(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT32_T,
                                            &sub_type_));
    FERRY_CALL_MPI(MPI_Type_commit(&sub_type_));
    FERRY_CALL_MPI(MPI_Bcast(&huge_page_share_, 1, MPI_DOUBLE, kRequester, comm_.get()));
  }
  BufferBench(const BufferBench&) = delete;
  BufferBench& operator=(const BufferBench&) = delete;
  ~BufferBench() { MPI_Type_free(&sub_type_); }

  std::vector<BufferBenchRow> run() {
    const char* const methods[] = {"memcpy",    "ring-copy", "ring-stream", "ring-huge",
                                   "two-sided", "one-sided", "buffer"};
    constexpr int kMethods = 7;
    std::vector<BufferBenchRow> rows;
    for (int n = 1; n <= config_.max_n; ++n) {
      const std::int64_t steps = static_cast<std::int64_t>(n) * config_.steps_per_n;
      // Rotation: load from other processes hits every method alike.
      std::vector<Run> runs[kMethods];
      progress().stage(detail::cat("N = ", n, " of ", config_.max_n, ": ", steps, " steps, ",
                                   kMethods, " methods"));
      for (int r = 0; r < config_.repeat; ++r) {
        runs[0].push_back(combine(bare_copy(steps), "memcpy"));
        runs[1].push_back(combine(ring_copy(steps, ring_.data(), g_copy), "ring-copy"));
        runs[2].push_back(combine(ring_copy(steps, ring_.data(), stream), "ring-stream"));
        runs[3].push_back(combine(ring_copy(steps, huge_ring(), stream), "ring-huge"));
        runs[4].push_back(combine(two_sided(steps), "two-sided"));
        runs[5].push_back(combine(one_sided(steps), "one-sided"));
        runs[6].push_back(combine(buffer(steps), "buffer"));
      }
      for (int m = 0; m < kMethods; ++m) {
        BufferBenchRow row;
        row.method = methods[m];
        row.n = n;
        row.steps = steps;
        row.requester_median_seconds = median(runs[m], &Run::requester_median);
        row.requester_mean_seconds = median(runs[m], &Run::requester_mean);
        row.worker_seconds = median(runs[m], &Run::worker_seconds) / static_cast<double>(steps);
        const double calls = median(runs[m], &Run::calls);
        row.steps_per_call = calls > 0 ? static_cast<double>(steps) / calls : 0.0;
        row.memcpy_seconds = median(runs[0], &Run::requester_median);
        row.ring_copy_seconds = median(runs[1], &Run::requester_median);
        if (m == 3) row.huge_page_share = huge_page_share_;  // ring-huge
        rows.push_back(row);
      }
    }
    return rows;
  }

 private:
  static int mpi_int(std::int64_t v) { return detail::mpi_count<int>(v, "bench buffer: extent"); }
  bool requester() const { return comm_.rank() == kRequester; }
  char* huge_ring() const { return huge_ring_ ? huge_ring_->data() : nullptr; }
  std::int64_t sub_values() const { return sub_extent_ * sub_extent_; }

  static double median(const std::vector<Run>& runs, double Run::*field) {
    std::vector<double> values;
    for (const Run& r : runs) values.push_back(r.*field);
    return summarize(std::move(values)).median;
  }

  // The model's "calculation": every value changes with the step.
  void compute(std::int32_t* a, std::int64_t step) const {
    const std::int64_t n = config_.size * config_.size;
    const auto shift = static_cast<std::int32_t>(7 * step);
    for (std::int64_t k = 0; k < n; ++k) a[k] = static_cast<std::int32_t>(k) + shift;
  }

  // Samples of one received step: its corners and centre.
  int wrong_values(const std::int32_t* sub, std::int64_t step) const {
    const std::int64_t e = sub_extent_;
    int wrong = 0;
    for (const auto& [i, j] : {std::pair<std::int64_t, std::int64_t>{0, 0}, {0, e - 1},
                               {e - 1, 0}, {e - 1, e - 1}, {e / 2, e / 2}}) {
      const std::int64_t k = (sub_box_.start[0] + i) * config_.size + sub_box_.start[1] + j;
      wrong += sub[i * e + j] != static_cast<std::int32_t>(k + 7 * step) ? 1 : 0;
    }
    return wrong;
  }

  // Both ranks' numbers on both ranks; a wrong value on the worker fails every rank.
  Run combine(const Samples& mine, const char* method) {
    double total = 0;
    for (double s : mine.requester) total += s;
    double values[5] = {summarize(mine.requester).median,
                        mine.requester.empty() ? 0.0
                                               : total / static_cast<double>(mine.requester.size()),
                        mine.worker_seconds, mine.calls, mine.wrong_values};
    FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, values, 5, MPI_DOUBLE, MPI_SUM, comm_.get()));
    FERRY_CHECK(values[4] == 0, Errc::Internal, "bench buffer: the ", method, " method delivered ",
                values[4], " wrong sampled values to the worker. This is a bug in ferry");
    return {values[0], values[1], values[2], values[3], values[4]};
  }

  // The requester's first bound: compute, then copy the step to one fixed place.
  Samples bare_copy(std::int64_t steps) {
    Samples mine;
    if (!requester()) return mine;
    for (std::int64_t step = -kWarmupSteps; step < steps; ++step) {
      compute(array_.data(), step);
      const double start = MPI_Wtime();
      g_copy(copy_.data(), array_.data(), copy_.size());
      if (step >= 0) mine.requester.push_back(MPI_Wtime() - start);
    }
    return mine;
  }

  // The second bound: what keeping steps costs without MPI, a copy to the next slot
  // of a private ring of the buffer's size (one untimed pass first), with memcpy or
  // with the streaming copy that load() uses for large steps, on small pages (heap
  // memory, as the MPI window's shared segment usually is) or on huge pages.
  Samples ring_copy(std::int64_t steps, char* ring,
                    void* (*copy)(void*, const void*, std::size_t)) {
    Samples mine;
    if (!requester()) return mine;
    for (std::int64_t step = -ring_slots_; step < steps; ++step) {
      compute(array_.data(), step);
      const std::int64_t slot = (step + ring_slots_) % ring_slots_;
      const double start = MPI_Wtime();
      copy(ring + slot * step_bytes_, array_.data(),
           static_cast<std::size_t>(step_bytes_));
      if (step >= 0) mine.requester.push_back(MPI_Wtime() - start);
    }
    return mine;
  }

  // Per step: the requester sends the sub-array (a subarray datatype, no packing by
  // hand) and the worker receives it, after a barrier that keeps waiting out.
  Samples two_sided(std::int64_t steps) {
    Samples mine;
    const int count = mpi_int(sub_values());
    for (std::int64_t step = -kWarmupSteps; step < steps; ++step) {
      if (requester()) compute(array_.data(), step);
      FERRY_CALL_MPI(MPI_Barrier(comm_.get()));
      MPI_Request request = MPI_REQUEST_NULL;
      const double start = MPI_Wtime();
      if (requester()) {
        FERRY_CALL_MPI(
            MPI_Isend(array_.data(), 1, sub_type_, kWorker, kTag, comm_.get(), &request));
        FERRY_CALL_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
        if (step >= 0) mine.requester.push_back(MPI_Wtime() - start);
      } else {
        FERRY_CALL_MPI(
            MPI_Irecv(sub_.data(), count, MPI_INT32_T, kRequester, kTag, comm_.get(), &request));
        FERRY_CALL_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
        if (step >= 0) {
          mine.worker_seconds += MPI_Wtime() - start;
          mine.calls += 1;
        }
        mine.wrong_values += wrong_values(sub_.data(), step);
      }
    }
    return mine;
  }

  // Per step, without a buffer: the requester computes straight into its exposed
  // array; a barrier says the step is ready, the worker gets the sub-array, and a
  // second barrier tells the requester it may overwrite the array again.
  Samples one_sided(std::int64_t steps) {
    Samples mine;
    const MPI_Aint bytes = requester() ? static_cast<MPI_Aint>(step_bytes_) : 0;
    void* base = nullptr;
    MPI_Win win = MPI_WIN_NULL;
    FERRY_CALL_MPI(MPI_Win_allocate(bytes, sizeof(std::int32_t), MPI_INFO_NULL, comm_.get(), &base,
                                    &win));
    FERRY_CALL_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    auto* exposed = static_cast<std::int32_t*>(base);
    const int count = mpi_int(sub_values());
    for (std::int64_t step = -kWarmupSteps; step < steps; ++step) {
      if (requester()) {
        compute(exposed, step);
        FERRY_CALL_MPI(MPI_Win_sync(win));
      }
      FERRY_CALL_MPI(MPI_Barrier(comm_.get()));  // the step is ready
      const double start = MPI_Wtime();
      if (!requester()) {
        FERRY_CALL_MPI(MPI_Get(sub_.data(), count, MPI_INT32_T, kRequester, 0, 1, sub_type_, win));
        FERRY_CALL_MPI(MPI_Win_flush(kRequester, win));
        if (step >= 0) {
          mine.worker_seconds += MPI_Wtime() - start;
          mine.calls += 1;
        }
      }
      FERRY_CALL_MPI(MPI_Barrier(comm_.get()));  // the step has been read
      if (requester()) {
        if (step >= 0) mine.requester.push_back(MPI_Wtime() - start);
        FERRY_CALL_MPI(MPI_Win_sync(win));
      } else {
        mine.wrong_values += wrong_values(sub_.data(), step);
      }
    }
    FERRY_CALL_MPI(MPI_Win_unlock_all(win));
    FERRY_CALL_MPI(MPI_Win_free(&win));
    return mine;
  }

  // The time-series buffer, lossless: the requester loads every step after
  // computing it and never synchronises otherwise; the worker reads as many new
  // steps per call as the ring holds. One untimed pass through the ring first
  // (steps -capacity .. -1, then a barrier), as a long run would have made.
  Samples buffer(std::int64_t steps) {
    Samples mine;
    const std::vector<std::int64_t> shape{config_.size, config_.size};
    if (requester()) {
      auto buffer = TimeSeriesBuffer::expose(comm_.get(), shape, {{0, 0}, shape},
                                             Datatype::Int32,
                                             Capacity::bytes(config_.capacity_mib << 20),
                                             BufferMode::Lossless);
      for (std::int64_t step = -buffer.capacity_steps(); step < steps; ++step) {
        if (step == 0) FERRY_CALL_MPI(MPI_Barrier(comm_.get()));
        compute(array_.data(), step);
        const double start = MPI_Wtime();
        buffer.load(array_.data(), step);
        if (step >= 0) mine.requester.push_back(MPI_Wtime() - start);
      }
      buffer.close();
      return mine;
    }
    auto buffer = TimeSeriesBuffer::connect(comm_.get(), 0);
    auto reader = buffer.attach(MPI_COMM_SELF, sub_box_);
    const std::int64_t max_steps = buffer.capacity_steps();
    std::vector<std::int32_t> out(static_cast<std::size_t>(max_steps * sub_values()));
    auto read_checked = [&](std::int64_t limit) {
      const ReadResult r = reader.read(out.data(), limit);
      for (std::int64_t i = 0; i < r.n_steps; ++i)
        mine.wrong_values += wrong_values(out.data() + i * sub_values(),
                                          reader.steps()[static_cast<std::size_t>(i)]);
      return r.n_steps;
    };
    for (std::int64_t warm = 0; warm < max_steps;) warm += read_checked(max_steps - warm);
    FERRY_CALL_MPI(MPI_Barrier(comm_.get()));
    const ReaderStatistics before = reader.statistics();
    while (read_checked(max_steps) > 0) {
    }
    reader.done();
    mine.worker_seconds = reader.statistics().transfer_seconds - before.transfer_seconds;
    mine.calls = static_cast<double>(reader.statistics().data_gets - before.data_gets);
    return mine;
  }

  Comm comm_;
  BufferBenchConfig config_;
  std::int64_t sub_extent_ = 0;
  Box sub_box_;
  std::int64_t step_bytes_ = 0;
  std::int64_t ring_slots_ = 0;
  std::vector<std::int32_t> array_;          // requester: the model's array
  std::vector<char> copy_;                   // requester: the memcpy bound's destination
  std::vector<char> ring_;                   // requester: the ring-copy and ring-stream slots
  std::unique_ptr<HugePageRing> huge_ring_;  // requester: the ring-huge slots
  double huge_page_share_ = 0;               // of huge_ring_, on every rank
  std::vector<std::int32_t> sub_;            // worker: one step of the sub-array
  MPI_Datatype sub_type_ = MPI_DATATYPE_NULL;
};

}  // namespace

std::vector<BufferBenchRow> run_buffer_bench(MPI_Comm comm, const BufferBenchConfig& config) {
  return BufferBench(comm, config).run();
}

std::string buffer_bench_json(const std::vector<BufferBenchRow>& rows,
                              const BufferBenchConfig& config, const std::string& mpi_library) {
  std::string out;
  for (const BufferBenchRow& row : rows) {
    JsonLine json;
    json.add("bench", "buffer")
        .add("method", row.method)
        .add("n", row.n)
        .add("steps", row.steps)
        .add("size", config.size)
        .add("capacity_mib", config.capacity_mib)
        .add("repeat", config.repeat)
        .add("requester_median_s", row.requester_median_seconds)
        .add("requester_mean_s", row.requester_mean_seconds)
        .add("worker_s", row.worker_seconds)
        .add("steps_per_call", row.steps_per_call)
        .add("memcpy_s", row.memcpy_seconds)
        .add("ring_copy_s", row.ring_copy_seconds)
        .add("huge_page_share", row.huge_page_share)
        .add("mpi_library", mpi_library);
    out += json.str() + "\n";
  }
  return out;
}

std::string buffer_bench_table(const std::vector<BufferBenchRow>& rows,
                               const BufferBenchConfig& config, const std::string& mpi_library) {
  TextTable table({"method", "N", "steps", "req_median_us", "req_mean_us", "x_memcpy",
                   "x_ring_copy", "worker_us", "steps/call"});
  auto ratio = [](double a, double b) { return b > 0 ? fixed(a / b, 2) : std::string(); };
  for (const BufferBenchRow& row : rows) {
    const bool moves = row.steps_per_call > 0;  // the bounds move nothing to the worker
    table.add_row({row.method, std::to_string(row.n), std::to_string(row.steps),
                   fixed(row.requester_median_seconds * 1e6, 1),
                   fixed(row.requester_mean_seconds * 1e6, 1),
                   ratio(row.requester_median_seconds, row.memcpy_seconds),
                   ratio(row.requester_median_seconds, row.ring_copy_seconds),
                   moves ? fixed(row.worker_seconds * 1e6, 1) : "",
                   moves ? fixed(row.steps_per_call, 1) : ""});
  }
  const std::int64_t offset = config.size / 6;
  const std::int64_t sub = config.size - 2 * offset;
  double huge_share = 0;
  for (const BufferBenchRow& row : rows) huge_share = std::max(huge_share, row.huge_page_share);
  return detail::cat(
      "time-series buffer: requester rank 0 writes a ", config.size, " x ", config.size,
      " int32 array per step, worker rank 1 reads the ", sub, " x ", sub, " sub-array from (",
      offset, ",", offset, "); N x ", config.steps_per_n, " steps; buffer ring ",
      config.capacity_mib, " MiB, lossless; median of ", config.repeat, " run(s)\nMPI: ",
      mpi_library, "\n\n", table.str(),
      "\nper step: req_* = requester time spent moving data (median and mean over the steps);\n"
      "x_memcpy, x_ring_copy = req_median over the bounds' medians at the same N (memcpy: the\n"
      "step copied to one fixed place; ring-copy: to the next slot of a private ring as large\n"
      "as the buffer's; ring-stream: the same with streaming stores, as load() copies;\n"
      "ring-huge: ring-stream on a ring advised for transparent huge pages, here ",
      fixed(huge_share * 100, 0), " % of it\n"
      "on 2 MiB pages); worker_us = worker communication time, waiting excluded.\n");
}

}  // namespace ferry::bench
