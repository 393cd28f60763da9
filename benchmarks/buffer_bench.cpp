#include "buffer_bench.hpp"

#include <algorithm>
#include <optional>

#include "ferry/comm.hpp"
#include "ferry/time_series_buffer.hpp"
#include "json_line.hpp"
#include "payload_copy.hpp"
#include "statistics.hpp"
#include "text_table.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::bench {

namespace {

constexpr int kTag = 7301;
constexpr int kRequester = 0;
constexpr int kWorker = 1;

// Totals of one method's run, each filled by the rank that knows it.
struct Totals {
  double requester_seconds = 0;
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
    if (requester()) array_.assign(static_cast<std::size_t>(config.size * config.size), 0);
    else sub_.assign(static_cast<std::size_t>(sub_values()), 0);
    const int sizes[2] = {mpi_int(config.size), mpi_int(config.size)};
    const int subsizes[2] = {mpi_int(sub_extent_), mpi_int(sub_extent_)};
    const int starts[2] = {mpi_int(offset), mpi_int(offset)};
    FERRY_CALL_MPI(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT32_T,
                                            &sub_type_));
    FERRY_CALL_MPI(MPI_Type_commit(&sub_type_));
  }
  BufferBench(const BufferBench&) = delete;
  BufferBench& operator=(const BufferBench&) = delete;
  ~BufferBench() { MPI_Type_free(&sub_type_); }

  std::vector<BufferBenchRow> run() {
    std::vector<BufferBenchRow> rows;
    const char* const methods[] = {"memcpy", "two-sided", "one-sided", "buffer"};
    for (int n = 1; n <= config_.max_n; ++n) {
      const std::int64_t steps = static_cast<std::int64_t>(n) * config_.steps_per_n;
      // Rotation: load from other processes hits every method alike.
      std::vector<Totals> runs[4];
      for (int r = 0; r < config_.repeat; ++r) {
        runs[0].push_back(bare_copy(steps));
        runs[1].push_back(two_sided(steps));
        runs[2].push_back(one_sided(steps));
        runs[3].push_back(buffer(steps));
      }
      const double copy = median(runs[0], &Totals::requester_seconds) / static_cast<double>(steps);
      for (int m = 0; m < 4; ++m) rows.push_back(row(methods[m], n, steps, runs[m], copy));
    }
    return rows;
  }

 private:
  static int mpi_int(std::int64_t v) { return detail::mpi_count<int>(v, "bench buffer: extent"); }
  bool requester() const { return comm_.rank() == kRequester; }
  std::int64_t sub_values() const { return sub_extent_ * sub_extent_; }

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
    for (const auto& [i, j] : {std::pair<std::int64_t, std::int64_t>{0, 0}, {0, e - 1}, {e - 1, 0},
                              {e - 1, e - 1}, {e / 2, e / 2}}) {
      const std::int64_t k = (sub_box_.start[0] + i) * config_.size + sub_box_.start[1] + j;
      wrong += sub[i * e + j] != static_cast<std::int32_t>(k + 7 * step) ? 1 : 0;
    }
    return wrong;
  }

  // Sums the totals over both ranks; a wrong value on the worker fails every rank.
  Totals agree_totals(Totals mine, const char* method) {
    double values[4] = {mine.requester_seconds, mine.worker_seconds, mine.calls,
                        mine.wrong_values};
    FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, values, 4, MPI_DOUBLE, MPI_SUM, comm_.get()));
    FERRY_CHECK(values[3] == 0, Errc::Internal, "bench buffer: the ", method, " method delivered ",
                values[3], " wrong sampled values to the worker. This is a bug in ferry");
    return {values[0], values[1], values[2], values[3]};
  }

  static double median(const std::vector<Totals>& runs, double Totals::*field) {
    std::vector<double> values;
    for (const Totals& t : runs) values.push_back(t.*field);
    return summarize(std::move(values)).median;
  }

  static BufferBenchRow row(const char* method, int n, std::int64_t steps,
                            const std::vector<Totals>& runs, double memcpy_seconds) {
    const auto s = static_cast<double>(steps);
    const double calls = median(runs, &Totals::calls);
    return {method,
            n,
            steps,
            median(runs, &Totals::requester_seconds) / s,
            median(runs, &Totals::worker_seconds) / s,
            calls > 0 ? s / calls : 0.0,
            memcpy_seconds};
  }

  Totals bare_copy(std::int64_t steps) {
    Totals mine;
    if (requester()) {
      PayloadCopy copy(array_.size() * sizeof(std::int32_t));
      copy.run();  // warm-up
      const double start = MPI_Wtime();
      for (std::int64_t s = 0; s < steps; ++s) copy.run();
      mine.requester_seconds = MPI_Wtime() - start;
    }
    return agree_totals(mine, "memcpy");
  }

  // Per step: the requester sends the sub-array (a subarray datatype, no packing by
  // hand) and the worker receives it, after a barrier that keeps waiting out.
  Totals two_sided(std::int64_t steps) {
    Totals mine;
    const int count = mpi_int(sub_values());
    for (std::int64_t step = 0; step < steps; ++step) {
      if (requester()) compute(array_.data(), step);
      FERRY_CALL_MPI(MPI_Barrier(comm_.get()));
      MPI_Request request = MPI_REQUEST_NULL;
      const double start = MPI_Wtime();
      if (requester()) {
        FERRY_CALL_MPI(
            MPI_Isend(array_.data(), 1, sub_type_, kWorker, kTag, comm_.get(), &request));
        FERRY_CALL_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
        mine.requester_seconds += MPI_Wtime() - start;
      } else {
        FERRY_CALL_MPI(
            MPI_Irecv(sub_.data(), count, MPI_INT32_T, kRequester, kTag, comm_.get(), &request));
        FERRY_CALL_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
        mine.worker_seconds += MPI_Wtime() - start;
        mine.calls += 1;
        mine.wrong_values += wrong_values(sub_.data(), step);
      }
    }
    return agree_totals(mine, "two-sided");
  }

  // Per step, without a buffer: the requester computes straight into its exposed
  // array; a barrier says the step is ready, the worker gets the sub-array, and a
  // second barrier tells the requester it may overwrite the array again.
  Totals one_sided(std::int64_t steps) {
    Totals mine;
    const MPI_Aint bytes =
        requester() ? static_cast<MPI_Aint>(array_.size() * sizeof(std::int32_t)) : 0;
    void* base = nullptr;
    MPI_Win win = MPI_WIN_NULL;
    FERRY_CALL_MPI(MPI_Win_allocate(bytes, sizeof(std::int32_t), MPI_INFO_NULL, comm_.get(), &base,
                                    &win));
    FERRY_CALL_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    auto* exposed = static_cast<std::int32_t*>(base);
    const int count = mpi_int(sub_values());
    for (std::int64_t step = 0; step < steps; ++step) {
      if (requester()) {
        compute(exposed, step);
        FERRY_CALL_MPI(MPI_Win_sync(win));
      }
      FERRY_CALL_MPI(MPI_Barrier(comm_.get()));  // the step is ready
      const double start = MPI_Wtime();
      if (!requester()) {
        FERRY_CALL_MPI(MPI_Get(sub_.data(), count, MPI_INT32_T, kRequester, 0, 1, sub_type_, win));
        FERRY_CALL_MPI(MPI_Win_flush(kRequester, win));
        mine.worker_seconds += MPI_Wtime() - start;
        mine.calls += 1;
      }
      FERRY_CALL_MPI(MPI_Barrier(comm_.get()));  // the step has been read
      if (requester()) {
        mine.requester_seconds += MPI_Wtime() - start;
        FERRY_CALL_MPI(MPI_Win_sync(win));
      } else {
        mine.wrong_values += wrong_values(sub_.data(), step);
      }
    }
    FERRY_CALL_MPI(MPI_Win_unlock_all(win));
    FERRY_CALL_MPI(MPI_Win_free(&win));
    return agree_totals(mine, "one-sided");
  }

  // The time-series buffer, lossless: the requester loads every step after
  // computing it and never synchronises otherwise; the worker reads as many new
  // steps per call as the ring holds.
  Totals buffer(std::int64_t steps) {
    Totals mine;
    const std::vector<std::int64_t> shape{config_.size, config_.size};
    if (requester()) {
      auto buffer = TimeSeriesBuffer::expose(comm_.get(), shape, {{0, 0}, shape},
                                             Datatype::Int32,
                                             Capacity::bytes(config_.capacity_mib << 20),
                                             BufferMode::Lossless);
      for (std::int64_t step = 0; step < steps; ++step) {
        compute(array_.data(), step);
        const double start = MPI_Wtime();
        buffer.load(array_.data(), step);
        mine.requester_seconds += MPI_Wtime() - start;
      }
      buffer.close();
      return agree_totals(mine, "buffer");
    }
    auto buffer = TimeSeriesBuffer::connect(comm_.get(), 0);
    auto reader = buffer.attach(MPI_COMM_SELF, sub_box_);
    const std::int64_t max_steps = buffer.capacity_steps();
    std::vector<std::int32_t> out(static_cast<std::size_t>(max_steps * sub_values()));
    for (ReadResult r = reader.read(out.data(), max_steps); r.n_steps > 0;
         r = reader.read(out.data(), max_steps))
      for (std::int64_t i = 0; i < r.n_steps; ++i)
        mine.wrong_values += wrong_values(out.data() + i * sub_values(),
                                          reader.steps()[static_cast<std::size_t>(i)]);
    reader.done();
    mine.worker_seconds = reader.statistics().transfer_seconds;
    mine.calls = static_cast<double>(reader.statistics().data_gets);
    return agree_totals(mine, "buffer");
  }

  Comm comm_;
  BufferBenchConfig config_;
  std::int64_t sub_extent_ = 0;
  Box sub_box_;
  std::vector<std::int32_t> array_;
  std::vector<std::int32_t> sub_;
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
    const double memcpy_s = row.memcpy_seconds;
    JsonLine json;
    json.add("bench", "buffer")
        .add("method", row.method)
        .add("n", row.n)
        .add("steps", row.steps)
        .add("size", config.size)
        .add("capacity_mib", config.capacity_mib)
        .add("repeat", config.repeat)
        .add("requester_s_per_step", row.requester_seconds)
        .add("requester_x_memcpy", memcpy_s > 0 ? row.requester_seconds / memcpy_s : 0.0)
        .add("worker_s_per_step", row.worker_seconds)
        .add("steps_per_call", row.steps_per_call)
        .add("memcpy_s_per_step", memcpy_s)
        .add("mpi_library", mpi_library);
    out += json.str() + "\n";
  }
  return out;
}

