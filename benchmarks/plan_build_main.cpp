// bench_plan_build: how long Plan::build takes and how much memory it needs, for a
// dense layout pair (2-D blocks to round-robin, as `ferry bench exchange --scenario
// large`) or for sparse ids (a few per rank spread over a huge index space).
//
//   mpiexec -n P bench_plan_build [--points N] [--repeat R] [--sparse K]
//
// Prints the median, minimum and maximum over R builds of the slowest rank's wall
// time and of the busiest rank's CPU time (the CPU time does not count the time a
// rank waits for others, so it is the steadier figure on a shared machine), and the
// growth of the largest resident set over all builds, largest over ranks.
#include <mpi.h>
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "ferry/layout.hpp"
#include "ferry/plan.hpp"
#include "statistics.hpp"

namespace {

struct Options {
  std::int64_t points = 4'000'000;
  int repeat = 9;
  std::int64_t sparse = 0;  // ids per rank; 0: dense
};

bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) return false;
    const long long value = std::atoll(argv[++i]);
    if (value <= 0) return false;
    if (arg == "--points")
      o.points = value;
    else if (arg == "--repeat")
      o.repeat = static_cast<int>(value);
    else if (arg == "--sparse")
      o.sparse = value;
    else
      return false;
  }
  return true;
}

double max_resident_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // KiB on Linux
}

// Sparse: rank r holds ids (i * P + r) * stride, i < k, and asks for rank r+1's.
ferry::Layout sparse_layout(std::int64_t n, std::int64_t k, int p, int r) {
  const std::int64_t stride = n / (k * p);
  std::vector<std::int64_t> ids;
  for (std::int64_t i = 0; i < k; ++i) ids.push_back((i * p + r) * stride);
  return ferry::Layout::points(n, std::move(ids));
}

// Parses the options, builds the plans and prints one line on rank 0; the exit status.
int run(int argc, char** argv) {
  const ferry::Comm comm = ferry::Comm::dup(MPI_COMM_WORLD);
  const int rank = comm.rank();
  const int size = comm.size();
  Options o;
  if (!parse(argc, argv, o)) {
    if (rank == 0)
      std::fprintf(stderr, "usage: mpiexec -n P bench_plan_build [--points N] [--repeat R] "
                           "[--sparse IDS_PER_RANK]\n");
    return 2;
  }
  int px = 1;
  while (px * px < size) ++px;
  while (size % px != 0) --px;
  const std::int64_t nx = 2000;
  const std::int64_t ny = o.sparse ? 0 : (o.points + nx - 1) / nx;
  const std::int64_t n = o.sparse ? o.points : nx * ny;
  const ferry::Layout src = o.sparse ? sparse_layout(n, o.sparse, size, rank)
                                     : ferry::Layout::box(nx, ny, px, size / px, rank);
  const ferry::Layout dst = o.sparse ? sparse_layout(n, o.sparse, size, (rank + 1) % size)
                                     : ferry::Layout::round_robin(n, size, rank);
  const double resident_before = max_resident_mb();
  std::vector<double> wall, cpu;
  for (int k = 0; k < o.repeat; ++k) {
    MPI_Barrier(comm.get());
    const double cpu0 = ferry::bench::process_cpu_seconds();
    const double wall0 = MPI_Wtime();
    { const ferry::Plan plan = ferry::Plan::build(comm, src, dst); }
    const double wall1 = MPI_Wtime();
    const double cpu1 = ferry::bench::process_cpu_seconds();
    wall.push_back(ferry::bench::max_over_ranks(comm, wall1 - wall0));
    cpu.push_back(ferry::bench::max_over_ranks(comm, cpu1 - cpu0));
  }
  const double growth = ferry::bench::max_over_ranks(comm, max_resident_mb() - resident_before);
  const auto w = ferry::bench::summarize(wall);
  const auto c = ferry::bench::summarize(cpu);
  if (rank == 0)
    std::printf("Plan::build, %s, N = %lld, %d ranks, %d builds: wall median %.1f ms (min "
                "%.1f, max %.1f), cpu median %.1f ms (min %.1f, max %.1f), resident set "
                "growth %.1f MB\n",
                o.sparse ? "sparse ids" : "2-D blocks to round-robin", static_cast<long long>(n),
                size, o.repeat, 1e3 * w.median, 1e3 * w.min, 1e3 * w.max, 1e3 * c.median,
                1e3 * c.min, 1e3 * c.max, growth);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 1;
  try {
    status = run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_plan_build: %s\n", e.what());
  }
  MPI_Finalize();
  return status;
}
