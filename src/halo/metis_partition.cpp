#include "halo/metis_partition.hpp"

#include <metis.h>

#include <limits>

#include "util/check.hpp"

namespace ferry::detail {

namespace {

idx_t to_idx(std::int64_t value, const char* what) {
  FERRY_CHECK(value >= 0 && value <= std::numeric_limits<idx_t>::max(), Errc::Overflow,
              "partition_cells: ", what, " ", value, " does not fit METIS's ",
              sizeof(idx_t) * 8, "-bit idx_t. Use a METIS built with IDXTYPEWIDTH=64, or the "
              "block partition");
  return static_cast<idx_t>(value);
}

}  // namespace

std::vector<int> metis_partition(const std::vector<std::int64_t>& offsets,
                                 const std::vector<std::int64_t>& neighbours, int parts,
                                 std::uint64_t seed) {
  const auto cells = static_cast<std::int64_t>(offsets.size()) - 1;
  idx_t vertices = to_idx(cells, "cell count");
  to_idx(static_cast<std::int64_t>(neighbours.size()), "neighbour count");
  std::vector<idx_t> xadj(offsets.size());
  for (std::size_t i = 0; i < offsets.size(); ++i) xadj[i] = static_cast<idx_t>(offsets[i]);
  std::vector<idx_t> adjacency(neighbours.size());
  for (std::size_t i = 0; i < neighbours.size(); ++i)
    adjacency[i] = to_idx(neighbours[i], "neighbour id");

  idx_t constraints = 1;
  idx_t nparts = parts;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = static_cast<idx_t>(seed % static_cast<std::uint64_t>(
                                                             std::numeric_limits<idx_t>::max()));
  idx_t edge_cut = 0;
  std::vector<idx_t> part(static_cast<std::size_t>(cells), 0);
  const int status =
      METIS_PartGraphKway(&vertices, &constraints, xadj.data(), adjacency.data(), nullptr,
                          nullptr, nullptr, &nparts, nullptr, nullptr, options, &edge_cut,
                          part.data());
  FERRY_CHECK(status == METIS_OK, Errc::Arg, "partition_cells: METIS_PartGraphKway failed (",
              status == METIS_ERROR_INPUT    ? "METIS_ERROR_INPUT"
              : status == METIS_ERROR_MEMORY ? "METIS_ERROR_MEMORY"
                                             : "METIS_ERROR",
              ") for ", cells, " cells in ", parts,
              " parts. METIS needs a symmetric graph without self-loops or repeated edges");
  return std::vector<int>(part.begin(), part.end());
}

}  // namespace ferry::detail
