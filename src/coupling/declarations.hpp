// What the components of a run declare: grids, partitions and fields.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/coupler.hpp"
#include "ferry/layout.hpp"

namespace ferry::coupling {

struct GridDecl {
  std::string component;
  std::string name;
  std::int64_t nx = 0;
  std::int64_t ny = 1;
  std::int64_t size() const noexcept { return nx * ny; }
};

/// This rank's part of a partition, with optional grid metadata for its points.
struct PartitionDecl {
  int grid = -1;
  std::string name;
  Layout layout;
  std::vector<double> lon, lat;                 ///< centres, degrees
  int ncorner = 0;
  std::vector<double> corner_lon, corner_lat;   ///< ncorner per point
  std::vector<double> area;
  std::vector<std::int32_t> mask;               ///< 1 valid, 0 masked
};

struct FieldDecl {
  int partition = -1;
  std::string name;
  FieldDirection direction = FieldDirection::Out;
  Datatype type = Datatype::Float64;
  int bundle = 1;
};

/// Everything this rank declared, in declaration order (ids are indices).
struct Declarations {
  std::vector<GridDecl> grids;
  std::vector<PartitionDecl> partitions;
  std::vector<FieldDecl> fields;
};

/// The partition of `field` of `component` among this rank's declarations, or nullptr
/// when this rank does not declare that field.
const PartitionDecl* partition_of_field(const Declarations& declarations,
                                        const std::string& component, const std::string& field);

/// One field declaration as every rank sees it after enddef's gathering.
struct CatalogueEntry {
  std::string component;
  std::string field;
  std::string grid;
  std::string partition;
  std::int64_t grid_size = 0;
  std::int64_t grid_nx = 0;  ///< the grid's first dimension
  FieldDirection direction = FieldDirection::Out;
  Datatype type = Datatype::Float64;
  int bundle = 1;
  int rank = -1;  ///< rank in the run's communicator that declared it
};

/// Collective over `comm`: every rank's field declarations, on every rank, ordered
/// by rank then declaration. O(P x fields) text, no point data.
std::vector<CatalogueEntry> gather_catalogue(const Comm& comm, const Declarations& mine);

}  // namespace ferry::coupling
