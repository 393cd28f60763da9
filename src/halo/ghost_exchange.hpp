// The Exchange from a rank's owned cells to its ghost cells, with halo wording for
// ownership errors.
#pragma once

#include <string>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/exchange.hpp"

namespace ferry::detail {

/// Collective over `comm`: an Exchange whose sources are the ranks' owned cells and
/// whose destinations are the ghost cells they ask for. A cell owned by two ranks or
/// by none raises Errc::Duplicate / Errc::Missing on every rank, with the plan's
/// detail and what it means for a mesh partition.
Exchange ghost_exchange(const Comm& comm, std::int64_t global_cells,
                        const std::vector<std::int64_t>& owned,
                        const std::vector<std::int64_t>& ghosts, std::vector<FieldSpec> fields,
                        const std::string& engine, const EngineOptions& options);

}  // namespace ferry::detail
