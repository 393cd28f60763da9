#include "ferry/datatype.hpp"

#include "ferry/error.hpp"
#include "util/format.hpp"

namespace ferry {

std::size_t datatype_size(Datatype type) noexcept {
  switch (type) {
    case Datatype::Float64: return 8;
    case Datatype::Float32: return 4;
    case Datatype::Int32: return 4;
    case Datatype::Int64: return 8;
  }
  return 0;
}

const char* datatype_name(Datatype type) noexcept {
  switch (type) {
    case Datatype::Float64: return "float64";
    case Datatype::Float32: return "float32";
    case Datatype::Int32: return "int32";
    case Datatype::Int64: return "int64";
  }
  return "unknown";
}

MPI_Datatype mpi_datatype(Datatype type) {
  switch (type) {
    case Datatype::Float64: return MPI_DOUBLE;
    case Datatype::Float32: return MPI_FLOAT;
    case Datatype::Int32: return MPI_INT32_T;
    case Datatype::Int64: return MPI_INT64_T;
  }
  throw Error(Errc::Arg, detail::cat("unknown datatype ", static_cast<int>(type),
                                     "; use Float64, Float32, Int32 or Int64"));
}

}  // namespace ferry
