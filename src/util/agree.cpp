#include "util/agree.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "util/mpi.hpp"

namespace ferry::detail {

void share_error(const Comm& comm, int first, const std::optional<Error>& local) {
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

void agree(const Comm& comm, const std::optional<Error>& local) {
  int mine = local ? comm.rank() : comm.size();
  int first = 0;
  FERRY_CALL_MPI(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm.get()));
  share_error(comm, first, local);
}

std::vector<ValueSpread> agree_with_spread(const Comm& comm, const std::optional<Error>& local,
                                           const std::vector<std::int64_t>& values) {
  // One MAX reduction: minus the failing rank (so the lowest), each value (its highest)
  // and minus each value (minus its lowest); kAnyValue takes no part in either.
  const std::size_t n = values.size();
  std::vector<std::int64_t> reduced(1 + 2 * n);
  reduced[0] = -static_cast<std::int64_t>(local ? comm.rank() : comm.size());
  for (std::size_t i = 0; i < n; ++i) {
    reduced[1 + i] = values[i];
    reduced[1 + n + i] = values[i] == kAnyValue ? kAnyValue : -values[i];
  }
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, reduced.data(), static_cast<int>(reduced.size()),
                               MPI_INT64_T, MPI_MAX, comm.get()));
  share_error(comm, static_cast<int>(-reduced[0]), local);
  std::vector<ValueSpread> spread(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t minus_lowest = reduced[1 + n + i];
    spread[i] = {minus_lowest == kAnyValue ? kAnyValue : -minus_lowest, reduced[1 + i]};
  }
  return spread;
}

std::string setting_value(const SameSetting& setting, std::int64_t value) {
  return setting.value_name ? setting.value_name(value) : std::to_string(value);
}

}  // namespace ferry::detail
