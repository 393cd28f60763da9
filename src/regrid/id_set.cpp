#include "regrid/id_set.hpp"

namespace ferry::regrid::detail {

IdSet::IdSet(std::int64_t first, std::int64_t span)
    : first_(first), words_(static_cast<std::size_t>((span + 63) / 64), 0) {}

std::vector<std::int64_t> IdSet::ids() {
  std::size_t count = 0;
  for (const std::uint64_t word : words_) count += static_cast<std::size_t>(__builtin_popcountll(word));
  std::vector<std::int64_t> out;
  out.reserve(count);
  before_.resize(words_.size());
  for (std::size_t w = 0; w < words_.size(); ++w) {
    before_[w] = out.size();
    for (std::uint64_t bits = words_[w]; bits != 0; bits &= bits - 1)
      out.push_back(first_ + static_cast<std::int64_t>(w * 64) + __builtin_ctzll(bits));
  }
  return out;
}

}  // namespace ferry::regrid::detail
