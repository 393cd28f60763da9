// Moves a 2-component field from a block layout to a round-robin layout with each
// engine named on the command line (default: every engine of the installed build)
// and checks every value.
// Exit code: 0 if every rank got the right values, 1 otherwise, the same on all ranks.
#include <mpi.h>

#include <cstdio>
#include <ferry/ferry.hpp>
#include <string>
#include <vector>

namespace {

double value(std::int64_t id, int component) { return 10.0 * static_cast<double>(id) + component; }

// Number of wrong values this rank received with `engine`.
int run(const std::string& engine, int rank, int size) {
  const std::int64_t n = 1000;
  const ferry::Layout src = ferry::Layout::block(n, size, rank);
  const ferry::Layout dst = ferry::Layout::round_robin(n, size, rank);
  ferry::Exchange exchange(MPI_COMM_WORLD, src, dst, {{ferry::Datatype::Float64, 2}}, engine);

  std::vector<double> out(2 * static_cast<std::size_t>(src.local_size()));
  for (std::size_t i = 0; i < src.ids().size(); ++i)
    for (int c = 0; c < 2; ++c) out[2 * i + c] = value(src.ids()[i], c);
  std::vector<double> in(2 * static_cast<std::size_t>(dst.local_size()), -1.0);
  exchange.execute(out.data(), in.data());

  int wrong = 0;
  for (std::size_t i = 0; i < dst.ids().size(); ++i)
    for (int c = 0; c < 2; ++c)
      if (in[2 * i + c] != value(dst.ids()[i], c)) ++wrong;
  if (wrong > 0)
    std::fprintf(stderr, "rank %d: %d wrong values with engine %s\n", rank, wrong,
                 exchange.engine_name().c_str());
  return wrong;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<std::string> engines(argv + 1, argv + argc);
  if (engines.empty()) engines = ferry::engine_names();

  int failed = 0;
  for (const auto& engine : engines) {
    try {
      failed |= run(engine, rank, size) > 0 ? 1 : 0;
    } catch (const ferry::Error& e) {
      std::fprintf(stderr, "rank %d: engine %s: %s\n", rank, engine.c_str(), e.what());
      failed = 1;
    }
  }
  int any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && any_failed == 0) {
    std::printf("ferry %s on %d ranks, engines", FERRY_VERSION_STRING, size);
    for (const auto& engine : engines) std::printf(" %s", engine.c_str());
    std::printf(": all values correct\n");
  }
  MPI_Finalize();
  return any_failed;
}
