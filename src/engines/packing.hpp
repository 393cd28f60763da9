// Gathering points of a field into a contiguous buffer and scattering them back.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ferry::detail {

/// out[i] = in[index[i]] for i < count, elements of `element_bytes` bytes.
/// `contiguous` says index is first, first+1, ... (then one memcpy).
void gather(char* out, const char* in, const std::int64_t* index, std::int64_t count,
            std::size_t element_bytes, bool contiguous);

/// out[index[i]] = in[i] for i < count.
void scatter(char* out, const char* in, const std::int64_t* index, std::int64_t count,
             std::size_t element_bytes, bool contiguous);

/// out[out_index[i]] = in[in_index[i]] for i < count (a direct local copy).
void copy_indexed(char* out, const std::int64_t* out_index, const char* in,
                  const std::int64_t* in_index, std::int64_t count, std::size_t element_bytes);

/// True if index[0..count) is first, first+1, ...
bool is_contiguous(const std::int64_t* index, std::int64_t count);

}  // namespace ferry::detail
