#include "oasis_partition.hpp"

#include <algorithm>

#include "util/check.hpp"
#include "util/format.hpp"

namespace ferry::oasis {

namespace {

// ig_paral and its length, for checks and messages.
struct Paral {
  const int* values;
  std::size_t size;
  int operator[](std::size_t i) const { return values[i]; }
};

void need(bool ok, const Paral& ig_paral, const std::string& what) {
  if (ok) return;
  // The message shows the first 12 values: a POINTS vector may hold millions.
  const std::vector<int> head(ig_paral.values,
                              ig_paral.values + std::min<std::size_t>(ig_paral.size, 13));
  FERRY_CHECK(false, Errc::Arg, "oasis_def_partition: ",
              partition_form_name(ig_paral.size == 0 ? -1 : ig_paral[0]), " partition (ig_paral = ",
              detail::list_first(head, 12), "): ", what,
              ". See the OASIS3-MCT User Guide, section \"Partition definition\"");
}

// Appends offset .. offset + length - 1; callers reserve the whole list first, so
// that each id is written once, into memory touched once.
void add_run(std::vector<std::int64_t>& ids, std::int64_t offset, std::int64_t length) {
  for (std::int64_t i = 0; i < length; ++i) ids.push_back(offset + i);
}

}  // namespace

const char* partition_form_name(int form) noexcept {
  switch (form) {
    case 0: return "SERIAL";
    case 1: return "APPLE";
    case 2: return "BOX";
    case 3: return "ORANGE";
    case 4: return "POINTS";
    default: return "unknown";
  }
}

std::vector<std::int64_t> partition_ids(const int* values, std::size_t length) {
  const Paral ig_paral{values, length};
  need(length > 0, ig_paral, "the vector is empty");
  std::vector<std::int64_t> ids;
  const auto size = length;
  switch (ig_paral[0]) {
    case 0:
      need(size >= 3 && ig_paral[2] >= 0, ig_paral, "needs [0, 0, total size >= 0]");
      ids.reserve(static_cast<std::size_t>(ig_paral[2]));
      add_run(ids, 0, ig_paral[2]);
      break;
    case 1:
      need(size >= 3 && ig_paral[1] >= 0 && ig_paral[2] >= 0, ig_paral,
           "needs [1, offset >= 0, length >= 0]");
      ids.reserve(static_cast<std::size_t>(ig_paral[2]));
      add_run(ids, ig_paral[1], ig_paral[2]);
      break;
    case 2: {
      need(size >= 5 && ig_paral[1] >= 0 && ig_paral[2] >= 0 && ig_paral[3] >= 0 &&
               ig_paral[4] >= ig_paral[2],
           ig_paral, "needs [2, offset >= 0, local nx >= 0, local ny >= 0, global nx >= local nx]");
      ids.reserve(static_cast<std::size_t>(ig_paral[2]) * static_cast<std::size_t>(ig_paral[3]));
      for (int j = 0; j < ig_paral[3]; ++j)
        add_run(ids, ig_paral[1] + static_cast<std::int64_t>(j) * ig_paral[4], ig_paral[2]);
      break;
    }
    case 3: {
      need(size >= 2 && ig_paral[1] >= 0 && size >= 2 + 2 * static_cast<std::size_t>(ig_paral[1]),
           ig_paral, "needs [3, segments, then an offset and a length per segment]");
      std::size_t total = 0;
      for (int s = 0; s < ig_paral[1]; ++s)
        total += static_cast<std::size_t>(std::max(ig_paral[3 + 2 * s], 0));
      ids.reserve(total);
      for (int s = 0; s < ig_paral[1]; ++s) {
        const int offset = ig_paral[2 + 2 * s], length = ig_paral[3 + 2 * s];
        if (offset < 0 || length < 0)
          need(false, ig_paral, detail::cat("segment ", s + 1, " has offset ", offset, " and length ", length));
        add_run(ids, offset, length);
      }
      break;
    }
    case 4: {
      need(size >= 2 && ig_paral[1] >= 0 && size >= 2 + static_cast<std::size_t>(ig_paral[1]),
           ig_paral, "needs [4, count, then count global indices from 1]");
      ids.reserve(static_cast<std::size_t>(ig_paral[1]));
      for (int p = 0; p < ig_paral[1]; ++p) {
        // The message is built only for a wrong index: this loop runs once per point.
        if (ig_paral[2 + p] < 1)
          need(false, ig_paral,
               detail::cat("point ", p + 1, " has index ", ig_paral[2 + p], "; indices start at 1"));
        ids.push_back(ig_paral[2 + p] - 1);
      }
      break;
    }
    default:
      need(false, ig_paral, "ig_paral(1) must be 0 (SERIAL), 1 (APPLE), 2 (BOX), 3 (ORANGE) or 4 (POINTS)");
  }
  return ids;
}

}  // namespace ferry::oasis
