#include "field_data.hpp"

#include <algorithm>

#include "util/format.hpp"

namespace ferry::bench {

double field_value(std::int64_t gid, int field, int fields) noexcept {
  return static_cast<double>(gid * fields + field);
}

FieldData::FieldData(const Layout& src, const Layout& dst, int fields)
    : dst_ids_(dst.ids()),
      src_(static_cast<std::size_t>(fields)),
      dst_(static_cast<std::size_t>(fields)) {
  for (int f = 0; f < fields; ++f) {
    auto& values = src_[static_cast<std::size_t>(f)];
    values.reserve(src.ids().size());
    for (std::int64_t gid : src.ids()) values.push_back(field_value(gid, f, fields));
    dst_[static_cast<std::size_t>(f)].assign(dst_ids_.size(), -1.0);
    src_ptr_.push_back(values.data());
    dst_ptr_.push_back(dst_[static_cast<std::size_t>(f)].data());
  }
}

void FieldData::clear_destination() {
  for (auto& values : dst_) std::fill(values.begin(), values.end(), -1.0);
}

std::optional<std::string> FieldData::first_mismatch() const {
  const int fields = static_cast<int>(dst_.size());
  std::int64_t wrong = 0;
  std::string first;
  for (int f = 0; f < fields; ++f) {
    const auto& values = dst_[static_cast<std::size_t>(f)];
    for (std::size_t i = 0; i < values.size(); ++i) {
      const double expected = field_value(dst_ids_[i], f, fields);
      if (values[i] == expected) continue;
      if (wrong++ == 0)
        first = detail::cat("field ", f, ", destination point ", i, " (global id ", dst_ids_[i],
                            ") holds ", values[i], ", expected ", expected);
    }
  }
  if (wrong == 0) return std::nullopt;
  return detail::cat(first, " (", wrong, " of ", dst_ids_.size() * dst_.size(),
                     " values wrong on this rank)");
}

}  // namespace ferry::bench
