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

// "x1.35 (90% interval 1.30..1.41, 8 rounds; 2 with both descheduled left out)"
std::string describe_ratios(const std::vector<double>& ratios,
                            const std::optional<Interval>& interval, std::size_t paired_rounds) {
  std::string text = "x" + fixed2(median_of(ratios));
  if (interval)
    text += cat(" (", static_cast<int>(kConfidence * 100 + 0.5), "% interval ",
                fixed2(interval->low), "..", fixed2(interval->high), ", ", ratios.size(),
                " rounds");
  else
    text += cat(" (", ratios.size(), " rounds, too few for an interval");
  if (paired_rounds > ratios.size())
    text += cat("; ", paired_rounds - ratios.size(), " with both descheduled left out");
  return text + ")";
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
  if (!done_ && rules_.confirm_rounds > 0 && used_rounds() >= rules_.confirm_rounds)
    drop_confirmed_slower();
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

std::vector<double> CandidateSearch::ratios(std::size_t a, std::size_t b) const {
  return paired_ratios(standings_[a].samples, standings_[b].samples, rules_.descheduled_ratio);
}

std::string CandidateSearch::ratio_text(std::size_t a, std::size_t b) const {
  const std::vector<double> r = ratios(a, b);
  const std::size_t paired = paired_ratios(standings_[a].samples, standings_[b].samples).size();
  return describe_ratios(r, median_interval(r, kConfidence), paired);
}

std::size_t CandidateSearch::leader() const {
  // Paired, as the candidates are compared: the median of one candidate's samples
  // taken apart is decided, under load, by how many of them were descheduled.
  const std::vector<std::size_t> alive = running();
  std::size_t best = standings_.size();
  double best_score = 0;
  for (std::size_t i : alive) {
    double score = 0;
    for (std::size_t j : alive)
      if (j != i) {
        const std::vector<double> r = ratios(i, j);
        score = std::max(score, r.empty() ? 1.0 : median_of(r));
      }
    if (best == standings_.size() || score < best_score) best = i, best_score = score;
  }
  return best;
}

std::size_t CandidateSearch::least_informed(std::size_t lead) const {
  // The pairs of the leader with the candidates it is not yet separated from are what
  // keeps the search going; a pair of two other candidates decides nothing, and the
  // first candidate, kept while clearly slower than the leader for the final check,
  // is separated from it.
  std::size_t least = standings_.size(), fewest = 0;
  for (std::size_t i : running()) {
    if (i == lead) continue;
    const std::vector<double> r = ratios(i, lead);
    const std::optional<Interval> interval = median_interval(r, kConfidence);
    if (i == 0 && interval && interval->low > 1 + rules_.margin) continue;
    if (least == standings_.size() || r.size() < fewest) least = i, fewest = r.size();
  }
  return least;
}

bool CandidateSearch::more_rounds(std::size_t lead) const {
  if (used_rounds() < rules_.max_rounds) return true;
  if (used_rounds() >= rules_.round_limit) return false;
  // Rounds left out as both descheduled told nothing about a pair: the limit counts the
  // rounds that inform the least informed pair that still keeps the leader undecided.
  const std::size_t least = least_informed(lead);
  return least != standings_.size() &&
         ratios(least, lead).size() < static_cast<std::size_t>(rules_.max_rounds);
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
    const std::optional<Interval> interval = median_interval(ratios(i, 0), kConfidence);
    if (!interval || interval->low < 1 / (1 + rules_.tolerance)) continue;
    s.running = false;
    s.verdict = cat("not over ", percent(1 + rules_.tolerance), " faster than ",
                    first.candidate.label(), ": ", ratio_text(i, 0));
  }
  if (running() == std::vector<std::size_t>{0})
    finish(0, cat("no other candidate is over ", percent(1 + rules_.tolerance), " faster than ",
                  first.candidate.label()));
}

void CandidateSearch::drop_confirmed_slower() {
  const Standing& first = standings_[0];
  const auto rounds = static_cast<std::size_t>(rules_.confirm_rounds);
  for (std::size_t i : running()) {
    if (i == 0) continue;
    Standing& s = standings_[i];
    bool slower = true;
    for (std::size_t r = 0; r < rounds && slower; ++r)
      slower = s.samples[r] > 0 && first.samples[r] > 0 &&
               s.samples[r] > (1 + rules_.margin) * first.samples[r];
    if (!slower) continue;
    s.running = false;
    s.verdict = cat("slower than ", first.candidate.label(), " in each of its first ", rounds,
                    " rounds, as recorded: ", ratio_text(i, 0));
  }
  if (running() == std::vector<std::size_t>{0})
    finish(0, cat("every other candidate was slower than ", first.candidate.label(),
                  " in its first ", rounds, " rounds, as recorded"));
}

