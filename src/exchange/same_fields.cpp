#include "exchange/same_fields.hpp"

#include <cstdint>
#include <string>

#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::detail {

namespace {

constexpr std::int64_t kNoField = -1;

// One field as one number: the type above the components.
std::int64_t code_of(const FieldSpec& f) {
  return (static_cast<std::int64_t>(f.type) << 32) |
         static_cast<std::int64_t>(static_cast<std::uint32_t>(f.components));
}

std::string declaration(std::int64_t code) {
  if (code == kNoField) return "no field";
  const auto type = static_cast<Datatype>(code >> 32);
  const auto components = static_cast<std::int32_t>(static_cast<std::uint32_t>(code & 0xffffffff));
  return cat(datatype_name(type), " x ", components);
}

const char* role_name(std::int64_t role) {
  switch (role) {
    case 1: return "a source";
    case 2: return "a destination";
    case 3: return "a source and destination";
    default: return "neither source nor destination";
  }
}

// FNV-1a over the field codes, kept non-negative so it never equals kAnyValue.
std::int64_t fingerprint(const std::vector<FieldSpec>& fields) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (const FieldSpec& f : fields) {
    const std::int64_t code = code_of(f);
    for (int byte = 0; byte < 8; ++byte) {
      hash ^= static_cast<std::uint64_t>(code >> (8 * byte)) & 0xff;
      hash *= 1099511628211ULL;
    }
  }
  return static_cast<std::int64_t>(hash >> 1);
}

// Collective, on every rank once the ranks are known to differ: the first field that
// differs, its lowest and highest declaration and the lowest ranks that made them.
[[noreturn]] void report_difference(const Comm& comm, const std::vector<FieldSpec>& fields,
                                    std::int64_t field_count, ExchangeRole role,
                                    const char* caller) {
  const auto n = static_cast<std::size_t>(field_count);
  std::vector<std::int64_t> codes(2 * n);  // each code, then minus each code: MAX gives both ends
  for (std::size_t f = 0; f < n; ++f) {
    const std::int64_t code = f < fields.size() ? code_of(fields[f]) : kNoField;
    codes[f] = code;
    codes[n + f] = -code;
  }
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, codes.data(), mpi_count<int>(codes.size(), caller),
                               MPI_INT64_T, MPI_MAX, comm.get()));
  std::size_t first = 0;
  while (first < n && codes[first] == -codes[n + first]) ++first;
  FERRY_ASSERT(first < n, "the ranks' fields differ but no field does");
  const std::int64_t high = codes[first];
  const std::int64_t low = -codes[n + first];
  const std::int64_t mine = first < fields.size() ? code_of(fields[first]) : kNoField;
  // The lowest rank with each declaration, and its role (rank * 4 + role).
  const std::int64_t role_bits = (role.source ? 1 : 0) + (role.destination ? 2 : 0);
  const std::int64_t nobody = std::int64_t{4} * comm.size();
  std::int64_t who[2] = {mine == low ? 4 * comm.rank() + role_bits : nobody,
                         mine == high ? 4 * comm.rank() + role_bits : nobody};
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, who, 2, MPI_INT64_T, MPI_MIN, comm.get()));
  throw Error(Errc::Arg,
              cat(caller, ": the ranks describe field ", first, " differently: ", declaration(low),
                  " on rank ", who[0] / 4, " (", role_name(who[0] % 4), ") but ",
                  declaration(high), " on rank ", who[1] / 4, " (", role_name(who[1] % 4),
                  "). Source and destination must agree on each field's type and components: "
                  "pass the same fields, in the same order, on every rank"),
              static_cast<int>(who[1] / 4));
}

}  // namespace

std::vector<ValueSpread> agree_on_fields(const Comm& comm, const std::optional<Error>& local,
                                         const std::vector<FieldSpec>& fields, ExchangeRole role,
                                         const char* caller, const std::vector<std::int64_t>& more) {
  std::vector<std::int64_t> values = {static_cast<std::int64_t>(fields.size()), fingerprint(fields)};
  values.insert(values.end(), more.begin(), more.end());
  std::vector<ValueSpread> spread = agree_with_spread(comm, local, values);
  if (!spread[0].same() || !spread[1].same())
    report_difference(comm, fields, spread[0].highest, role, caller);
  spread.erase(spread.begin(), spread.begin() + 2);
  return spread;
}

}  // namespace ferry::detail
