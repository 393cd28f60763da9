// `ferry bench pingpong`: latency and bandwidth between ranks 0 and 1.
#include <iostream>
#include <memory>

#include "command.hpp"
#include "pingpong.hpp"
#include "pingpong_report.hpp"
#include "util/mpi_library.hpp"

namespace ferry::cli {

namespace {

constexpr int kPingpongRepeat = 50;

struct PingpongOptions {
  int repeat = kPingpongRepeat;
  bool json = false;
};

int run(const PingpongOptions& o, const Context& context) {
  const int repeat = o.repeat;
  const bool json = o.json;
  const std::vector<bench::PingpongRow> rows =
      arg_errors_as_usage([&] { return bench::run_pingpong(context.comm, repeat); });
  if (context.rank != 0) return 0;
  const std::string mpi = detail::mpi_library_version();
  std::cout << (json ? bench::pingpong_json(rows, context.size, repeat, mpi)
                     : bench::pingpong_table(rows, context.size, repeat, mpi))
            << std::flush;
  return 0;
}

Action declare_bench_pingpong(CLI::App& app) {
  auto o = std::make_shared<PingpongOptions>();
  add_int_option(app, "--repeat", o->repeat, 1, 1 << 20);
  app.add_flag("--json", o->json);
  return [o](const Context& context) { return run(*o, context); };
}

}  // namespace

Command bench_pingpong_command() {
  return {"bench pingpong", "latency and bandwidth between ranks 0 and 1",
          "usage: mpiexec -n 2 ferry bench pingpong [--repeat R] [--json]\n"
          "\n"
          "Bounces messages of 8 B, 32 B, ... 8 MiB between ranks 0 and 1 with blocking\n"
          "MPI_Send/MPI_Recv (other ranks wait). Latency is half the median round trip\n"
          "over R round trips after one warm-up; bandwidth is bytes / latency.\n"
          "\n"
          "  --repeat R   round trips per message size (default 50)\n"
          "  --json       one JSON object per message size and line instead of a table\n",
          declare_bench_pingpong};
}

}  // namespace ferry::cli
