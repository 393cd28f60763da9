#include "util/agree.hpp"

#include <string>
#include <vector>

#include "util/mpi.hpp"

namespace ferry::detail {

void agree(const Comm& comm, const std::optional<Error>& local) {
  int mine = local ? comm.rank() : comm.size();
  int first = 0;
  FERRY_CALL_MPI(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm.get()));
  if (first == comm.size()) return;

  // The lowest failing rank tells everybody its code and message.
  int header[2] = {0, 0};
  std::string text;
  if (comm.rank() == first) {
    text = local->what();
    header[0] = static_cast<int>(local->code());
    header[1] = static_cast<int>(text.size());
  }
  FERRY_CALL_MPI(MPI_Bcast(header, 2, MPI_INT, first, comm.get()));
  text.resize(static_cast<std::size_t>(header[1]));
  FERRY_CALL_MPI(MPI_Bcast(text.data(), header[1], MPI_CHAR, first, comm.get()));
  throw Error(static_cast<Errc>(header[0]), text, first);
}

}  // namespace ferry::detail
