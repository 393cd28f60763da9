// The element-wise sum the all-reduce algorithms apply, for every ferry::Datatype.
#pragma once

#include <cstddef>

#include "ferry/datatype.hpp"

namespace ferry::detail {

/// target[i] = target[i] + addend[i] for `count` values of `type`. Integer sums
/// wrap like MPI_SUM on the same types (computed in unsigned arithmetic).
void sum_into(Datatype type, void* target, const void* addend, std::size_t count);

}  // namespace ferry::detail