void CandidateSearch::evaluate() {
  if (duel_from_ > 0) {
    duel();
    return;
  }
  const std::size_t lead = leader();
  const Standing& leader_standing = standings_[lead];
  for (std::size_t i : running()) {
    if (i == lead) continue;
    Standing& s = standings_[i];
    const std::optional<Interval> interval = median_interval(ratios(i, lead), kConfidence);
    if (!interval) continue;
    // The first candidate stays while slower: the choice is checked against it at the
    // end, when the leader may be another candidate than the one it was slower than.
    if (interval->low > 1 + rules_.margin) {
      if (i == 0) continue;
      s.running = false;
      s.verdict = cat("slower than ", leader_standing.candidate.label(), ": ", ratio_text(i, lead));
    } else if (interval->low >= 1 / (1 + rules_.tolerance) &&
               interval->high <= 1 + rules_.tolerance) {
      s.running = false;
      s.verdict = cat("as fast as ", leader_standing.candidate.label(), " within ",
                      percent(1 + rules_.tolerance), ": ", ratio_text(i, lead));
    }
  }
  const std::vector<double> against_first = ratios(lead, 0);
  const std::optional<Interval> interval = median_interval(against_first, kConfidence);
  const bool clearly_faster = lead != 0 && interval && interval->high < 1 - rules_.margin;
  const bool only_first_left = running().size() == 2 && standings_[0].running;
  if (running().size() > 1 && !(only_first_left && clearly_faster) && more_rounds(lead)) return;

  // The first candidate (p2p) is the default: another must be clearly faster.
  const std::string separated =
      running().size() == 1 || (only_first_left && clearly_faster)
          ? "separated from every other candidate"
          : cat("not separated from every candidate after ", used_rounds(),
                " rounds (the most allowed", informed_text(lead), ")");
  if (lead == 0) {
    finish(0, cat(standings_[0].candidate.label(), " leads, ", separated));
    return;
  }
  const std::string against = cat(leader_standing.candidate.label(), "/",
                                  standings_[0].candidate.label(), " ", ratio_text(lead, 0));
  if (clearly_faster) {
    finish(lead, cat(leader_standing.candidate.label(), " leads, ", separated,
                     ", and is clearly faster than ", standings_[0].candidate.label(), ": ",
                     against));
    return;
  }
  // Under load the leader's lead over the first may need more rounds than max_rounds
  // to show (or to leave rounds in which not both waited): the two run on alone, while
  // the leader's median says it is faster or no interval exists yet.
  if (standings_[0].running && rules_.duel_rounds > 0 &&
      (!interval || median_of(against_first) < 1 - rules_.margin)) {
    for (std::size_t i : running())
      if (i != 0 && i != lead) {
        standings_[i].running = false;
        standings_[i].verdict = cat("not separated from the leader after ", used_rounds(),
                                    " rounds; the leader runs on against ",
                                    standings_[0].candidate.label(), " alone");
      }
    duel_from_ = used_rounds();
    return;
  }
  finish(0, cat(leader_standing.candidate.label(), " leads but is not clearly faster than ",
                standings_[0].candidate.label(), " (", against, ", ", separated, "): keeping ",
                standings_[0].candidate.label()));
}

void CandidateSearch::duel() {
  const std::vector<std::size_t> alive = running();
  FERRY_ASSERT(alive.size() == 2 && alive[0] == 0, "a duel of ", alive.size(), " candidates");
  const std::size_t challenger = alive[1];
  const std::string& first = standings_[0].candidate.label();
  const std::string& label = standings_[challenger].candidate.label();
  const std::optional<Interval> interval = median_interval(ratios(challenger, 0), kConfidence);
  const std::string how = cat(label, "/", first, " ", ratio_text(challenger, 0), ", after ",
                              used_rounds(), " rounds, the last ",
                              used_rounds() - duel_from_, " against ", first, " alone");
  // Only a separation ends the duel early: the median of few rounds flips by chance.
  if (interval && interval->high < 1 - rules_.margin)
    finish(challenger, cat(label, " leads and is clearly faster than ", first, ": ", how));
  else if (interval && interval->low > 1 + rules_.margin)
    finish(0, cat(label, " is clearly slower than ", first, ": ", how, ": keeping ", first));
  else if (ratios(challenger, 0).size() >=
               static_cast<std::size_t>(rules_.max_rounds + rules_.duel_rounds) ||
           used_rounds() >= duel_from_ + std::max(rules_.duel_round_limit, rules_.duel_rounds))
    finish(0, cat(label, " leads but is not clearly faster than ", first, " (", how,
                  "): keeping ", first));
}

std::string CandidateSearch::informed_text(std::size_t lead) const {
  const std::size_t least = least_informed(lead);
  if (least == standings_.size()) return "";
  const std::size_t informed = ratios(least, lead).size();
  if (informed >= static_cast<std::size_t>(used_rounds())) return "";
  return cat("; ", informed, " of them informed ", standings_[lead].candidate.label(), "/",
             standings_[least].candidate.label(), ", the fewest of the leader's open pairs");
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
