// The streaming copy behind TimeSeriesBuffer::load: exactly memcpy's result for
// every size and alignment of source and destination, touching no byte outside
// the destination (partial lines at both ends, copies shorter than a line).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "util/streaming_copy.hpp"

namespace {

constexpr std::size_t kGuard = 128;
constexpr unsigned char kUntouched = 0xA5;

unsigned char pattern(std::size_t i) { return static_cast<unsigned char>(i * 131 + 7); }

// Copies `bytes` from source offset `from` to destination offset `to` (both in
// bytes from 64-byte-aligned storage) and checks the destination and its guards.
void check_copy(std::size_t bytes, std::size_t from, std::size_t to) {
  std::vector<std::uint64_t> src_storage((kGuard + bytes + kGuard) / 8 + 16);
  std::vector<std::uint64_t> dst_storage(src_storage.size());
  // std::vector<std::uint64_t> is 8-aligned; step up to the next 64-byte boundary.
  auto aligned = [](std::uint64_t* p) {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    return reinterpret_cast<unsigned char*>(a + (64 - a % 64) % 64);
  };
  unsigned char* src = aligned(src_storage.data()) + from;
  unsigned char* dst = aligned(dst_storage.data()) + kGuard + to;
  for (std::size_t i = 0; i < bytes; ++i) src[i] = pattern(i);
  for (std::size_t i = 0; i < kGuard + bytes + kGuard - to; ++i) dst[i - kGuard] = kUntouched;
  ferry::detail::streaming_copy(dst, src, bytes);
  for (std::size_t i = 0; i < bytes; ++i)
    ASSERT_EQ(dst[i], pattern(i)) << "byte " << i << " of " << bytes << ", from +" << from
                                  << " to +" << to;
  for (std::size_t i = 1; i <= kGuard; ++i)
    ASSERT_EQ(dst[-static_cast<std::ptrdiff_t>(i)], kUntouched)
        << "byte " << i << " before the destination written (" << bytes << " bytes)";
  for (std::size_t i = 0; i < kGuard - to; ++i)
    ASSERT_EQ(dst[bytes + i], kUntouched)
        << "byte " << i << " after the destination written (" << bytes << " bytes)";
}

TEST(StreamingCopy, EveryShortSizeAndAlignment) {
  for (std::size_t bytes = 0; bytes <= 300; ++bytes)
    for (std::size_t to = 0; to < 64; to += 1)
      for (std::size_t from : {0, 1, 8, 33}) check_copy(bytes, from, to);
}

TEST(StreamingCopy, LargeCopiesWithPartialLinesAtBothEnds) {
  for (std::size_t bytes : {std::size_t{1} << 18, (std::size_t{1} << 18) + 12,
                            std::size_t{3240000}, std::size_t{1100392}})
    for (std::size_t to : {0, 4, 60})
      for (std::size_t from : {0, 4}) check_copy(bytes, from, to);
}

TEST(StreamingCopy, EmptyCopyMayTakeNullPointers) {
  ferry::detail::streaming_copy(nullptr, nullptr, 0);
}

}  // namespace
