#include "collectives/sum_into.hpp"

#include <cstdint>
#include <type_traits>

namespace ferry::detail {

namespace {

template <class T>
void add(void* target, const void* addend, std::size_t count) {
  auto* t = static_cast<T*>(target);
  const auto* a = static_cast<const T*>(addend);
  if constexpr (std::is_integral_v<T>) {
    // Signed overflow is undefined in C++; MPI_SUM wraps, and so do we.
    using U = std::make_unsigned_t<T>;
    for (std::size_t i = 0; i < count; ++i)
      t[i] = static_cast<T>(static_cast<U>(static_cast<U>(t[i]) + static_cast<U>(a[i])));
  } else {
    for (std::size_t i = 0; i < count; ++i) t[i] += a[i];
  }
}

}  // namespace

void sum_into(Datatype type, void* target, const void* addend, std::size_t count) {
  switch (type) {
    case Datatype::Float64: return add<double>(target, addend, count);
    case Datatype::Float32: return add<float>(target, addend, count);
    case Datatype::Int32: return add<std::int32_t>(target, addend, count);
    case Datatype::Int64: return add<std::int64_t>(target, addend, count);
  }
}

}  // namespace ferry::detail
