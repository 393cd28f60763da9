#include "ferry/layout.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>
#include <utility>

#include "util/check.hpp"

namespace ferry {

namespace {

void check_size(std::int64_t n, const char* who) {
  FERRY_CHECK(n >= 0, Errc::Arg, who, ": global size must be >= 0; got ", n);
}

void check_part(int parts, int part, const char* who) {
  FERRY_CHECK(parts > 0, Errc::Arg, who, ": parts must be >= 1; got ", parts);
  FERRY_CHECK(part >= 0 && part < parts, Errc::Arg, who, ": part must be in 0..", parts - 1,
              "; got ", part, ". Pass the rank of this process inside its group");
}

// Ids [first, first + count) of a 1-D block split: the first n % parts parts get one more.
std::pair<std::int64_t, std::int64_t> block_range(std::int64_t n, int parts, int part) {
  const std::int64_t base = n / parts;
  const std::int64_t extra = n % parts;
  const std::int64_t first = part * base + std::min<std::int64_t>(part, extra);
  return {first, base + (part < extra ? 1 : 0)};
}

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

Layout::Layout(std::int64_t global_size, std::vector<std::int64_t> ids, bool member)
    : global_size_(global_size), ids_(std::move(ids)), member_(member) {}

Layout Layout::block(std::int64_t global_size, int parts, int part) {
  check_size(global_size, "Layout::block");
  check_part(parts, part, "Layout::block");
  auto [first, count] = block_range(global_size, parts, part);
  std::vector<std::int64_t> ids(static_cast<std::size_t>(count));
  std::iota(ids.begin(), ids.end(), first);
  return Layout(global_size, std::move(ids), true);
}

Layout Layout::box(std::int64_t nx, std::int64_t ny, int px, int py, int part) {
  FERRY_CHECK(nx >= 0 && ny >= 0, Errc::Arg, "Layout::box: grid shape must be >= 0; got ", nx,
              " x ", ny);
  FERRY_CHECK(px > 0 && py > 0, Errc::Arg, "Layout::box: process grid must be >= 1 x 1; got ",
              px, " x ", py);
  FERRY_CHECK(ny == 0 || nx <= std::numeric_limits<std::int64_t>::max() / ny, Errc::Overflow,
              "Layout::box: grid of ", nx, " x ", ny, " points overflows 64-bit ids");
  FERRY_CHECK(static_cast<std::int64_t>(px) * py <= std::numeric_limits<int>::max(),
              Errc::Overflow, "Layout::box: process grid ", px, " x ", py, " overflows int");
  check_part(px * py, part, "Layout::box");
  auto [i0, ni] = block_range(nx, px, part % px);
  auto [j0, nj] = block_range(ny, py, part / px);
  std::vector<std::int64_t> ids;
  ids.reserve(static_cast<std::size_t>(ni * nj));
  for (std::int64_t j = j0; j < j0 + nj; ++j)
    for (std::int64_t i = i0; i < i0 + ni; ++i) ids.push_back(j * nx + i);
  return Layout(nx * ny, std::move(ids), true);
}

Layout Layout::orange(std::int64_t nx, std::int64_t ny, int parts, int part) {
  FERRY_CHECK(nx >= 0 && ny >= 0, Errc::Arg, "Layout::orange: grid shape must be >= 0; got ", nx,
              " x ", ny);
  FERRY_CHECK(ny == 0 || nx <= std::numeric_limits<std::int64_t>::max() / ny, Errc::Overflow,
              "Layout::orange: grid of ", nx, " x ", ny, " points overflows 64-bit ids");
  check_part(parts, part, "Layout::orange");
  auto [j0, nj] = block_range(ny, parts, part);
  std::vector<std::int64_t> ids(static_cast<std::size_t>(nj * nx));
  std::iota(ids.begin(), ids.end(), j0 * nx);
  return Layout(nx * ny, std::move(ids), true);
}

Layout Layout::round_robin(std::int64_t global_size, int parts, int part) {
  check_size(global_size, "Layout::round_robin");
  check_part(parts, part, "Layout::round_robin");
  std::vector<std::int64_t> ids;
  ids.reserve(static_cast<std::size_t>(global_size / parts + 1));
  for (std::int64_t id = part; id < global_size; id += parts) ids.push_back(id);
  return Layout(global_size, std::move(ids), true);
}

Layout Layout::points(std::int64_t global_size, std::vector<std::int64_t> ids) {
  check_size(global_size, "Layout::points");
  // Ids are checked against the range collectively when a plan is built.
  return Layout(global_size, std::move(ids), true);
}

Layout Layout::random(std::int64_t global_size, int parts, int part, std::uint64_t seed) {
  check_size(global_size, "Layout::random");
  check_part(parts, part, "Layout::random");
  std::vector<std::int64_t> ids;
  for (std::int64_t id = 0; id < global_size; ++id)
    if (splitmix64(seed ^ splitmix64(static_cast<std::uint64_t>(id))) %
            static_cast<std::uint64_t>(parts) ==
        static_cast<std::uint64_t>(part))
      ids.push_back(id);
  std::mt19937_64 shuffle_rng(splitmix64(seed + static_cast<std::uint64_t>(part)));
  std::shuffle(ids.begin(), ids.end(), shuffle_rng);
  return Layout(global_size, std::move(ids), true);
}

Layout Layout::none(std::int64_t global_size) {
  check_size(global_size, "Layout::none");
  return Layout(global_size, {}, false);
}

}  // namespace ferry
