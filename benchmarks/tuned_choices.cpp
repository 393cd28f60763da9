#include "tuned_choices.hpp"

#include <algorithm>

#include "collectives/tuned_entry.hpp"

namespace ferry::bench {

namespace {

// The candidates measured for one operation at one size.
struct Contest {
  std::string operation;
  std::int64_t bytes = 0;
  std::vector<std::pair<std::string, double>> medians;
};

// The fastest candidate of each contest.
std::vector<TunedChoice> decide(const std::vector<Contest>& contests, int ranks) {
  std::vector<TunedChoice> choices;
  for (const Contest& c : contests) {
    const auto best =
        std::min_element(c.medians.begin(), c.medians.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; });
    choices.push_back({c.operation, ranks, c.bytes, best->first, c.medians});
  }
  return choices;
}

// The contest of `operation` at `bytes`, added at the end if it is new.
Contest& contest(std::vector<Contest>& contests, const std::string& operation,
                 std::int64_t bytes) {
  for (Contest& c : contests)
    if (c.operation == operation && c.bytes == bytes) return c;
  contests.push_back({operation, bytes, {}});
  return contests.back();
}

}  // namespace

std::vector<TunedChoice> kernel_winners(const std::vector<KernelRow>& rows, int ranks) {
  std::vector<Contest> contests;
  for (const KernelRow& row : rows)
    contest(contests, std::string("transfer_") + direction_name(row.direction), row.bytes)
        .medians.emplace_back(protocol_name(row.protocol), row.seconds.median);
  return decide(contests, ranks);
}

std::vector<TunedChoice> collective_winners(const std::vector<CollectiveRow>& rows, int ranks) {
  std::vector<Contest> contests;
  for (const CollectiveRow& row : rows)
    contest(contests, row.collective, row.bytes)
        .medians.emplace_back(row.algorithm, row.seconds.median);
  return decide(contests, ranks);
}

std::vector<std::string> store_tuned_choices(const std::string& path,
                                             const std::vector<TunedChoice>& choices) {
  for (const TunedChoice& choice : choices) {
    // The cache's entries name their choice as an adaptive candidate: one word.
    detail::CacheEntry entry{detail::tuned_signature(choice.ranks, choice.operation, choice.bytes),
                             {choice.choice, ""}, {}, detail::MeasuredUnder::now()};
    for (const auto& [name, median] : choice.medians)
      entry.measured.push_back({{name, ""}, median});
    std::vector<std::string> problems = detail::store_entry(path, entry);
    if (!problems.empty()) return problems;
  }
  return {};
}

std::optional<TunedChoice> find_tuned_choice(const std::string& path, int ranks,
                                             const std::string& operation, std::int64_t bytes) {
  std::vector<std::string> warnings;
  const auto entry = detail::find_tuned_entry(path, ranks, operation, bytes, warnings);
  if (!entry) return std::nullopt;
  TunedChoice choice{operation, ranks, detail::size_class(bytes), entry->choice.label(), {}};
  for (const detail::Measurement& m : entry->measured)
    choice.medians.emplace_back(m.candidate.label(), m.median_seconds);
  return choice;
}

}  // namespace ferry::bench
