// ferry::Remap: applies a remapping matrix to fields, from a source layout to a destination layout.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ferry/datatype.hpp"
#include "ferry/engine_options.hpp"
#include "ferry/layout.hpp"
#include "ferry/traffic.hpp"
#include "ferry/weights.hpp"

namespace ferry {

/// Where the sparse product runs.
enum class MapOn : int {
  Src = 0,  ///< on the source ranks; the results move to the destination
  Dst = 1,  ///< on the destination ranks; the source values they need move there first
};

/// How the sums of a row are formed.
enum class RemapMode : int {
  /// Every row is summed whole on one rank, its links in their fixed order: the same
  /// bits for any process count, layout, engine and map_on.
  Bfb = 0,
  /// With map_on = Src, each source rank sums the links whose source point it holds
  /// (a partial sum per row) and only partial sums move: fewer bytes when a row's
  /// source points sit on few ranks, but the last bits depend on the decomposition.
  /// With map_on = Dst rows are whole on the destination ranks anyway: same as Bfb.
  Sum = 1,
};

/// "src" or "dst", as the configuration file spells it.
const char* map_on_name(MapOn map_on) noexcept;
/// "bfb" or "sum", as the configuration file spells it.
const char* remap_mode_name(RemapMode mode) noexcept;

/// How a Remap runs. Logically collective: the same on every rank, except dst_mask.
struct RemapOptions {
  MapOn map_on = MapOn::Dst;
  RemapMode mode = RemapMode::Bfb;
  /// Value of destination points that receive nothing: rows without links, and the
  /// points flagged in dst_mask.
  double fill_value = 0;
  /// Empty, or one flag per point of this rank's destination layout: non-zero keeps
  /// fill_value there whatever the weights say.
  std::vector<std::uint8_t> dst_mask;
  /// Engine of every data movement: a registered name, "auto", or "default"
  /// ($FERRY_ENGINE, else p2p); with its options.
  std::string engine = "default";
  EngineOptions engine_options;
};

/// Applies a Weights matrix to fields again and again: dst = W src, row by row.
///
/// Collective over `comm`, the communicator the weights were built on (same ranks, same
/// order): every rank passes its source layout (Layout::none(src_size) if it holds no
/// source values) and its destination layout (Layout::none(dst_size) if it receives
/// none); the source layout holds every source point the weights use exactly once,
/// the destination layout asks for any points, several ranks may ask for the same.
/// Fields are Float64 or Float32 with any number of components (value[point *
/// components + c]), all moved through the same plans; sums run in double.
///
/// Setup routes each needed row of the matrix, once, to the rank that applies it and
/// builds the exchanges (see docs/user/regrid.md for their costs). The Weights
/// object is no longer needed afterwards.
class Remap {
 public:
  /// Collective. Raises on every rank alike: Errc::Arg (map_on, mode or fields that
  /// differ between ranks, weights built on another communicator, a layout of the
  /// wrong global size, no fields, a field type other than Float64/Float32 or
  /// components < 1, a dst_mask of the wrong length, an unknown engine), Errc::ArgRange (a layout id outside its grid), Errc::Duplicate
  /// (a source point held twice), Errc::Missing (a source point the weights use that
  /// no rank holds), Errc::Unsupported (an engine this MPI cannot run).
  Remap(MPI_Comm comm, const Weights& weights, const Layout& src, const Layout& dst,
        std::vector<FieldSpec> fields, const RemapOptions& options = {});
  ~Remap();
  Remap(Remap&&) noexcept;
  Remap& operator=(Remap&&) noexcept;

  /// Collective, idempotent: closes the remap's exchanges (Exchange::close); afterwards
  /// only the queries below and destruction are allowed. The destructor never waits
  /// for another rank (see docs/user/failures.md).
  void close();

  /// Collective: begin() then end().
  void apply(const void* const* src, void* const* dst);
  /// Collective, for fields that are all Float64 (Errc::Arg otherwise).
  void apply(const double* const* src, double* const* dst);
  /// Collective, non-blocking: starts moving the source values (with map_on = Src and
  /// mode = Sum, first forms the partial sums). src[f] holds field f at this rank's
  /// source points, dst[f] receives it at its destination points; neither may be
  /// touched until end(). Ranks without points of a field may pass nullptr for it.
  void begin(const void* const* src, void* const* dst);
  /// Collective: completes the transfer, applies the rows and delivers the results.
  void end();

  /// Global ids of the destination rows this rank applies (ascending).
  const std::vector<std::int64_t>& rows() const noexcept;
  /// The weight file's source point data at this rank's source layout points.
  const GridPointData& src_points() const noexcept;
  /// The weight file's destination point data at this rank's destination layout points.
  const GridPointData& dst_points() const noexcept;
  const std::vector<FieldSpec>& fields() const noexcept;
  const RemapOptions& options() const noexcept;
  /// What one apply() of every field sends from this rank, over all its exchanges.
  Traffic traffic() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace ferry
