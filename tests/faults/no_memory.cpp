// An allocation that fails inside a collective set-up call: ferry::Error with
// Errc::NoMemory on every rank, never std::bad_alloc on one rank and a hang on the
// others. Run under a memory limit (ulimit -v, 1.5 GB): on 2 ranks, a field of 2^24
// float64 values per point needs 1.5 GiB of send and 1.5 GiB of receive buffer per rank.
#include <mpi.h>

#include <cstdio>
#include <new>
#include <string>

#include "ferry/error.hpp"
#include "ferry/exchange.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::string what = "no error";
  try {
    const ferry::Exchange exchange(MPI_COMM_WORLD, ferry::Layout::block(48, size, rank),
                                   ferry::Layout::round_robin(48, size, rank),
                                   {{ferry::Datatype::Float64, 1 << 24}}, "p2p");
  } catch (const ferry::Error& e) {
    what = "Errc " + std::to_string(static_cast<int>(e.code())) + ": " + e.what();
  } catch (const std::bad_alloc&) {
    what = "std::bad_alloc";
  }
  std::printf("fault-case rank %d: %s\n", rank, what.c_str());
  MPI_Finalize();
  return 0;
}
