// ferry::Alltoallv and ferry::Allreduce: the transpose and vector-sum algorithms
// of the PCCM tuning study, each one a drop-in for its MPI collective, so a
// machine's fastest can be measured (`ferry bench collectives`) and chosen.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ferry/datatype.hpp"

namespace ferry {

/// How an all-to-all-v moves its blocks.
enum class AlltoallvAlgorithm : int {
  /// One MPI_Alltoallv.
  Mpi = 0,
  /// P-1 rounds of MPI_Sendrecv: in round k, send to rank+k and receive from rank-k
  /// (the seed's srtrans).
  Ring = 1,
  /// P-1 rounds of pairwise swaps, each rank exchanging with one partner per round
  /// (swtrans): partner rank XOR k when P is a power of two; otherwise the rounds of a
  /// round-robin tournament (P rounds, each rank idle in one, for odd P; P-1 rounds
  /// for even P), so every pair still swaps exactly once.
  Swap = 2,
  /// ceil(log2 P) rounds (logtrans, Bruck et al. 1997): in round k every block whose
  /// distance to its destination has bit k set moves 2^k ranks forward. Fewer
  /// messages, more bytes (blocks are forwarded through intermediate ranks).
  Bruck = 3,
};

/// How an all-reduce combines the ranks' vectors. Non-power-of-two rank counts: the
/// doubling and halving algorithms first fold the first 2r ranks pairwise (r = P minus
/// the largest power of two below P; even ranks hand their vector to the next odd
/// rank), run on the remaining power of two, and hand the result back.
enum class AllreduceAlgorithm : int {
  /// One MPI_Allreduce.
  Mpi = 0,
  /// log2 P swaps of the whole vector (exchsum).
  RecursiveDoubling = 1,
  /// Reduce-scatter by recursive halving, then allgather by recursive doubling
  /// (Rabenseifner; halfsum): 2 log2 P swaps of shrinking, then growing, parts.
  RecursiveHalving = 2,
  /// Reduce-scatter then allgather around a ring, 2(P-1) steps of one P-th of the
  /// vector each (ringsum).
  Ring = 3,
};

/// Names as the CLI, reports and the tuning cache spell them: "mpi", "ring",
/// "swap", "bruck"; "mpi", "doubling", "halving", "ring".
const char* algorithm_name(AlltoallvAlgorithm algorithm) noexcept;
const char* algorithm_name(AllreduceAlgorithm algorithm) noexcept;
/// Every algorithm, MPI's first.
std::vector<AlltoallvAlgorithm> alltoallv_algorithms();
std::vector<AllreduceAlgorithm> allreduce_algorithms();
/// The algorithm of that name; nullopt if there is none.
std::optional<AlltoallvAlgorithm> parse_alltoallv_algorithm(const std::string& name);
std::optional<AllreduceAlgorithm> parse_allreduce_algorithm(const std::string& name);

/// Collective over `comm`; logically collective in `cache` and the size. The
/// algorithm `ferry tune kernels` recorded in the tuning cache file `cache` for this
/// rank count and the size class of `block_bytes` (the bytes one rank sends one
/// rank) or `vector_bytes` (the bytes of the vector), with the classes 8 B, 32 B,
/// 128 B, ... (the largest class not above the size); `fallback` if `cache` is
/// empty, has no such entry, or names an algorithm this ferry lacks. Rank 0 reads
/// the file; its problems are logged as warnings, never raised. See
/// docs/user/tuning.md.
AlltoallvAlgorithm tuned_alltoallv_algorithm(MPI_Comm comm, const std::string& cache,
                                             std::int64_t block_bytes,
                                             AlltoallvAlgorithm fallback = AlltoallvAlgorithm::Mpi);
AllreduceAlgorithm tuned_allreduce_algorithm(MPI_Comm comm, const std::string& cache,
                                             std::int64_t vector_bytes,
                                             AllreduceAlgorithm fallback = AllreduceAlgorithm::Mpi);

/// An all-to-all-v with fixed counts, set up once and executed many times.
/// Every algorithm delivers exactly the values MPI_Alltoallv delivers.
class Alltoallv {
 public:
  /// Collective over `comm` (duplicated; the caller may free it). Counts and
  /// displacements are in values of `type`, one per rank of `comm`, as for
  /// MPI_Alltoallv. Raises on every rank alike: Errc::ArgSize (a vector not of
  /// comm size entries; a rank's recv_counts[s] differs from rank s's
  /// send_counts[rank]), Errc::Arg (a negative count or displacement, an unknown
  /// algorithm).
  Alltoallv(MPI_Comm comm, AlltoallvAlgorithm algorithm, Datatype type,
            std::vector<int> send_counts, std::vector<int> send_displs,
            std::vector<int> recv_counts, std::vector<int> recv_displs);
  ~Alltoallv();
  Alltoallv(Alltoallv&&) noexcept;
  Alltoallv& operator=(Alltoallv&&) noexcept;
  Alltoallv(const Alltoallv&) = delete;
  Alltoallv& operator=(const Alltoallv&) = delete;

  /// Collective. Sends block d of `send` (at send_displs[d]) to rank d and receives
  /// rank s's block into `recv` at recv_displs[s]. The buffers must not overlap.
  /// Raises Errc::Mpi if MPI fails.
  void execute(const void* send, void* recv);

  AlltoallvAlgorithm algorithm() const noexcept;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// A sum over all ranks of a vector of fixed length, set up once and executed many
/// times. Every rank receives the same bits (with Mpi, as the MPI library gives
/// them; the MPI standard only advises it). Integer sums equal MPI_Allreduce's
/// exactly; floating-point sums do too whenever every partial sum is exact (e.g.
/// integer-valued doubles below 2^53), but in general the algorithms add in
/// different orders, so the last bits may differ from MPI_Allreduce's and from each
/// other's. Each algorithm's order is fixed, so repeated runs give the same bits.
class Allreduce {
 public:
  /// Collective over `comm` (duplicated); logically collective in `algorithm`,
  /// `type` and `count`. Raises Errc::Arg on every rank if `count` < 0 or differs
  /// between ranks, or for an unknown algorithm.
  Allreduce(MPI_Comm comm, AllreduceAlgorithm algorithm, Datatype type, int count);
  ~Allreduce();
  Allreduce(Allreduce&&) noexcept;
  Allreduce& operator=(Allreduce&&) noexcept;
  Allreduce(const Allreduce&) = delete;
  Allreduce& operator=(const Allreduce&) = delete;

  /// Collective. `recv` receives the element-wise sum over all ranks of `send`
  /// (`count` values each). `send == recv` sums in place; other overlaps are not
  /// allowed. Raises Errc::Mpi if MPI fails.
  void execute(const void* send, void* recv);

  AllreduceAlgorithm algorithm() const noexcept;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace ferry
