#include "exchange/same_engine.hpp"

#include <array>

#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::detail {

std::int64_t engine_fingerprint(const std::string& engine) {
  std::uint64_t hash = 14695981039346656037ULL;  // FNV-1a over the name's bytes
  for (const char c : engine) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return static_cast<std::int64_t>(hash >> 1);
}

void report_different_engines(const Comm& comm, const std::string& engine, ValueSpread spread,
                              const char* caller) {
  const std::int64_t mine = engine_fingerprint(engine);
  const int nobody = comm.size();
  // The lowest rank that passed each end of the spread, then its engine's name.
  std::array<int, 2> who = {mine == spread.lowest ? comm.rank() : nobody,
                            mine == spread.highest ? comm.rank() : nobody};
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, who.data(), 2, MPI_INT, MPI_MIN, comm.get()));
  std::array<std::string, 2> names;
  for (std::size_t k = 0; k < 2; ++k) {
    int length = comm.rank() == who[k] ? mpi_count<int>(engine.size(), "an engine's name") : 0;
    FERRY_CALL_MPI(MPI_Bcast(&length, 1, MPI_INT, who[k], comm.get()));
    names[k] = comm.rank() == who[k] ? engine : std::string(static_cast<std::size_t>(length), ' ');
    FERRY_CALL_MPI(MPI_Bcast(names[k].data(), length, MPI_CHAR, who[k], comm.get()));
  }
  throw Error(Errc::Arg,
              cat(caller, ": the ranks pass different engines: \"", names[0], "\" on rank ", who[0],
                  " but \"", names[1], "\" on rank ", who[1],
                  ". Pass the same engine on every rank of the exchange (an engine read from "
                  "the environment or a file must be the same everywhere)"));
}

}  // namespace ferry::detail
