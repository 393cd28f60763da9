// Expected values of test fields: a function of (global id, field, component, round).
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "ferry/datatype.hpp"

namespace ferry_test {

/// The value field f, component c holds at global id `gid` in exchange round `round`.
/// Integers below 2^24, so float32 holds them exactly.
inline std::int64_t expected_value(std::int64_t gid, int f, int c, int round) {
  return ((gid * 8 + f) * 8 + c) * 4 + round % 4;
}

/// A field's local data as raw bytes, for any Datatype.
class FieldBuffer {
 public:
  FieldBuffer(ferry::FieldSpec spec, std::int64_t points)
      : spec_(spec),
        bytes_(static_cast<std::size_t>(points) * static_cast<std::size_t>(spec.components) *
               ferry::datatype_size(spec.type)) {}

  void* data() { return bytes_.data(); }
  const void* data() const { return bytes_.data(); }
  std::int64_t points() const {
    return static_cast<std::int64_t>(bytes_.size() / ferry::datatype_size(spec_.type)) /
           spec_.components;
  }

  void set(std::int64_t i, int c, std::int64_t v) {
    const auto k = static_cast<std::size_t>(i * spec_.components + c);
    switch (spec_.type) {
      case ferry::Datatype::Float64: store(k, static_cast<double>(v)); break;
      case ferry::Datatype::Float32: store(k, static_cast<float>(v)); break;
      case ferry::Datatype::Int32: store(k, static_cast<std::int32_t>(v)); break;
      case ferry::Datatype::Int64: store(k, v); break;
    }
  }

  std::int64_t get(std::int64_t i, int c) const {
    const auto k = static_cast<std::size_t>(i * spec_.components + c);
    switch (spec_.type) {
      case ferry::Datatype::Float64: return static_cast<std::int64_t>(load<double>(k));
      case ferry::Datatype::Float32: return static_cast<std::int64_t>(load<float>(k));
      case ferry::Datatype::Int32: return load<std::int32_t>(k);
      case ferry::Datatype::Int64: return load<std::int64_t>(k);
    }
    return 0;
  }

 private:
  template <class T>
  void store(std::size_t k, T v) {
    std::memcpy(bytes_.data() + k * sizeof(T), &v, sizeof(T));
  }
  template <class T>
  T load(std::size_t k) const {
    T v;
    std::memcpy(&v, bytes_.data() + k * sizeof(T), sizeof(T));
    return v;
  }

  ferry::FieldSpec spec_;
  std::vector<unsigned char> bytes_;
};

}  // namespace ferry_test
