// Every rank of an exchange describes the same fields: checked once at set-up.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/datatype.hpp"
#include "ferry/error.hpp"
#include "util/agree.hpp"

namespace ferry::detail {

/// What a rank is in an exchange, for messages.
struct ExchangeRole {
  bool source = false;       ///< holds source points
  bool destination = false;  ///< holds destination points
};

/// Collective over `comm`: agree() on `local` (this rank's error, if any) and, in the
/// same MPI_Allreduce, that every rank passes the same `fields` (count, types,
/// components). A source that packs float64 x 2 for a destination that unpacks
/// float32 x 1 would make a two-sided engine fail on one side only, and a one-sided
/// engine deliver wrong values without any error. If they differ, every rank raises
/// the same Errc::Arg naming the first field that differs and both declarations, with
/// the ranks that made them. `caller` starts the message ("Exchange"). Returns the
/// spread of `more` over the ranks (as agree_with_spread), agreed in the same
/// reduction: what the engine's set-up agrees on (AgreedSetup).
std::vector<ValueSpread> agree_on_fields(const Comm& comm, const std::optional<Error>& local,
                                         const std::vector<FieldSpec>& fields, ExchangeRole role,
                                         const char* caller,
                                         const std::vector<std::int64_t>& more = {});

}  // namespace ferry::detail
