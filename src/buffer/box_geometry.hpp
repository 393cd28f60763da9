// Boxes of a global C-order array: checks, volumes, intersections, and text for messages.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ferry/time_series_buffer.hpp"

namespace ferry::detail {

/// The most dimensions a buffer's array may have.
constexpr int kMaxBufferDims = 3;

/// Not collective: Errc::Arg unless `shape` has 1 to 3 extents, each >= 1.
/// `who` starts the message ("TimeSeriesBuffer::expose").
void check_shape(const std::vector<std::int64_t>& shape, const char* who);

/// Not collective: Errc::Arg unless `box` has one start and one end per dimension
/// of `shape` and 0 <= start <= end <= extent in each. `rank` is for the message.
void check_box(const Box& box, const std::vector<std::int64_t>& shape, const char* who, int rank);

/// Number of points in `box` (0 if empty).
std::int64_t box_volume(const Box& box);

/// The common part of two boxes of the same array (empty if they do not meet).
Box intersect(const Box& a, const Box& b);

/// "[2,5) x [0,7)" for messages.
std::string box_text(const Box& box);

}  // namespace ferry::detail
