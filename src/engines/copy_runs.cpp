#include "engines/copy_runs.hpp"

#include <cstring>

namespace ferry::detail {

namespace {

inline std::int64_t at(const std::int64_t* index, std::int64_t i) { return index ? index[i] : i; }

// Fixed-size element copies compile to plain loads and stores.
template <std::size_t Bytes>
void strided(char* to, std::int64_t to_stride, const char* from, std::int64_t from_stride,
             std::int64_t length) {
  const std::int64_t ts = to_stride * static_cast<std::int64_t>(Bytes);
  const std::int64_t fs = from_stride * static_cast<std::int64_t>(Bytes);
  for (std::int64_t k = 0; k < length; ++k) std::memcpy(to + k * ts, from + k * fs, Bytes);
}

template <std::size_t Bytes>
void indexed(char* to, const std::int64_t* to_index, const char* from,
             const std::int64_t* from_index, std::int64_t count) {
  const auto b = static_cast<std::int64_t>(Bytes);
  for (std::int64_t i = 0; i < count; ++i)
    std::memcpy(to + at(to_index, i) * b, from + at(from_index, i) * b, Bytes);
}

void indexed_any(char* to, const std::int64_t* to_index, const char* from,
                 const std::int64_t* from_index, std::int64_t count, std::size_t bytes) {
  switch (bytes) {
    case 4: return indexed<4>(to, to_index, from, from_index, count);
    case 8: return indexed<8>(to, to_index, from, from_index, count);
    case 16: return indexed<16>(to, to_index, from, from_index, count);
    default: {
      const auto b = static_cast<std::int64_t>(bytes);
      for (std::int64_t i = 0; i < count; ++i)
        std::memcpy(to + at(to_index, i) * b, from + at(from_index, i) * b, bytes);
    }
  }
}

}  // namespace

// Reads the elements of an index list given as strided runs, at positions that never
// decrease from one call to the next (as the compilation below reads them).
class StridedCursor {
 public:
  explicit StridedCursor(const std::vector<CopyRuns::Strided>& runs) : runs_(runs) {}
  std::int64_t operator()(std::int64_t i) {
    while (i >= first_ + runs_[run_].length) first_ += runs_[run_++].length;
    return runs_[run_].start + (i - first_) * runs_[run_].stride;
  }

 private:
  const std::vector<CopyRuns::Strided>& runs_;
  std::size_t run_ = 0;
  std::int64_t first_ = 0;  // position of the current run's first element
};

template <class From, class To>
bool CopyRuns::compile(From from, To to, std::int64_t count) {
  std::int64_t i = 0;
  while (i < count) {
    Run run{from(i), 1, to(i), 1, 1};
    if (i + 1 < count) {
      run.from_stride = from(i + 1) - run.from;
      run.to_stride = to(i + 1) - run.to;
      while (i + run.length < count &&
             from(i + run.length) == run.from + run.length * run.from_stride &&
             to(i + run.length) == run.to + run.length * run.to_stride)
        ++run.length;
    }
    runs_.push_back(run);
    i += run.length;
    // Runs shorter than 8 elements on average cost more than reading the indices.
    if (runs_.size() > 16 && static_cast<std::int64_t>(runs_.size()) * 8 > i) {
      runs_.clear();
      runs_.shrink_to_fit();
      return false;
    }
  }
  return true;
}

CopyRuns::CopyRuns(const std::int64_t* from, const std::int64_t* to, std::int64_t count)
    : from_(from), to_(to), count_(count) {
  compile([from](std::int64_t i) { return at(from, i); },
          [to](std::int64_t i) { return at(to, i); }, count);
}

std::optional<CopyRuns> CopyRuns::from_strided(const std::int64_t* from,
                                               const std::vector<Strided>& to,
                                               std::int64_t count) {
  CopyRuns copy;
  copy.from_ = from;
  copy.count_ = count;
  if (!copy.compile([from](std::int64_t i) { return at(from, i); }, StridedCursor(to), count))
    return std::nullopt;
  return copy;
}

std::vector<CopyRuns::Strided> CopyRuns::strided_runs(const std::int64_t* index,
                                                      std::int64_t count) {
  std::vector<Strided> runs;
  for (std::int64_t i = 0; i < count;) {
    Strided run{index[i], 1, 1};
    if (i + 1 < count) {
      run.stride = index[i + 1] - run.start;
      while (i + run.length < count && index[i + run.length] == run.start + run.length * run.stride)
        ++run.length;
    }
    runs.push_back(run);
    i += run.length;
  }
  return runs;
}

void CopyRuns::apply(char* to_base, const char* from_base, std::size_t element_bytes) const {
  if (count_ == 0) return;
  if (runs_.empty()) return indexed_any(to_base, to_, from_base, from_, count_, element_bytes);
  const auto eb = static_cast<std::int64_t>(element_bytes);
  for (const Run& r : runs_) {
    char* to = to_base + r.to * eb;
    const char* from = from_base + r.from * eb;
    if (r.from_stride == 1 && r.to_stride == 1) {
      std::memcpy(to, from, static_cast<std::size_t>(r.length * eb));
      continue;
    }
    switch (element_bytes) {
      case 4: strided<4>(to, r.to_stride, from, r.from_stride, r.length); break;
      case 8: strided<8>(to, r.to_stride, from, r.from_stride, r.length); break;
      case 16: strided<16>(to, r.to_stride, from, r.from_stride, r.length); break;
      default:
        for (std::int64_t k = 0; k < r.length; ++k)
          std::memcpy(to + k * r.to_stride * eb, from + k * r.from_stride * eb, element_bytes);
    }
  }
}

}  // namespace ferry::detail
