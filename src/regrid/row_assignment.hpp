// Deciding, for a Remap, which rank applies each needed row, and handing out the rows.
#pragma once

#include <cstdint>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/layout.hpp"
#include "ferry/remap.hpp"
#include "ferry/weights.hpp"

namespace ferry::regrid::detail {

/// Links of several rows in CSR form.
struct RowLinks {
  std::vector<std::int64_t> rows;           ///< global destination row ids, ascending
  std::vector<std::int64_t> row_start{0};   ///< rows.size() + 1 offsets into index/weight
  std::vector<std::int64_t> index;          ///< what each link reads (see RowAssignment)
  std::vector<double> weight;
};

/// What one rank does in a Remap.
struct RowAssignment {
  /// The rows this rank finishes: every destination row some rank asks for is
  /// finished by exactly one rank. Whole rows: `index` holds global source points.
  /// Partial sums: `index` holds the global ids of the partial sums to add, weight 1.
  RowLinks finish;
  /// Partial sums only: the partial rows formed here, `index` holding local indices
  /// into this rank's source layout. Partial sum i of this rank has global id
  /// first_partial + i; partial_total counts them over all ranks.
  RowLinks partial;
  std::int64_t first_partial = 0;
  std::int64_t partial_total = 0;
};

/// Collective over `comm`. Works out where each row that some rank's destination
/// layout asks for is applied, and moves its links there (rows nobody asks for are
/// dropped). Whole rows (`partial_sums` false) go to the lowest rank asking for the
/// row (map_on Dst) or to the source rank holding most of the row's source points
/// (map_on Src); with `partial_sums` each link goes to the source rank holding its
/// source point and the partial sums to the lowest rank asking for the row. Rows
/// without links are finished by the lowest rank asking for them. Whole rows need no
/// rendezvous on one rank, nor with map_on Dst when every rank asks only for rows of
/// its own block (one reduction tells): they are applied where they are held.
/// Layout ids must be in range (checked by the caller). Raises on every rank alike,
/// for map_on Src: Errc::Duplicate (a source point held twice), Errc::Missing (a
/// source point the weights use that no rank holds).
RowAssignment assign_rows(const Comm& comm, const Weights& weights, const Layout& src,
                          const Layout& dst, MapOn map_on, bool partial_sums);

}  // namespace ferry::regrid::detail
