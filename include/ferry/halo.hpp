// ferry::Halo: ghost cells of an unstructured mesh, filled from their owners.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ferry/engine_options.hpp"
#include "ferry/exchange.hpp"

namespace ferry {

/// One rank's part of an unstructured mesh: the cells it owns and, for each, the
/// global ids of its neighbours (MPAS `cellsOnCell`, 0-based). Together the ranks'
/// `cells` are the partition: every cell of 0 .. global_cells-1 that some rank names
/// as a neighbour must be owned by exactly one rank. No rank needs the whole mesh.
struct CellGraph {
  std::int64_t global_cells = 0;          ///< cells in the whole mesh (same on every rank)
  std::vector<std::int64_t> cells;        ///< owned cells' global ids, in local storage order
  std::vector<std::int64_t> offsets;      ///< cells.size() + 1 entries, offsets[0] = 0
  /// Cell cells[i]'s neighbours are neighbours[offsets[i] .. offsets[i+1]).
  std::vector<std::int64_t> neighbours;
};

/// How a Halo is built. Logically collective: the same values on every rank.
struct HaloOptions {
  /// Ghost rings: 1 = the neighbours of owned cells, 2 = also their neighbours, ...
  int depth = 1;
  /// The fields exchanged together; each point of a field carries `components`
  /// values (levels x spectral bins, ...). A field's local array holds
  /// local_count() x components values, owned cells first, then the ghosts.
  std::vector<FieldSpec> fields = {FieldSpec{}};
  /// An engine name as for Exchange ("p2p", "neighbor", "auto", ...; "default"
  /// reads $FERRY_ENGINE, else p2p), and its options ("reorder" for neighbor).
  std::string engine = "default";
  EngineOptions engine_options;
};

/// Ghost-cell (halo) exchange: each rank owns some cells of a mesh and keeps copies
/// of the cells within `depth` neighbour steps that other ranks own. execute()
/// copies the owners' current values into every ghost copy, bit for bit, with any
/// engine of this build.
///
/// Local storage: the owned cells in the order of CellGraph::cells, then ring 1
/// (cells one step away), ring 2, ...; inside a ring by ascending global id. So a
/// model indexes one array per field, and the first ring_end(r) cells are those
/// within r steps of its own.
///
/// Construction is collective over `comm` (duplicated) and costs O(local cells and
/// ghosts) memory per rank: ring r+1 is found from the neighbour lists of ring r,
/// which their owners send (one plan and exchange per ring; nobody holds the mesh).
/// The halo itself is an Exchange from the owned cells to the ghost cells.
class Halo {
 public:
  /// Collective. Raises on every rank alike: Errc::Arg (depth < 1, ranks disagree
  /// on global_cells or depth, an unknown engine or option), Errc::ArgSize (offsets
  /// of the wrong length or not increasing), Errc::ArgRange (a cell or neighbour id
  /// outside 0 .. global_cells-1), Errc::Duplicate (a cell owned twice, on one rank or
  /// on two), Errc::Missing (a neighbour no rank owns), Errc::Unsupported (the engine
  /// cannot run on this MPI). Messages name the rank, the cell and the fix.
  Halo(MPI_Comm comm, const CellGraph& graph, const HaloOptions& options = {});
  ~Halo();
  Halo(Halo&&) noexcept;
  Halo& operator=(Halo&&) noexcept;

  /// Collective, idempotent: closes the halo's exchange (Exchange::close); afterwards
  /// only the queries below and destruction are allowed. The destructor never waits
  /// for another rank (see docs/user/failures.md).
  void close();

  /// Collective: begin() then end().
  void execute(void* const* fields, const std::uint8_t* mask = nullptr);
  /// Collective, non-blocking: starts filling the ghosts of the fields selected by
  /// `mask` (nullptr = all) from their owners. fields[f] is field f's local array
  /// (local_count() x components values). Until end(), the owned part may be read
  /// but not written, and the ghost part not touched.
  void begin(void* const* fields, const std::uint8_t* mask = nullptr);
  /// Collective: completes begin().
  void end();
  /// Not collective: true when end() would not wait.
  bool test();
  /// Convenience for a single field.
  void execute(void* field) { execute(&field, nullptr); }

  int depth() const noexcept;
  std::int64_t owned_count() const noexcept;
  std::int64_t ghost_count() const noexcept;
  /// owned_count() + ghost_count(): the length (in cells) of a field's local array.
  std::int64_t local_count() const noexcept;
  /// Local cells within `ring` steps of the owned ones are [0, ring_end(ring));
  /// ring_end(0) = owned_count(), ring_end(depth()) = local_count(). 0 <= ring <= depth.
  std::int64_t ring_end(int ring) const;
  /// Global ids of the local cells, in storage order.
  const std::vector<std::int64_t>& cells() const noexcept;
  /// Neighbours as local indices, for the cells [0, ring_end(depth()-1)) (those whose
  /// neighbours are all local), in each cell's CellGraph order: cell i's neighbours are
  /// neighbours()[neighbour_offsets()[i] .. neighbour_offsets()[i+1]).
  const std::vector<std::int64_t>& neighbour_offsets() const noexcept;
  const std::vector<std::int64_t>& neighbours() const noexcept;
  /// The underlying exchange (owned cells -> ghost cells): plan, engine, traffic.
  const Exchange& exchange() const noexcept;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace ferry
