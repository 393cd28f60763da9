// The MPI datatypes that move one piece of a worker's box: the part one requester
// rank holds, as it lies in that rank's slot and in the worker's output.
#pragma once

#include <mpi.h>

#include "ferry/time_series_buffer.hpp"

namespace ferry::detail {

/// A committed derived datatype, freed on destruction. Move-only.
class DerivedType {
 public:
  DerivedType() = default;
  explicit DerivedType(MPI_Datatype committed) : type_(committed) {}
  DerivedType(DerivedType&& other) noexcept;
  DerivedType& operator=(DerivedType&& other) noexcept;
  DerivedType(const DerivedType&) = delete;
  DerivedType& operator=(const DerivedType&) = delete;
  ~DerivedType();
  MPI_Datatype get() const noexcept { return type_; }

 private:
  void release() noexcept;

  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

/// `part` (inside `whole`) as a subarray of an array shaped like `whole`, in C
/// order. Its extent is the whole box, so a count of k covers k consecutive
/// steps: one MPI_Get moves the piece of k steps. Errc::Overflow if an extent
/// does not fit an int.
DerivedType box_part_type(const Box& whole, const Box& part, Datatype type);

}  // namespace ferry::detail
