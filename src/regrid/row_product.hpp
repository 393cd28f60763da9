// RowProduct: the local sparse product of a Remap, rows summed in a fixed order.
#pragma once

#include <cstdint>
#include <vector>

#include "ferry/datatype.hpp"

namespace ferry::regrid::detail {

/// Rows of a sparse matrix over local inputs: output point target[i] (i if target is
/// empty) of row i receives the sum over its links k, in order, of weight[k] times
/// input point index[k], accumulated in double from 0; a row without links receives
/// the fill value. The same links in the same order give the same bits on any rank:
/// this is what makes bfb mode reproducible.
class RowProduct {
 public:
  RowProduct() = default;
  RowProduct(std::vector<std::int64_t> row_start, std::vector<std::int64_t> index,
             std::vector<double> weight, std::vector<std::int64_t> target);

  std::int64_t rows() const noexcept { return static_cast<std::int64_t>(row_start_.size()) - 1; }

  /// Not collective; never allocates. x holds `components` values of type `in` per
  /// input point, y the same number of type `out` per output point (Float64/Float32).
  void apply(Datatype in, const void* x, Datatype out, void* y, int components,
             double fill) const;

 private:
  template <class In, class Out>
  void run(const In* x, Out* y, int components, double fill) const;

  std::vector<std::int64_t> row_start_{0};
  std::vector<std::int64_t> index_;
  std::vector<double> weight_;
  std::vector<std::int64_t> target_;
};

}  // namespace ferry::regrid::detail
