// A memcpy that writes around the cache, for large destinations this core will not
// read again soon.
#pragma once

#include <cstddef>

namespace ferry::detail {

/// Not collective. Copies `bytes` from `src` to `dst`, which must not overlap, like
/// std::memcpy. On x86-64 CPUs with AVX, the whole 64-byte lines of `dst` are written
/// with non-temporal (streaming) stores: they go to memory without first being read
/// into the cache (no read for ownership), which halves the memory traffic of a copy
/// to a destination that is not in cache, and they evict nothing the caller uses.
/// The partial lines at both ends, and every byte on other CPUs, use std::memcpy.
///
/// Streaming stores are weakly ordered even on x86, so the streamed part is fenced
/// (sfence) on both sides: none of its bytes becomes visible to other cores before a
/// store this thread made before the call, and all of them are visible before any
/// store made after the call returns. A copy can therefore be published by a flag
/// written afterwards, as with std::memcpy.
void streaming_copy(void* dst, const void* src, std::size_t bytes) noexcept;

}  // namespace ferry::detail
