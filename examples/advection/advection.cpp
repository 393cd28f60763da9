// A tiny finite-volume model on an MPAS-like mesh that keeps its ghost cells up to
// date with ferry::Halo, and prints a checksum that is the same, bit for bit, for
// every rank count, partition, engine, reorder setting and halo depth.
//
//   mpiexec -n 4 advection [--frequency F] [--steps S] [--levels L] [--depth D]
//                          [--partition block|random|metis] [--engine NAME] [--reorder]
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "ferry/cell_partition.hpp"
#include "ferry/error.hpp"
#include "ferry/geodesic_mesh.hpp"
#include "ferry/halo.hpp"
#include "upwind_model.hpp"

namespace {

struct Options {
  int frequency = 12;  // 1442 cells
  int steps = 300;
  int levels = 3;
  int depth = 1;
  std::string partition = "block";
  std::string engine = "p2p";
  bool reorder = false;
};

// Returns false (after a message on rank 0) for a command line it cannot read.
bool parse(int argc, char** argv, int rank, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    const bool has_value = i + 1 < argc;
    if (flag == "--reorder") {
      options.reorder = true;
    } else if (has_value && flag == "--frequency") {
      options.frequency = std::stoi(argv[++i]);
    } else if (has_value && flag == "--steps") {
      options.steps = std::stoi(argv[++i]);
    } else if (has_value && flag == "--levels") {
      options.levels = std::stoi(argv[++i]);
    } else if (has_value && flag == "--depth") {
      options.depth = std::stoi(argv[++i]);
    } else if (has_value && flag == "--partition") {
      options.partition = argv[++i];
    } else if (has_value && flag == "--engine") {
      options.engine = argv[++i];
    } else {
      if (rank == 0)
        std::fprintf(stderr,
                     "advection: unknown option or missing value: %s\nusage: advection "
                     "[--frequency F] [--steps S] [--levels L] [--depth D] "
                     "[--partition block|random|metis] [--engine NAME] [--reorder]\n",
                     flag.c_str());
      return false;
    }
  }
  return true;
}

ferry::PartitionMethod partition_method(const std::string& name) {
  for (auto method : {ferry::PartitionMethod::Block, ferry::PartitionMethod::Random,
                      ferry::PartitionMethod::Metis})
    if (name == ferry::partition_method_name(method)) return method;
  throw ferry::Error(ferry::Errc::Arg, "advection: unknown partition \"" + name +
                                           "\"; use block, random or metis");
}

// Order-independent checksum of the owned values: a sum (mod 2^64) of a hash of each
// (cell, level, bits), so it does not depend on which rank holds which cell.
std::uint64_t checksum(MPI_Comm comm, const ferry::Halo& halo, const std::vector<double>& q,
                       int levels) {
  auto mix = [](std::uint64_t x) {
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  };
  std::uint64_t local = 0;
  for (std::int64_t i = 0; i < halo.owned_count(); ++i)
    for (int l = 0; l < levels; ++l) {
      std::uint64_t bits = 0;
      std::memcpy(&bits, &q[static_cast<std::size_t>(i * levels + l)], sizeof bits);
      const auto cell = static_cast<std::uint64_t>(halo.cells()[static_cast<std::size_t>(i)]);
      local += mix(bits ^ mix(cell * 1024 + static_cast<std::uint64_t>(l) + 1));
    }
  std::uint64_t total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_UINT64_T, MPI_SUM, comm);
  return total;
}

int run(const Options& options, int rank, int ranks) {
  // Every rank builds the whole test mesh here; a real model reads only its own
  // cells' part of the mesh file, which is all a Halo needs.
  const ferry::GeodesicMesh mesh(options.frequency);
  const std::vector<int> owner = ferry::partition_cells(
      mesh.offsets(), mesh.neighbours(), ranks, partition_method(options.partition), 1);

  ferry::HaloOptions halo_options;
  halo_options.depth = options.depth;
  halo_options.fields = {ferry::FieldSpec{ferry::Datatype::Float64, options.levels}};
  halo_options.engine = options.engine;
  if (options.reorder) halo_options.engine_options.values["reorder"] = "true";
  ferry::Halo halo(MPI_COMM_WORLD, mesh.cell_graph(owner, rank), halo_options);

  const UpwindModel model(MPI_COMM_WORLD, mesh, halo, options.levels, 0.5);
  const auto values = static_cast<std::size_t>(halo.local_count() * options.levels);
  std::vector<double> q(values, 0.0), next(values, 0.0);
  model.initialise(q);
  const double mass_before = model.mass(MPI_COMM_WORLD, q);

  // With depth D one exchange serves D steps: step s after it updates the cells
  // within D-1-s rings, which need only values that are still current.
  int exchanges = 0;
  double exchange_seconds = 0;
  for (int step = 0; step < options.steps; ++step) {
    const int since_exchange = step % options.depth;
    if (since_exchange == 0) {
      const double start = MPI_Wtime();
      halo.execute(q.data());
      exchange_seconds += MPI_Wtime() - start;
      ++exchanges;
    }
    model.step(q, next, halo.ring_end(options.depth - 1 - since_exchange));
    std::swap(q, next);
  }

  const double mass_after = model.mass(MPI_COMM_WORLD, q);
  const std::uint64_t sum = checksum(MPI_COMM_WORLD, halo, q, options.levels);
  const std::int64_t ghosts = halo.ghost_count();
  std::int64_t most_ghosts = 0;
  MPI_Reduce(&ghosts, &most_ghosts, 1, MPI_INT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
  double slowest = 0;
  MPI_Reduce(&exchange_seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("advection: %lld cells (frequency %d), %d levels, %d steps of dt %.6g, depth %d\n",
                static_cast<long long>(mesh.cell_count()), options.frequency, options.levels,
                options.steps, model.time_step(), options.depth);
    std::printf("ranks %d, partition %s, engine %s%s; ghost cells per rank: max %lld\n", ranks,
                options.partition.c_str(), halo.exchange().engine_name().c_str(),
                options.reorder ? " (reorder)" : "", static_cast<long long>(most_ghosts));
    std::printf("%d exchanges, %.3f ms each (slowest rank)\n", exchanges,
                exchanges ? 1e3 * slowest / exchanges : 0.0);
    std::printf("mass conserved to 1e-12: %s\n",
                std::abs(mass_after - mass_before) <= 1e-12 * std::abs(mass_before) ? "yes" : "no");
    std::printf("checksum %016llx\n", static_cast<unsigned long long>(sum));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int status = 0;
  try {
    Options options;
    status = parse(argc, argv, rank, options) ? run(options, rank, ranks) : 2;
  } catch (const std::exception& e) {
    // ferry agrees on setup errors, so every rank arrives here with the same message.
    if (rank == 0) std::fprintf(stderr, "advection: %s\n", e.what());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
