#include "halo/ghost_exchange.hpp"

#include <utility>

#include "ferry/error.hpp"
#include "ferry/layout.hpp"
#include "util/format.hpp"

namespace ferry::detail {

Exchange ghost_exchange(const Comm& comm, std::int64_t global_cells,
                        const std::vector<std::int64_t>& owned,
                        const std::vector<std::int64_t>& ghosts, std::vector<FieldSpec> fields,
                        const std::string& engine, const EngineOptions& options) {
  try {
    return Exchange(comm.get(), Layout::points(global_cells, owned),
                    Layout::points(global_cells, ghosts), std::move(fields), engine, options);
  } catch (const Error& e) {
    // Plan::build raised these on every rank alike; so does the rewording.
    if (e.code() == Errc::Duplicate)
      throw Error(e.code(),
                  cat("Halo: a cell is owned by two ranks (", e.what(),
                      "). The ranks' CellGraph::cells must not overlap: build every rank's "
                      "graph from the same partition"),
                  e.rank());
    if (e.code() == Errc::Missing)
      throw Error(e.code(),
                  cat("Halo: cells named as neighbours are owned by no rank (", e.what(),
                      "). Every neighbour must be in exactly one rank's CellGraph::cells: "
                      "build every rank's graph from the same partition, with owners in "
                      "0 .. ranks-1"),
                  e.rank());
    throw;
  }
}

}  // namespace ferry::detail