std::string buffer_bench_table(const std::vector<BufferBenchRow>& rows,
                               const BufferBenchConfig& config, const std::string& mpi_library) {
  TextTable table({"method", "N", "steps", "requester_us", "x_memcpy", "worker_us", "steps/call"});
  for (const BufferBenchRow& row : rows) {
    const double memcpy_s = row.memcpy_seconds;
    table.add_row({row.method, std::to_string(row.n), std::to_string(row.steps),
                   fixed(row.requester_seconds * 1e6, 1),
                   fixed(memcpy_s > 0 ? row.requester_seconds / memcpy_s : 0.0, 2),
                   row.method == "memcpy" ? "" : fixed(row.worker_seconds * 1e6, 1),
                   row.method == "memcpy" ? "" : fixed(row.steps_per_call, 1)});
  }
  const std::int64_t offset = config.size / 6;
  return detail::cat(
      "time-series buffer: requester rank 0 writes a ", config.size, " x ", config.size,
      " int32 array per step, worker rank 1 reads the ", config.size - 2 * offset, " x ",
      config.size - 2 * offset, " sub-array from (", offset, ",", offset, "); N x ",
      config.steps_per_n, " steps; buffer ring ", config.capacity_mib, " MiB, lossless; median of ",
      config.repeat, " run(s)\nMPI: ",
      mpi_library, "\n\n", table.str(),
      "\nper step: requester_us = time the requester spends moving data (memcpy: one bare copy\n"
      "of the step); worker_us = worker communication time, waiting excluded; x_memcpy =\n"
      "requester time / memcpy of the same N.\n");
}

}  // namespace ferry::bench
