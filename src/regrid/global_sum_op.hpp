// UserReduction: an MPI datatype and a commutative MPI_Op over it, freed on scope exit,
// for the reductions whose element MPI has no built-in sum for (quad, double-double).
#pragma once

#include <mpi.h>

namespace ferry::regrid::detail {

class UserReduction {
 public:
  /// Not collective: `bytes` contiguous bytes per element, combined by `combine`.
  UserReduction(int bytes, MPI_User_function* combine);
  ~UserReduction();
  UserReduction(const UserReduction&) = delete;
  UserReduction& operator=(const UserReduction&) = delete;

  /// Collective over `comm`: data[0 .. count) combined over all ranks, in place.
  void allreduce(MPI_Comm comm, void* data, int count) const;

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
  MPI_Op op_ = MPI_OP_NULL;
};

}  // namespace ferry::regrid::detail
