#include "engines/tuning/candidate_search.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "util/check.hpp"

namespace ferry::detail {

namespace {

std::string percent(double ratio) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f%%", (ratio - 1) * 100);
  return text;
}

std::string fixed2(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

// "x1.35 (90% interval 1.30..1.41, 8 rounds)"
std::string ratio_text(const std::vector<double>& ratios, const std::optional<Interval>& interval) {
  std::string text = "x" + fixed2(median_of(ratios));
  if (interval)
    text += cat(" (", static_cast<int>(kConfidence * 100 + 0.5), "% interval ",
                fixed2(interval->low), "..", fixed2(interval->high), ", ", ratios.size(),
                " rounds)");
  else
    text += cat(" (", ratios.size(), " rounds, too few for an interval)");
  return text;
}

}  // namespace

double Standing::median_seconds() const {
  std::vector<double> taken;
  for (double s : samples)
    if (s > 0) taken.push_back(s);
  return median_of(std::move(taken));
}

int Standing::sample_count() const {
  return static_cast<int>(std::count_if(samples.begin(), samples.end(), [](double s) { return s > 0; }));
}

CandidateSearch::CandidateSearch(std::vector<Candidate> candidates, SearchRules rules)
    : rules_(rules) {
  FERRY_ASSERT(!candidates.empty(), "the adaptive engine needs at least one candidate");
  FERRY_ASSERT(rules.margin >= 0 && rules.margin < 1, "margin ", rules.margin, " outside [0, 1)");
  FERRY_ASSERT(rules.drop_ratio == 0 || rules.drop_ratio >= 1, "drop ratio ", rules.drop_ratio);
  FERRY_ASSERT(rules.min_rounds >= 1 && rules.max_rounds >= rules.min_rounds,
               "rounds ", rules.min_rounds, "..", rules.max_rounds);
  for (Candidate& c : candidates) standings_.push_back({std::move(c), {}, "", true});
  if (standings_.size() == 1) {
    finish(0, "the only candidate");
    return;
  }
  round_ = schedule(0);
}

int CandidateSearch::used_rounds() const noexcept {
  return std::max(0, rounds_ - rules_.warmup_rounds);
}

int CandidateSearch::rounds_until_decision() const noexcept {
  // With drop_ratio, every used round may drop a candidate and so change the next
  // round's schedule.
  const int first = rules_.warmup_rounds + (rules_.drop_ratio > 0 ? 1 : rules_.min_rounds);
  return std::max(1, first - rounds_);
}

std::vector<std::size_t> CandidateSearch::running() const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < standings_.size(); ++i)
    if (standings_[i].running) out.push_back(i);
  return out;
}

std::vector<Candidate> CandidateSearch::schedule(int round) const {
  const std::vector<std::size_t> alive = running();
  std::vector<Candidate> order;
  for (std::size_t i = 0; i < alive.size(); ++i)
    order.push_back(standings_[alive[(i + static_cast<std::size_t>(round)) % alive.size()]].candidate);
  return order;
}

std::vector<Candidate> CandidateSearch::round_after(int rounds) const {
  return schedule(rounds_ + rounds);
}

void CandidateSearch::record(const std::vector<double>& seconds, int rounds) {
  FERRY_ASSERT(!done_, "record after the search ended");
  FERRY_ASSERT(rounds >= 1 && rounds <= rounds_until_decision() &&
                   seconds.size() == static_cast<std::size_t>(rounds) * round_.size(),
               "record of ", rounds, " rounds with ", seconds.size(), " times");
  for (int r = 0; r < rounds; ++r) {
    round_ = schedule(rounds_);
    record_round(seconds.data() + static_cast<std::size_t>(r) * round_.size());
  }
  if (rules_.drop_ratio > 0 && used_rounds() > 0) drop_clearly_slower();
  if (!done_ && rules_.drop_not_faster && used_rounds() >= rules_.min_rounds) drop_not_faster();
  if (!done_ && used_rounds() >= rules_.min_rounds) evaluate();
  if (!done_) round_ = schedule(rounds_);
}

void CandidateSearch::record_round(const double* seconds) {
  const bool used = rounds_ >= rules_.warmup_rounds;
  ++rounds_;
  exchanges_ += static_cast<long>(round_.size());
  if (!used) return;
  for (Standing& s : standings_) s.samples.push_back(0);
  for (std::size_t i = 0; i < round_.size(); ++i)
    for (Standing& s : standings_)
      if (s.candidate == round_[i]) s.samples.back() = std::max(seconds[i], 1e-12);
}

std::size_t CandidateSearch::leader() const {
  std::size_t best = standings_.size();
  for (std::size_t i : running())
    if (best == standings_.size() ||
        standings_[i].median_seconds() < standings_[best].median_seconds())
      best = i;
  return best;
}

