#include "engines/butterfly/process_mapping.hpp"

#include <algorithm>
#include <utility>

namespace ferry::detail {

int next_power_of_two(int n) {
  int k = 1;
  while (k < n) k *= 2;
  return k;
}

std::vector<int> iterative_pairing(const std::vector<std::int64_t>& sizes) {
  struct Group {
    std::vector<int> members;
    std::int64_t size;
  };
  std::vector<Group> groups;
  for (std::size_t i = 0; i < sizes.size(); ++i) groups.push_back({{static_cast<int>(i)}, sizes[i]});
  while (groups.size() > 1) {
    std::stable_sort(groups.begin(), groups.end(),
                     [](const Group& a, const Group& b) { return a.size > b.size; });
    const std::size_t n = groups.size();
    std::vector<Group> paired;
    for (std::size_t i = 0; i < n / 2; ++i) {
      Group g = std::move(groups[i]);
      Group& small = groups[n - 1 - i];
      g.members.insert(g.members.end(), small.members.begin(), small.members.end());
      g.size += small.size;
      paired.push_back(std::move(g));
    }
    groups = std::move(paired);
  }
  return groups.empty() ? std::vector<int>{} : groups.front().members;
}

std::vector<int> map_onto_kernel(const std::vector<std::int64_t>& sizes, int kernel) {
  const int real = static_cast<int>(sizes.size());
  const int padded = std::max(next_power_of_two(std::max(real, 1)), kernel);
  std::vector<std::int64_t> all(sizes);
  all.resize(static_cast<std::size_t>(padded), 0);
  const std::vector<int> order = iterative_pairing(all);
  const int per_kernel = padded / kernel;
  std::vector<int> kernel_of(static_cast<std::size_t>(real), 0);
  for (int position = 0; position < padded; ++position)
    if (order[static_cast<std::size_t>(position)] < real)
      kernel_of[static_cast<std::size_t>(order[static_cast<std::size_t>(position)])] =
          position / per_kernel;
  return kernel_of;
}

}  // namespace ferry::detail
