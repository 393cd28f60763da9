// `ferry bench kernels`: every message protocol between ranks 0 and 1, one way and
// both ways, over message sizes.
#include "command.hpp"
#include "kernels_bench.hpp"
#include "kernels_report.hpp"
#include "tuning_options.hpp"

namespace ferry::cli {

namespace {

Action declare_bench_kernels(CLI::App& app) {
  return declare_sweep_bench(app, bench::run_kernels, bench::kernels_json, bench::kernels_table);
}

}  // namespace

Command bench_kernels_command() {
  return {"bench kernels", "time per message of every send protocol between ranks 0 and 1",
          std::string(
              "usage: mpiexec -n 2 ferry bench kernels [--repeat R] [--max-bytes B] [--json]\n"
              "\n"
              "Moves messages of 8 B, 32 B, ... between ranks 0 and 1 (other ranks wait) by\n"
              "each protocol, one way (ping-pong; time = half a round trip) and both ways\n"
              "(both ranks send at once; time = one swap):\n"
              "  blocking    MPI_Send / MPI_Recv (both ways: rank 0 sends first)\n"
              "  sendrecv    MPI_Sendrecv\n"
              "  isend_recv  MPI_Isend, MPI_Recv, MPI_Wait\n"
              "  irecv_send  MPI_Irecv posted first, MPI_Send, MPI_Wait\n"
              "  bsend       MPI_Bsend from an attached buffer, MPI_Recv\n"
              "  rsend       the receiver posts MPI_Irecv and sends a zero-byte ready note;\n"
              "              the sender waits for it, then MPI_Rsend\n"
              "  put         MPI_Put, then MPI_Win_fence (both ways: a fence before too)\n"
              "  get         MPI_Win_fence, MPI_Get, MPI_Win_fence\n"
              "The protocols take turns; each sample times about 1 MiB of messages. Every\n"
              "message's stamps are checked on arrival, and every byte of each protocol's\n"
              "warm-up message and of the last one. Prints the median and minimum time per\n"
              "message, the bandwidth and the ratio to blocking send/recv at the same size.\n"
              "\n") +
              kSweepOptionsHelp +
              "  --json                 one JSON object per protocol, size and direction\n",
          declare_bench_kernels};
}

}  // namespace ferry::cli