void CandidateSearch::drop_clearly_slower() {
  // The last used round: every running candidate has its sample there.
  double fastest = 0;
  for (std::size_t i : running()) {
    const double seconds = standings_[i].samples.back();
    if (fastest == 0 || seconds < fastest) fastest = seconds;
  }
  for (std::size_t i : running()) {
    Standing& s = standings_[i];
    if (i == 0 || s.samples.back() <= rules_.drop_ratio * fastest) continue;
    if (++s.slower_rounds < rules_.drop_rounds) continue;
    s.running = false;
    s.verdict = cat("clearly slower in ", s.slower_rounds, " of ", used_rounds(),
                    " rounds: over x", fixed2(rules_.drop_ratio),
                    " the round's fastest, the last time x", fixed2(s.samples.back() / fastest));
  }
  if (running() == std::vector<std::size_t>{0})
    finish(0, cat("every other candidate was clearly slower in ", rules_.drop_rounds,
                  " rounds"));
}

void CandidateSearch::drop_not_faster() {
  const Standing& first = standings_[0];
  for (std::size_t i : running()) {
    if (i == 0) continue;
    Standing& s = standings_[i];
    const std::vector<double> ratios = paired_ratios(s.samples, first.samples);
    const std::optional<Interval> interval = median_interval(ratios, kConfidence);
    if (!interval || interval->low < 1 / (1 + rules_.tolerance)) continue;
    s.running = false;
    s.verdict = cat("not over ", percent(1 + rules_.tolerance), " faster than ",
                    first.candidate.label(), ": ", ratio_text(ratios, interval));
  }
  if (running() == std::vector<std::size_t>{0})
    finish(0, cat("no other candidate is over ", percent(1 + rules_.tolerance), " faster than ",
                  first.candidate.label()));
}

void CandidateSearch::evaluate() {
  const std::size_t lead = leader();
  const Standing& leader_standing = standings_[lead];
  for (std::size_t i : running()) {
    if (i == lead) continue;
    Standing& s = standings_[i];
    const std::vector<double> ratios = paired_ratios(s.samples, leader_standing.samples);
    const std::optional<Interval> interval = median_interval(ratios, kConfidence);
    if (!interval) continue;
    if (interval->low > 1 + rules_.margin) {
      s.running = false;
      s.verdict = cat("slower than ", leader_standing.candidate.label(), ": ",
                      ratio_text(ratios, interval));
    } else if (interval->low >= 1 / (1 + rules_.tolerance) &&
               interval->high <= 1 + rules_.tolerance) {
      s.running = false;
      s.verdict = cat("as fast as ", leader_standing.candidate.label(), " within ",
                      percent(1 + rules_.tolerance), ": ", ratio_text(ratios, interval));
    }
  }
  if (running().size() > 1 && used_rounds() < rules_.max_rounds) return;

  // The first candidate (p2p) is the default: another must be clearly faster.
  const std::string separated =
      running().size() == 1 ? "separated from every other candidate"
                            : cat("not separated from every candidate after ", used_rounds(),
                                  " rounds (the most allowed); lowest median");
  if (lead == 0) {
    finish(0, cat(standings_[0].candidate.label(), " leads, ", separated));
    return;
  }
  const std::vector<double> ratios = paired_ratios(leader_standing.samples, standings_[0].samples);
  const std::optional<Interval> interval = median_interval(ratios, kConfidence);
  const std::string against = cat(leader_standing.candidate.label(), "/",
                                  standings_[0].candidate.label(), " ", ratio_text(ratios, interval));
  if (interval && interval->high < 1 - rules_.margin)
    finish(lead, cat(leader_standing.candidate.label(), " leads, ", separated,
                     ", and is clearly faster than ", standings_[0].candidate.label(), ": ",
                     against));
  else
    finish(0, cat(leader_standing.candidate.label(), " leads but is not clearly faster than ",
                  standings_[0].candidate.label(), " (", against, "): keeping ",
                  standings_[0].candidate.label()));
}

void CandidateSearch::finish(std::size_t winner, const std::string& why) {
  done_ = true;
  round_.clear();
  choice_ = standings_[winner].candidate;
  reason_ = reason_.empty() ? why : reason_ + "; " + why;
  for (Standing& s : standings_) {
    if (s.running && s.verdict.empty()) s.verdict = "not separated from the leader";
    s.running = false;
  }
  standings_[winner].verdict = "chosen";
}

std::vector<Measurement> CandidateSearch::measured() const {
  std::vector<Measurement> out;
  for (const Standing& s : standings_)
    if (s.sample_count() > 0) out.push_back({s.candidate, s.median_seconds()});
  return out;
}

}  // namespace ferry::detail
