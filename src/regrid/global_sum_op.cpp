#include "regrid/global_sum_op.hpp"

#include "util/mpi.hpp"

namespace ferry::regrid::detail {

UserReduction::UserReduction(int bytes, MPI_User_function* combine) {
  FERRY_CALL_MPI(MPI_Type_contiguous(bytes, MPI_BYTE, &type_));
  try {
    FERRY_CALL_MPI(MPI_Type_commit(&type_));
    // Commutative: MPI may combine in any order; the sums do not promise more.
    FERRY_CALL_MPI(MPI_Op_create(combine, 1, &op_));
  } catch (...) {
    MPI_Type_free(&type_);
    throw;
  }
}

UserReduction::~UserReduction() {
  MPI_Op_free(&op_);
  MPI_Type_free(&type_);
}

void UserReduction::allreduce(MPI_Comm comm, void* data, int count) const {
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, data, count, type_, op_, comm));
}

}  // namespace ferry::regrid::detail
