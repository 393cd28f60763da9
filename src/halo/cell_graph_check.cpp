#include "halo/cell_graph_check.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::detail {

namespace {

void check_offsets(const CellGraph& graph, int rank) {
  const std::size_t cells = graph.cells.size();
  FERRY_CHECK(graph.offsets.size() == cells + 1, Errc::ArgSize, "Halo: CellGraph on rank ", rank,
              " has ", cells, " cells and ", graph.offsets.size(), " offsets, expected ",
              cells + 1, ". Cell i's neighbours are neighbours[offsets[i] .. offsets[i+1]), so "
              "offsets has one entry more than cells, starting at 0");
  FERRY_CHECK(graph.offsets.front() == 0 &&
                  graph.offsets.back() == static_cast<std::int64_t>(graph.neighbours.size()),
              Errc::ArgSize, "Halo: CellGraph offsets on rank ", rank, " run from ",
              graph.offsets.front(), " to ", graph.offsets.back(), ", expected 0 to ",
              graph.neighbours.size(), " (the number of neighbour entries)");
  for (std::size_t i = 0; i < cells; ++i)
    FERRY_CHECK(graph.offsets[i] <= graph.offsets[i + 1], Errc::ArgSize,
                "Halo: CellGraph offsets on rank ", rank, " decrease at cell ", graph.cells[i],
                " (position ", i, "): ", graph.offsets[i], " then ", graph.offsets[i + 1],
                ". Offsets must not decrease");
}

void check_ids(const CellGraph& graph, int rank) {
  const std::int64_t n = graph.global_cells;
  for (std::size_t i = 0; i < graph.cells.size(); ++i)
    FERRY_CHECK(graph.cells[i] >= 0 && graph.cells[i] < n, Errc::ArgRange, "Halo: cell id ",
                graph.cells[i], " at position ", i, " of rank ", rank,
                "'s cells is outside 0..", n - 1, " (global_cells = ", n,
                "). Cell ids are 0-based global ids");
  for (std::size_t i = 0; i < graph.cells.size(); ++i)
    for (auto k = graph.offsets[i]; k < graph.offsets[i + 1]; ++k) {
      const std::int64_t id = graph.neighbours[static_cast<std::size_t>(k)];
      FERRY_CHECK(id >= 0 && id < n, Errc::ArgRange, "Halo: neighbour ", k - graph.offsets[i],
                  " of cell ", graph.cells[i], " on rank ", rank, " is ", id,
                  ", outside 0..", n - 1, " (global_cells = ", n,
                  "). Neighbour ids are 0-based global cell ids; list only existing neighbours "
                  "(MPAS cellsOnCell is 1-based and pads with 0: subtract 1 and drop the padding)");
    }
}

void check_unique(const CellGraph& graph, int rank) {
  std::vector<std::pair<std::int64_t, std::size_t>> sorted;
  sorted.reserve(graph.cells.size());
  for (std::size_t i = 0; i < graph.cells.size(); ++i) sorted.emplace_back(graph.cells[i], i);
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 1; i < sorted.size(); ++i)
    FERRY_CHECK(sorted[i].first != sorted[i - 1].first, Errc::Duplicate, "Halo: cell ",
                sorted[i].first, " is listed twice among rank ", rank, "'s cells (positions ",
                sorted[i - 1].second, " and ", sorted[i].second,
                "). Each cell must be owned once");
}

}  // namespace

void check_cell_graph(const Comm& comm, const CellGraph& graph, int depth) {
  // Maximum of x and of -x gives the range of a value over the ranks.
  const std::int64_t mine[4] = {graph.global_cells, -graph.global_cells, depth, -depth};
  std::int64_t range[4] = {0, 0, 0, 0};
  FERRY_CALL_MPI(MPI_Allreduce(mine, range, 4, MPI_INT64_T, MPI_MAX, comm.get()));
  agree_on(comm, [&] {
    FERRY_CHECK(range[2] == -range[3], Errc::Arg, "Halo: ranks disagree on the halo depth: from ",
                -range[3], " to ", range[2], ". Pass the same HaloOptions::depth on every rank");
    FERRY_CHECK(depth >= 1, Errc::Arg, "Halo: depth must be >= 1; got ", depth,
                ". Depth 1 gives the neighbours of owned cells, 2 also theirs, ...");
    FERRY_CHECK(range[0] == -range[1], Errc::Arg,
                "Halo: ranks disagree on CellGraph::global_cells: from ", -range[1], " to ",
                range[0], ". Every rank describes the same mesh");
    FERRY_CHECK(graph.global_cells >= 0, Errc::Arg,
                "Halo: CellGraph::global_cells must be >= 0; got ", graph.global_cells);
    check_offsets(graph, comm.rank());
    check_ids(graph, comm.rank());
    check_unique(graph, comm.rank());
  });
}

}  // namespace ferry::detail
