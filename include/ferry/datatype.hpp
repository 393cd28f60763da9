// ferry::Datatype and ferry::FieldSpec: what a field's values are, and their MPI type.
#pragma once

#include <mpi.h>

#include <cstddef>

namespace ferry {

/// Element types a field may have (C: FERRY_TYPE_*).
enum class Datatype : int { Float64 = 0, Float32 = 1, Int32 = 2, Int64 = 3 };

/// Bytes of one value of `type`; 0 for a value outside the enum.
std::size_t datatype_size(Datatype type) noexcept;
/// "float64", "float32", "int32", "int64"; "unknown" for a value outside the enum.
const char* datatype_name(Datatype type) noexcept;
/// The MPI type of one value of `type`. Errc::Arg for a value outside the enum.
MPI_Datatype mpi_datatype(Datatype type);

/// One field of an exchange: its type, and how many values each point carries
/// (a trailing component/level dimension: value[point * components + c]).
struct FieldSpec {
  Datatype type = Datatype::Float64;
  int components = 1;
};

}  // namespace ferry
