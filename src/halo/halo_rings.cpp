#include "halo/halo_rings.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "halo/ghost_exchange.hpp"
#include "util/mpi.hpp"

namespace ferry::detail {

namespace {

// The owned cells' neighbour lists as fixed-width rows (padded with -1), the form
// in which owners send them to the ranks that hold the cells as ghosts.
class NeighbourRows {
 public:
  NeighbourRows(const Comm& comm, const CellGraph& graph) : comm_(comm), graph_(graph) {
    std::int64_t longest = 0;
    for (std::size_t i = 0; i < graph.cells.size(); ++i)
      longest = std::max(longest, graph.offsets[i + 1] - graph.offsets[i]);
    FERRY_CALL_MPI(MPI_Allreduce(&longest, &width_, 1, MPI_INT64_T, MPI_MAX, comm.get()));
    rows_.assign(graph.cells.size() * static_cast<std::size_t>(width_), kNone);
    for (std::size_t i = 0; i < graph.cells.size(); ++i)
      std::copy(graph.neighbours.begin() + graph.offsets[i],
                graph.neighbours.begin() + graph.offsets[i + 1],
                rows_.begin() + static_cast<std::ptrdiff_t>(i * static_cast<std::size_t>(width_)));
  }

  /// Collective: appends the neighbour lists of `cells` (owned elsewhere) to the CSR
  /// pair (offsets, neighbours).
  void fetch(const std::vector<std::int64_t>& cells, std::vector<std::int64_t>& offsets,
             std::vector<std::int64_t>& neighbours) const {
    std::vector<std::int64_t> received(cells.size() * static_cast<std::size_t>(width_), kNone);
    if (width_ > 0) {
      Exchange exchange = ghost_exchange(
          comm_, graph_.global_cells, graph_.cells, cells,
          {FieldSpec{Datatype::Int64, mpi_count<int>(width_, "Halo: neighbours of one cell")}},
          "p2p", {});
      exchange.execute(rows_.data(), received.data());
    }
    const auto width = static_cast<std::size_t>(width_);
    for (std::size_t i = 0; i < cells.size(); ++i) {
      for (std::size_t k = 0; k < width; ++k)
        if (received[i * width + k] != kNone) neighbours.push_back(received[i * width + k]);
      offsets.push_back(static_cast<std::int64_t>(neighbours.size()));
    }
  }

 private:
  static constexpr std::int64_t kNone = -1;
  const Comm& comm_;
  const CellGraph& graph_;
  std::int64_t width_ = 0;
  std::vector<std::int64_t> rows_;
};

}  // namespace

HaloRings find_halo_rings(const Comm& comm, const CellGraph& graph, int depth) {
  HaloRings rings;
  rings.cells = graph.cells;
  std::unordered_map<std::int64_t, std::int64_t> local;
  local.reserve(graph.cells.size() * 2);
  for (std::size_t i = 0; i < graph.cells.size(); ++i)
    local.emplace(graph.cells[i], static_cast<std::int64_t>(i));
  // Neighbour lists, in global ids, of the cells whose lists are known so far.
  std::vector<std::int64_t> offsets = graph.offsets;
  std::vector<std::int64_t> neighbours = graph.neighbours;
  rings.ring_end.push_back(static_cast<std::int64_t>(graph.cells.size()));
  // Only rings inside the outermost need their neighbour lists from the owners.
  std::optional<NeighbourRows> rows;
  if (depth > 1) rows.emplace(comm, graph);

  for (int r = 1; r <= depth; ++r) {
    const std::int64_t inner = r == 1 ? 0 : rings.ring_end[static_cast<std::size_t>(r) - 2];
    const std::int64_t outer = rings.ring_end[static_cast<std::size_t>(r) - 1];
    std::vector<std::int64_t> ring;
    // Ring r - 1 is the local cells [inner, outer); their CSR rows are one range.
    const auto first = static_cast<std::size_t>(offsets[static_cast<std::size_t>(inner)]);
    const auto last = static_cast<std::size_t>(offsets[static_cast<std::size_t>(outer)]);
    for (std::size_t k = first; k < last; ++k)
      if (local.find(neighbours[k]) == local.end()) ring.push_back(neighbours[k]);
    std::sort(ring.begin(), ring.end());
    ring.erase(std::unique(ring.begin(), ring.end()), ring.end());
    for (const std::int64_t id : ring) {
      local.emplace(id, static_cast<std::int64_t>(rings.cells.size()));
      rings.cells.push_back(id);
    }
    rings.ring_end.push_back(static_cast<std::int64_t>(rings.cells.size()));
    if (r < depth) rows->fetch(ring, offsets, neighbours);
  }

  rings.offsets = std::move(offsets);
  rings.neighbours.reserve(neighbours.size());
  for (const std::int64_t id : neighbours) rings.neighbours.push_back(local.at(id));
  return rings;
}

}  // namespace ferry::detail
