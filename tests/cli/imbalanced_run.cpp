// A small coupled run with the imbalance timer on, whose timer files the tests of
// `ferry report` read: "atm" on the first half of the ranks puts a field every step
// to "ocn" on the other half. atm's work of 8 ms per step is shared unequally
// among its ranks (rank r of P sleeps 4 (2 + r) / P ms), so on 2 or more atm ranks
// the faster ones wait in the imbalance barrier.
//
//   mpiexec -n 4 imbalanced_run OUTPUT_DIRECTORY
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "ferry/ferry.hpp"

namespace {

constexpr std::int64_t kPoints = 4000;
constexpr int kSteps = 10;

std::string config_text(const std::string& directory) {
  return "version: 1\n"
         "run: {length: " + std::to_string(kSteps) + "}\n"
         "output: {directory: \"" + directory + "\", imbalance: true}\n"
         "watchdog: {timeout: 60}\n"
         "exchanges:\n"
         "  - name: flux\n"
         "    source: {component: atm, field: flux}\n"
         "    target: {component: ocn, field: flux}\n"
         "    period: 1\n"
         "    engine: p2p\n";
}

void run(const std::string& directory, int rank, int size) {
  const int atm_ranks = size / 2;
  const bool atm = rank < atm_ranks;
  const int ranks = atm ? atm_ranks : size - atm_ranks;
  const int local = atm ? rank : rank - atm_ranks;
  ferry::Coupler coupler(MPI_COMM_WORLD, {atm ? "atm" : "ocn"}, directory + "/coupling.yaml");
  const ferry::Layout layout = ferry::Layout::block(kPoints, ranks, local);
  const char* component = atm ? "atm" : "ocn";
  const ferry::FieldId field = coupler.def_field(
      coupler.def_partition(coupler.def_grid(component, "grid", kPoints), "blocks", layout), "flux",
      atm ? ferry::FieldDirection::Out : ferry::FieldDirection::In, ferry::Datatype::Float64);
  coupler.enddef();
  std::vector<double> values(static_cast<std::size_t>(layout.local_size()), 1.0);
  for (int step = 0; step < kSteps; ++step) {
    const double time = step;
    if (atm) {
      std::this_thread::sleep_for(std::chrono::microseconds(4000 * (2 + local) / ranks));
      coupler.put(field, time, values.data());
    } else {
      coupler.get(field, time, values.data());
    }
  }
  coupler.finalize();
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 2 || size < 2) {
    if (rank == 0)
      std::fprintf(stderr, "usage: mpiexec -n N imbalanced_run OUTPUT_DIRECTORY (N >= 2)\n");
    MPI_Finalize();
    return 2;
  }
  const std::string directory = argv[1];
  if (rank == 0) {
    std::filesystem::create_directories(directory);
    std::ofstream(directory + "/coupling.yaml") << config_text(directory);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  int status = 0;
  try {
    run(directory, rank, size);
  } catch (const ferry::Error& e) {
    std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
    status = 1;
  }
  if (rank == 0 && status == 0) std::printf("timer files written to %s\n", directory.c_str());
  MPI_Finalize();
  return status;
}
