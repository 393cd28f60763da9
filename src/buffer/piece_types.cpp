#include "buffer/piece_types.hpp"

#include <utility>

#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::detail {

DerivedType::DerivedType(DerivedType&& other) noexcept
    : type_(std::exchange(other.type_, MPI_DATATYPE_NULL)) {}

DerivedType& DerivedType::operator=(DerivedType&& other) noexcept {
  if (this != &other) {
    release();
    type_ = std::exchange(other.type_, MPI_DATATYPE_NULL);
  }
  return *this;
}

DerivedType::~DerivedType() { release(); }

void DerivedType::release() noexcept {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (type_ != MPI_DATATYPE_NULL && !finalized) MPI_Type_free(&type_);
  type_ = MPI_DATATYPE_NULL;
}

DerivedType box_part_type(const Box& whole, const Box& part, Datatype type) {
  const int dims = static_cast<int>(whole.start.size());
  int sizes[3] = {0, 0, 0};
  int subsizes[3] = {0, 0, 0};
  int starts[3] = {0, 0, 0};
  for (int d = 0; d < dims; ++d) {
    sizes[d] = mpi_count<int>(whole.end[d] - whole.start[d], "TimeSeriesBuffer: box extent");
    subsizes[d] = mpi_count<int>(part.end[d] - part.start[d], "TimeSeriesBuffer: piece extent");
    starts[d] = mpi_count<int>(part.start[d] - whole.start[d], "TimeSeriesBuffer: piece offset");
  }
  MPI_Datatype made = MPI_DATATYPE_NULL;
  FERRY_CALL_MPI(MPI_Type_create_subarray(dims, sizes, subsizes, starts, MPI_ORDER_C,
                                          mpi_datatype(type), &made));
  const int rc = MPI_Type_commit(&made);
  if (rc != MPI_SUCCESS) MPI_Type_free(&made);
  FERRY_CALL_MPI(rc);
  return DerivedType(made);
}

}  // namespace ferry::detail
