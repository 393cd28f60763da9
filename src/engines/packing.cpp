#include "engines/packing.hpp"

#include <cstring>

namespace ferry::detail {

namespace {

// Fixed-size element copies compile to plain loads and stores.
template <std::size_t Bytes>
void gather_fixed(char* out, const char* in, const std::int64_t* index, std::int64_t count) {
  for (std::int64_t i = 0; i < count; ++i)
    std::memcpy(out + i * Bytes, in + index[i] * static_cast<std::int64_t>(Bytes), Bytes);
}

template <std::size_t Bytes>
void scatter_fixed(char* out, const char* in, const std::int64_t* index, std::int64_t count) {
  for (std::int64_t i = 0; i < count; ++i)
    std::memcpy(out + index[i] * static_cast<std::int64_t>(Bytes), in + i * Bytes, Bytes);
}

template <std::size_t Bytes>
void copy_fixed(char* out, const std::int64_t* out_index, const char* in,
                const std::int64_t* in_index, std::int64_t count) {
  for (std::int64_t i = 0; i < count; ++i)
    std::memcpy(out + out_index[i] * static_cast<std::int64_t>(Bytes),
                in + in_index[i] * static_cast<std::int64_t>(Bytes), Bytes);
}

}  // namespace

bool is_contiguous(const std::int64_t* index, std::int64_t count) {
  for (std::int64_t i = 1; i < count; ++i)
    if (index[i] != index[i - 1] + 1) return false;
  return true;
}

void gather(char* out, const char* in, const std::int64_t* index, std::int64_t count,
            std::size_t element_bytes, bool contiguous) {
  if (count == 0) return;
  const auto eb = static_cast<std::int64_t>(element_bytes);
  if (contiguous) {
    std::memcpy(out, in + index[0] * eb, static_cast<std::size_t>(count * eb));
    return;
  }
  switch (element_bytes) {
    case 4: return gather_fixed<4>(out, in, index, count);
    case 8: return gather_fixed<8>(out, in, index, count);
    case 16: return gather_fixed<16>(out, in, index, count);
    default:
      for (std::int64_t i = 0; i < count; ++i)
        std::memcpy(out + i * eb, in + index[i] * eb, element_bytes);
  }
}

void scatter(char* out, const char* in, const std::int64_t* index, std::int64_t count,
             std::size_t element_bytes, bool contiguous) {
  if (count == 0) return;
  const auto eb = static_cast<std::int64_t>(element_bytes);
  if (contiguous) {
    std::memcpy(out + index[0] * eb, in, static_cast<std::size_t>(count * eb));
    return;
  }
  switch (element_bytes) {
    case 4: return scatter_fixed<4>(out, in, index, count);
    case 8: return scatter_fixed<8>(out, in, index, count);
    case 16: return scatter_fixed<16>(out, in, index, count);
    default:
      for (std::int64_t i = 0; i < count; ++i)
        std::memcpy(out + index[i] * eb, in + i * eb, element_bytes);
  }
}

void copy_indexed(char* out, const std::int64_t* out_index, const char* in,
                  const std::int64_t* in_index, std::int64_t count, std::size_t element_bytes) {
  switch (element_bytes) {
    case 4: return copy_fixed<4>(out, out_index, in, in_index, count);
    case 8: return copy_fixed<8>(out, out_index, in, in_index, count);
    case 16: return copy_fixed<16>(out, out_index, in, in_index, count);
    default: {
      const auto eb = static_cast<std::int64_t>(element_bytes);
      for (std::int64_t i = 0; i < count; ++i)
        std::memcpy(out + out_index[i] * eb, in + in_index[i] * eb, element_bytes);
    }
  }
}

}  // namespace ferry::detail
