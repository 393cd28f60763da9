// An OASIS3-MCT partition (the ig_paral vector of oasis_def_partition) as the ids it holds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ferry::oasis {

/// The partition forms of ig_paral(1).
enum class PartitionForm { Serial = 0, Apple = 1, Box = 2, Orange = 3, Points = 4 };

/// The 0-based global ids (OASIS counts from 1 only for Points) one rank holds, in
/// the order its arrays store them: Serial [0, 0, size]; Apple [1, offset,
/// length]; Box [2, offset, nx_local, ny_local, nx_global] (row after row); Orange
/// [3, segments, offset, length, ...]; Points [4, count, index, ...] (1-based).
/// All zeros: a rank holding nothing (OASIS3-MCT 2.0's way). Raises Errc::Arg
/// naming the form and the values for a malformed vector. Not collective. Reads
/// the caller's array in place: a POINTS vector holds an index per point.
std::vector<std::int64_t> partition_ids(const int* ig_paral, std::size_t length);

/// "SERIAL", "APPLE", ... for messages.
const char* partition_form_name(int form) noexcept;

}  // namespace ferry::oasis
