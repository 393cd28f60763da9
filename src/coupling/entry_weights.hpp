// The weights of a regridded exchange entry: read from its file, or computed from the
// grid points the components declared.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "coupling/declarations.hpp"
#include "ferry/comm.hpp"
#include "ferry/layout.hpp"
#include "ferry/weights.hpp"

namespace ferry::coupling {

/// One rank's part in building the weights of an entry.
struct RegridGrids {
  const Comm* link = nullptr;     ///< source and target members
  const Comm* product = nullptr;  ///< the ranks that run the product (invalid elsewhere)
  const PartitionDecl* source = nullptr;  ///< on source members: the source partition
  const PartitionDecl* target = nullptr;  ///< on target members: the target partition
  const Layout* block = nullptr;  ///< on product ranks: the block side of the product
  std::int64_t source_size = 0, target_size = 0;
  std::int64_t source_nx = 0;     ///< the source grid's first dimension (bilinear)
  /// The `grids:` entries of the source and target grids (null: none): an online
  /// method reads that side's cells from the file instead of the declarations.
  const config::GridFileConfig* source_file = nullptr;
  const config::GridFileConfig* target_file = nullptr;
};

/// Collective over `grids.link`. Returns the weights distributed over the product
/// ranks (empty elsewhere). A file is read there; an online method first moves the
/// centres (or, conservative, the cell corners) and masks of the grid the product
/// ranks do not hold to their block. A side with a grid file (`source_file`,
/// `target_file`) is read from it instead, each product rank its block (read_grid).
/// Raises Errc::Arg naming the entry (`where`) when the file's grid sizes differ from
/// the grids' or the coordinates or corners an online method needs were not
/// declared, Errc::ArgSize when a grid file's size (or, for a bilinear or bicubic
/// source, its first dimension) is not the declared grid's, Errc::Arg when a
/// conservative method's grid file has no corners, and the errors of Weights::read,
/// read_grid and the online weight functions, prefixed with `where`; on every rank
/// of the link alike.
Weights regrid_weights(const config::RegridConfig& config, const RegridGrids& grids,
                       const std::string& where);

/// How many gradients of the field a put may give for remapping `config` (OASIS's
/// fld2..): 3 for bicubic, 2 for second-order conservative, 0 otherwise.
std::size_t gradient_count(const config::RegridConfig& config);

/// Collective over `grids.link`, as regrid_weights. For a method that takes
/// gradient_count(config) > 0 gradients, the weights of the field's value, then of
/// each gradient (bicubic_gradient_weights, conservative_gradient_weights), on the
/// product ranks; for a weight file of several weights per link (SCRIP's num_wgts >
/// 1: bicubic, second-order conservative) mapped on the source side, one Weights per
/// column (read_weight_columns); empty otherwise.
std::vector<Weights> regrid_gradient_weights(const config::RegridConfig& config,
                                             const RegridGrids& grids, const std::string& where);

}  // namespace ferry::coupling
