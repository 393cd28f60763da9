#include "ferry/cell_partition.hpp"

#include <utility>

#include "util/check.hpp"
#if FERRY_HAVE_METIS
#include "halo/metis_partition.hpp"
#endif

namespace ferry {

namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t x = (state += 0x9e3779b97f4a7c15ULL);
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Part of the k-th of n items when n items are cut into `parts` equal runs.
int block_of(std::int64_t k, std::int64_t n, int parts) {
  return static_cast<int>(k * parts / n);
}

void check_graph(const std::vector<std::int64_t>& offsets,
                 const std::vector<std::int64_t>& neighbours, int parts) {
  FERRY_CHECK(parts >= 1, Errc::Arg, "partition_cells: parts must be >= 1; got ", parts);
  FERRY_CHECK(!offsets.empty() && offsets.front() == 0 &&
                  offsets.back() == static_cast<std::int64_t>(neighbours.size()),
              Errc::ArgSize, "partition_cells: offsets must start at 0 and end at the number of "
              "neighbours (", neighbours.size(), "); got ", offsets.size(), " offsets",
              offsets.empty() ? "" : detail::cat(" from ", offsets.front(), " to ", offsets.back()),
              ". Pass cells + 1 offsets in CSR form");
}

}  // namespace

const char* partition_method_name(PartitionMethod method) noexcept {
  switch (method) {
    case PartitionMethod::Block: return "block";
    case PartitionMethod::Random: return "random";
    case PartitionMethod::Metis: return "metis";
  }
  return "?";
}

bool partition_method_available(PartitionMethod method) noexcept {
  return method != PartitionMethod::Metis || FERRY_HAVE_METIS;
}

std::vector<int> partition_cells(const std::vector<std::int64_t>& offsets,
                                 const std::vector<std::int64_t>& neighbours, int parts,
                                 PartitionMethod method, std::uint64_t seed) {
  check_graph(offsets, neighbours, parts);
  const auto cells = static_cast<std::int64_t>(offsets.size()) - 1;
  std::vector<int> owner(static_cast<std::size_t>(cells), 0);
  if (cells == 0 || parts == 1) return owner;
  switch (method) {
    case PartitionMethod::Block:
      for (std::int64_t c = 0; c < cells; ++c)
        owner[static_cast<std::size_t>(c)] = block_of(c, cells, parts);
      return owner;
    case PartitionMethod::Random: {
      // Fisher-Yates with our own generator: the same partition with every standard library.
      std::vector<std::int64_t> order(static_cast<std::size_t>(cells));
      for (std::int64_t c = 0; c < cells; ++c) order[static_cast<std::size_t>(c)] = c;
      std::uint64_t state = seed;
      for (std::int64_t k = cells - 1; k > 0; --k) {
        const std::uint64_t j = splitmix64(state) % static_cast<std::uint64_t>(k + 1);
        std::swap(order[static_cast<std::size_t>(k)], order[static_cast<std::size_t>(j)]);
      }
      for (std::int64_t k = 0; k < cells; ++k) {
        const std::int64_t cell = order[static_cast<std::size_t>(k)];
        owner[static_cast<std::size_t>(cell)] = block_of(k, cells, parts);
      }
      return owner;
    }
    case PartitionMethod::Metis:
#if FERRY_HAVE_METIS
      return detail::metis_partition(offsets, neighbours, parts, seed);
#else
      throw Error(Errc::Unsupported,
                  "partition_cells: this build of ferry has no METIS. Install METIS (Debian: "
                  "libmetis-dev) and reconfigure with -DFERRY_ENABLE_METIS=ON, or use the block "
                  "or random partition");
#endif
  }
  throw Error(Errc::Arg, detail::cat("partition_cells: unknown partition method ",
                                     static_cast<int>(method)));
}

}  // namespace ferry
