#include "engines/tuning/candidate_search.hpp"

#include <utility>

#include "util/check.hpp"

namespace ferry::detail {

CandidateSearch::CandidateSearch(std::vector<Candidate> candidates, int butterfly_stages,
                                 double margin)
    : given_(std::move(candidates)), stages_(butterfly_stages), margin_(margin) {
  FERRY_ASSERT(!given_.empty(), "the adaptive engine needs at least one candidate");
  FERRY_ASSERT(margin >= 0 && margin < 1, "margin ", margin, " outside [0, 1)");
  for (const Candidate& c : given_) has_butterfly_ = has_butterfly_ || c.engine == kButterflyEngine;
  advance();
}

std::size_t CandidateSearch::planned() const noexcept {
  return given_.size() + (has_butterfly_ ? static_cast<std::size_t>(stages_) : 0);
}

void CandidateSearch::record(double median_seconds) {
  FERRY_ASSERT(!done_, "record after the search ended");
  measured_.push_back({current_, median_seconds});
  if (clearly_faster(median_seconds, best().median_seconds)) best_ = measured_.size() - 1;

  if (current_.engine == kButterflyEngine) {
    if (current_.stages == "all") {
      kept_.assign(static_cast<std::size_t>(stages_), '1');
      kept_median_ = median_seconds;
    } else {
      if (clearly_faster(median_seconds, kept_median_)) {
        kept_ = current_.stages;
        kept_median_ = median_seconds;
      }
      ++stage_;
    }
  }
  advance();
}

void CandidateSearch::advance() {
  if (next_given_ < given_.size()) {
    current_ = given_[next_given_++];
    return;
  }
  // The greedy pass runs once "butterfly:all" is measured (it set kept_).
  if (has_butterfly_ && stage_ < stages_ && !kept_.empty()) {
    current_.engine = kButterflyEngine;
    current_.stages = kept_;
    current_.stages[static_cast<std::size_t>(stage_)] = '0';
    return;
  }
  done_ = true;
}

}  // namespace ferry::detail
