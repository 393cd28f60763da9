// `ferry bench collectives`: every all-to-all-v and all-reduce algorithm against the
// MPI collective, over sizes, at this rank count.
#include "collectives_bench.hpp"
#include "collectives_report.hpp"
#include "command.hpp"
#include "tuning_options.hpp"

namespace ferry::cli {

namespace {

Action declare_bench_collectives(CLI::App& app) {
  return declare_sweep_bench(app, bench::run_collectives, bench::collectives_json, bench::collectives_table);
}

}  // namespace

Command bench_collectives_command() {
  return {"bench collectives", "all-to-all-v and all-reduce algorithms vs the MPI collectives",
          std::string(
              "usage: mpiexec -n P ferry bench collectives [--repeat R] [--max-bytes B] [--json]\n"
              "\n"
              "Times each algorithm of ferry::Alltoallv (mpi, ring, swap, bruck) and\n"
              "ferry::Allreduce (mpi, doubling, halving, ring) on float64 values at sizes\n"
              "8 B, 32 B, ...: for alltoallv the block each rank sends each rank, for\n"
              "allreduce each rank's vector. Every algorithm's result is checked exactly\n"
              "first; then they take turns. Prints the median and minimum time per call\n"
              "(the slowest rank's) and the ratio to the MPI collective.\n"
              "\n") +
              kSweepOptionsHelp +
              "  --json                 one JSON object per collective, size and algorithm\n",
          declare_bench_collectives};
}

}  // namespace ferry::cli
