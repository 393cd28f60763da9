// `ferry bench buffer`: the time-series buffer against per-step two-sided and
// one-sided transfers (the CoToCoA data-buffer benchmark).
#include <iostream>
#include <memory>

#include "buffer_bench.hpp"
#include "command.hpp"
#include "util/mpi_library.hpp"

namespace ferry::cli {

namespace {

struct BufferOptions {
  bench::BufferBenchConfig config;
  bool json = false;
};

int run(const BufferOptions& o, const Context& context) {
  const bench::BufferBenchConfig& config = o.config;
  const bool json = o.json;
  const std::vector<bench::BufferBenchRow> rows =
      arg_errors_as_usage([&] { return bench::run_buffer_bench(context.comm, config); });
  if (context.rank != 0) return 0;
  const std::string mpi = detail::mpi_library_version();
  std::cout << (json ? bench::buffer_bench_json(rows, config, mpi)
                     : bench::buffer_bench_table(rows, config, mpi))
            << std::flush;
  return 0;
}

Action declare_bench_buffer(CLI::App& app) {
  auto o = std::make_shared<BufferOptions>();
  bench::BufferBenchConfig& config = o->config;
  add_int_option(app, "--size", config.size, 6, 1 << 15);
  add_int_option(app, "--max-n", config.max_n, 1, 1000);
  add_int_option(app, "--steps", config.steps_per_n, 1, 1 << 20);
  add_int_option(app, "--capacity-mib", config.capacity_mib, 1, 1 << 20);
  add_int_option(app, "--repeat", config.repeat, 1, 1000);
  app.add_flag("--json", o->json);
  return [o](const Context& context) { return run(*o, context); };
}

}  // namespace

Command bench_buffer_command() {
  return {"bench buffer", "time-series buffer against per-step two-sided and one-sided reads",
          "usage: mpiexec -n 2 ferry bench buffer [options]\n"
          "\n"
          "Rank 0 (the requester) computes a size x size int32 array per step; rank 1 (the\n"
          "worker) reads the middle sub-array (600 x 600 from (150,150) for size 900). For\n"
          "N = 1 .. max-n, N x steps steps run seven ways, in rotation, R times: four\n"
          "bounds for the requester (memcpy: the step copied to one fixed place;\n"
          "ring-copy: to the next slot of a private ring as large as the buffer's;\n"
          "ring-stream: the same with streaming stores, as load() copies; ring-huge:\n"
          "ring-stream on a ring of 2 MiB pages), two-sided\n"
          "Isend/Irecv per step, a one-sided MPI_Get per step without a buffer (barriers\n"
          "around it), and the lossless TimeSeriesBuffer (a load per step, reads of many\n"
          "steps). Reports per step the requester's time spent moving data (median and\n"
          "mean) and its ratios to the bounds, the worker's communication time (waiting\n"
          "excluded) and the steps moved per message or MPI_Get; each number is the\n"
          "median of the R runs. The worker checks sampled values of every step.\n"
          "\n"
          "  --size S           array extent (default 900)\n"
          "  --max-n N          largest N (default 10)\n"
          "  --steps K          steps per unit of N (default 100)\n"
          "  --capacity-mib M   the buffer's ring on the requester rank (default 256)\n"
          "  --repeat R         runs of every method at every N (default 1)\n"
          "  --json             one JSON object per method and N instead of a table\n",
          declare_bench_buffer};
}

}  // namespace ferry::cli
