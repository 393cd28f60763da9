#include "regrid/row_product.hpp"

#include <utility>

#include "util/check.hpp"

namespace ferry::regrid::detail {

RowProduct::RowProduct(std::vector<std::int64_t> row_start, std::vector<std::int64_t> index,
                       std::vector<double> weight, std::vector<std::int64_t> target)
    : row_start_(std::move(row_start)),
      index_(std::move(index)),
      weight_(std::move(weight)),
      target_(std::move(target)) {
  FERRY_ASSERT(!row_start_.empty() && index_.size() == weight_.size() &&
                   static_cast<std::size_t>(row_start_.back()) == index_.size() &&
                   (target_.empty() || target_.size() + 1 == row_start_.size()),
               "inconsistent rows: ", row_start_.size(), " offsets, ", index_.size(),
               " indices, ", weight_.size(), " weights, ", target_.size(), " targets");
}

template <class In, class Out>
void RowProduct::run(const In* x, Out* y, int components, double fill) const {
  const auto nc = static_cast<std::int64_t>(components);
  const std::int64_t n = rows();
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t begin = row_start_[static_cast<std::size_t>(i)];
    const std::int64_t end = row_start_[static_cast<std::size_t>(i) + 1];
    Out* out = y + (target_.empty() ? i : target_[static_cast<std::size_t>(i)]) * nc;
    for (std::int64_t c = 0; c < nc; ++c) {
      if (begin == end) {
        out[c] = static_cast<Out>(fill);
        continue;
      }
      double sum = 0;
      for (std::int64_t k = begin; k < end; ++k)
        sum += weight_[static_cast<std::size_t>(k)] *
               static_cast<double>(x[index_[static_cast<std::size_t>(k)] * nc + c]);
      out[c] = static_cast<Out>(sum);
    }
  }
}

void RowProduct::apply(Datatype in, const void* x, Datatype out, void* y, int components,
                       double fill) const {
  const bool in64 = in == Datatype::Float64;
  const bool out64 = out == Datatype::Float64;
  FERRY_ASSERT((in64 || in == Datatype::Float32) && (out64 || out == Datatype::Float32),
               "RowProduct on types ", static_cast<int>(in), ", ", static_cast<int>(out));
  if (in64 && out64) run(static_cast<const double*>(x), static_cast<double*>(y), components, fill);
  if (in64 && !out64) run(static_cast<const double*>(x), static_cast<float*>(y), components, fill);
  if (!in64 && out64) run(static_cast<const float*>(x), static_cast<double*>(y), components, fill);
  if (!in64 && !out64) run(static_cast<const float*>(x), static_cast<float*>(y), components, fill);
}

}  // namespace ferry::regrid::detail
