#include "engines/field_set.hpp"

#include "util/check.hpp"

namespace ferry::detail {

void FieldSet::assign(const std::vector<FieldSpec>& fields) {
  element_bytes_.clear();
  for (std::size_t f = 0; f < fields.size(); ++f) {
    const std::size_t bytes = datatype_size(fields[f].type);
    FERRY_CHECK(bytes != 0, Errc::Arg, "field ", f, ": unknown data type ",
                static_cast<int>(fields[f].type), ". Use float64, float32, int32 or int64");
    FERRY_CHECK(fields[f].components >= 1, Errc::Arg, "field ", f,
                ": components must be >= 1; got ", fields[f].components);
    element_bytes_.push_back(bytes * static_cast<std::size_t>(fields[f].components));
  }
  active_.assign(fields.size(), 0);
  prefix_.assign(fields.size(), 0);
  point_bytes_all_ = 0;
  for (auto b : element_bytes_) point_bytes_all_ += b;
  point_bytes_ = static_cast<std::size_t>(-1);  // forces the first select() to fill
  select(nullptr);
}

bool FieldSet::select(const std::uint8_t* mask) {
  bool changed = false;
  std::size_t offset = 0;
  for (std::size_t f = 0; f < element_bytes_.size(); ++f) {
    const std::uint8_t on = (mask == nullptr || mask[f]) ? 1 : 0;
    changed |= (on != active_[f]);
    active_[f] = on;
    prefix_[f] = offset;
    if (on) offset += element_bytes_[f];
  }
  changed |= (offset != point_bytes_);
  point_bytes_ = offset;
  return changed;
}

}  // namespace ferry::detail
