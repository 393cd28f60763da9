#include "buffer/box_geometry.hpp"

#include <algorithm>
#include <limits>

#include "util/check.hpp"

namespace ferry::detail {

void check_shape(const std::vector<std::int64_t>& shape, const char* who) {
  FERRY_CHECK(!shape.empty() && shape.size() <= static_cast<std::size_t>(kMaxBufferDims),
              Errc::Arg, who, ": the global shape has ", shape.size(),
              " dimensions, expected 1 to ", kMaxBufferDims,
              ". Give one extent per dimension of the array");
  // Byte offsets of any point must fit std::int64_t for the widest type (8 bytes).
  constexpr std::int64_t kMaxPoints = std::numeric_limits<std::int64_t>::max() / 8;
  std::int64_t points = 1;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    FERRY_CHECK(shape[d] >= 1, Errc::Arg, who, ": extent ", shape[d], " of dimension ", d,
                " of the global shape is not positive. Every extent must be >= 1");
    FERRY_CHECK(points <= kMaxPoints / shape[d], Errc::Overflow, who,
                ": the global shape has more than ", kMaxPoints, " points");
    points *= shape[d];
  }
}

void check_box(const Box& box, const std::vector<std::int64_t>& shape, const char* who,
               int rank) {
  FERRY_CHECK(box.start.size() == shape.size() && box.end.size() == shape.size(), Errc::Arg,
              who, ": the box of rank ", rank, " has ", box.start.size(), " start and ",
              box.end.size(), " end indices, expected ", shape.size(),
              " of each (one per dimension of the global shape)");
  for (std::size_t d = 0; d < shape.size(); ++d)
    FERRY_CHECK(box.start[d] >= 0 && box.start[d] <= box.end[d] && box.end[d] <= shape[d],
                Errc::Arg, who, ": the box of rank ", rank, " spans [", box.start[d], ",",
                box.end[d], ") in dimension ", d, ", which does not lie in [0,", shape[d],
                "). Boxes are half-open: 0 <= start <= end <= extent");
}

std::int64_t box_volume(const Box& box) {
  std::int64_t volume = 1;
  for (std::size_t d = 0; d < box.start.size(); ++d) volume *= box.end[d] - box.start[d];
  return volume;
}

Box intersect(const Box& a, const Box& b) {
  Box common{a.start, a.end};
  for (std::size_t d = 0; d < a.start.size(); ++d) {
    common.start[d] = std::max(a.start[d], b.start[d]);
    common.end[d] = std::max(common.start[d], std::min(a.end[d], b.end[d]));
  }
  return common;
}

std::string box_text(const Box& box) {
  std::string text;
  for (std::size_t d = 0; d < box.start.size(); ++d)
    text += cat(d ? " x " : "", "[", box.start[d], ",", box.end[d], ")");
  return text;
}

}  // namespace ferry::detail
