// How many heap bytes this process holds, to measure what an object keeps allocated.
#pragma once

#include <cstdint>
#include <optional>

namespace ferry::bench {

/// Not collective. Bytes the C allocator has handed out and not taken back: chunks
/// in use in the main arena plus chunks mapped on their own (glibc mallinfo2), so
/// allocations made by MPI on this thread count too. nullopt where the C library
/// cannot tell. The difference of two calls is what was allocated in between and
/// is still held.
std::optional<std::int64_t> heap_in_use();

}  // namespace ferry::bench
