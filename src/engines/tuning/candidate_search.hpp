// How the adaptive engine compares its candidates under noise, and which one wins.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "engines/tuning/candidate.hpp"
#include "engines/tuning/paired_statistics.hpp"

namespace ferry::detail {

/// A candidate's time: the median over its samples of the slowest rank's time.
struct Measurement {
  Candidate candidate;
  double median_seconds = 0;
};

/// The rules of a search. Times are compared as paired ratios (one sample of each
/// candidate per round) through the order-statistic interval of their median at
/// kConfidence.
struct SearchRules {
  /// Rounds whose samples are not used (each candidate's first exchanges pay
  /// one-off costs).
  int warmup_rounds = 2;
  /// Rounds used before anything is decided; with fewer than 5 no interval exists,
  /// and the search runs to max_rounds and keeps the first candidate (p2p) unless
  /// it is the only one.
  int min_rounds = 5;
  /// Rounds used at most; then the leader wins if clearly faster than the first
  /// candidate (or, with duel_rounds, runs on against it alone). With round_limit,
  /// counted in rounds that inform: see there.
  int max_rounds = 20;
  /// > max_rounds: after max_rounds, more rounds run while the leader is not separated
  /// from some candidate and one of the pairs that keep them apart (the leader and a
  /// running candidate not yet separated from it) has fewer than max_rounds rounds that
  /// inform (not left out as both descheduled), up to this many used rounds, so that
  /// the search stays bounded. Under time slicing about half of the rounds spent may be
  /// left out. 0 (or max_rounds): the search ends after max_rounds used rounds.
  int round_limit = 0;
  /// "Clearly faster": the interval of the ratio lies below 1 - margin.
  double margin = 0.02;
  /// "As fast": the interval lies within [1 / (1 + tolerance), 1 + tolerance].
  double tolerance = 0.05;
  /// > 0: a running candidate other than the first drops out, without waiting for
  /// an interval, once its time was above drop_ratio times its round's fastest in
  /// drop_rounds used rounds (not necessarily in a row). The re-check of a cached
  /// choice sets it, so that a challenger costs a few exchanges; two rounds rather
  /// than one, because one exchange of a fast candidate descheduled under load
  /// looks many times slower than it is.
  double drop_ratio = 0;
  int drop_rounds = 2;
  /// A running candidate other than the first drops out once the interval of its
  /// paired ratio to the first lies above 1 / (1 + tolerance): it is at most
  /// `tolerance` faster, too little to replace the first with. The re-check of a
  /// cached choice sets it, so that challengers as fast as the cached choice stop
  /// costing exchanges after min_rounds used rounds instead of max_rounds.
  bool drop_not_faster = false;
  /// > 0: a running candidate other than the first drops out once it was clearly
  /// slower than the first (paired ratio over 1 + margin) in each of its first
  /// confirm_rounds used rounds. For a re-check whose first candidate is the entry's
  /// recorded best: every other candidate was recorded slower than it, by a search's
  /// own interval, and these rounds confirm the record rather than prove it anew (by
  /// luck alone, 1 chance in 2^confirm_rounds for candidates now equal).
  int confirm_rounds = 0;
  /// Paired ratios leave out the rounds in which both samples were over this times
  /// their candidate's fastest (descheduled; see paired_ratios). 0: every round counts.
  /// 3: a candidate's own spread on an idle node is far below it, a wait for the next
  /// time slice (4 ms and more against exchanges of 0.05 to 0.5 ms) far above.
  double descheduled_ratio = 3;
  /// After max_rounds, a leader other than the first candidate that is not clearly
  /// faster than it, but whose paired median is below 1 - margin (or that has too few
  /// rounds for an interval), runs on alone against the first (two exchanges a round)
  /// until the interval of their ratio separates them either way, or until the pair
  /// has max_rounds + duel_rounds rounds that inform (not left out as both
  /// descheduled): the duel's length is counted in rounds that inform, since under
  /// time slicing most of the rounds spent may be left out. 0: none.
  int duel_rounds = 0;
  /// The duel ends after this many used rounds at most, whatever they informed, so
  /// that the search stays bounded (2 * duel_round_limit exchanges). 0: duel_rounds.
  int duel_round_limit = 0;
};

/// Confidence of the intervals every decision rests on.
inline constexpr double kConfidence = 0.9;

/// What became of a candidate.
struct Standing {
  Candidate candidate;
  std::vector<double> samples;  ///< one per used round, 0 where it did not run
  std::string verdict;          ///< why it is out, or why it won; empty while running
  bool running = true;
  int slower_rounds = 0;        ///< used rounds it was clearly slower in (drop_ratio)
  double median_seconds() const;
  int sample_count() const;
};

/// Interleaves the candidates: every round runs each running candidate once, the
/// order rotated by one each round, so a burst of load from other processes hits
/// all of them instead of whichever was being timed. After min_rounds used rounds,
/// and after each later one, the leader is the running candidate whose largest
/// median paired ratio to another running candidate is lowest (the first of equals);
/// a candidate whose ratio to the leader is clearly above 1 + margin drops out as
/// slower (but the first, against which the choice is checked), one within the
/// tolerance drops out as as fast. More rounds run only while
/// the leader is not yet separated from some candidate, up to max_rounds (or, with
/// round_limit, until its pairs with those have max_rounds rounds that inform; then,
/// with duel_rounds, the leader against the first alone). The choice is the leader if it
/// is the first candidate (p2p, the default engine) or clearly faster than it;
/// otherwise the first candidate. Ratios leave out the rounds in which both samples
/// were descheduled (descheduled_ratio).
///
/// Not collective and deterministic: ranks fed the same times take the same path.
class CandidateSearch {
 public:
  /// `candidates` must not be empty; the first is the reference: p2p, or the
  /// incumbent when the search re-checks a cached choice.
  CandidateSearch(std::vector<Candidate> candidates, SearchRules rules);

  bool done() const noexcept { return done_; }
  /// The candidates of the current round, in the order to run them; only while !done().
  const std::vector<Candidate>& round() const noexcept { return round_; }
  /// Rounds (used or warm-up) the caller may run before record() is next needed:
  /// nothing can be decided in between, so the samples of all of them can be
  /// gathered in one reduction.
  int rounds_until_decision() const noexcept;
  /// Records the slowest-rank times of the next `rounds` rounds, round by round in
  /// round() order (the rounds' schedules follow from the rules alone).
  void record(const std::vector<double>& seconds, int rounds);

  /// The schedule of the round after `rounds` more rounds, for callers that gather
  /// several rounds before recording: the running candidates rotated.
  std::vector<Candidate> round_after(int rounds) const;

  const Candidate& choice() const noexcept { return choice_; }
  /// One line on why the choice was made and how sure it is.
  const std::string& reason() const noexcept { return reason_; }
  const std::vector<Standing>& standings() const noexcept { return standings_; }
  /// Every candidate's median, in the order given (the tuning cache keeps them).
  std::vector<Measurement> measured() const;
  int rounds() const noexcept { return rounds_; }            ///< all rounds recorded
  int used_rounds() const noexcept;                          ///< of which used
  /// Samples recorded in all (one per candidate and round, warm-up included).
  long exchanges() const noexcept { return exchanges_; }

 private:
  void record_round(const double* seconds);
  void evaluate();
  // After max_rounds: the leader against the first candidate alone (duel_rounds).
  void duel();
  void drop_clearly_slower();
  void drop_not_faster();
  void drop_confirmed_slower();
  void finish(std::size_t winner, const std::string& why);
  std::size_t leader() const;
  // The running candidate not yet separated from the leader whose pair with it had the
  // fewest rounds that inform; standings_.size() if there is none.
  std::size_t least_informed(std::size_t lead) const;
  // Whether the search runs on while the leader is not separated (round_limit).
  bool more_rounds(std::size_t lead) const;
  // "; 14 of them informed alltoallv/rma, ..." when rounds were left out, else "".
  std::string informed_text(std::size_t lead) const;
  // The paired ratios of standings_[a] over standings_[b], descheduled rounds left out.
  std::vector<double> ratios(std::size_t a, std::size_t b) const;
  std::string ratio_text(std::size_t a, std::size_t b) const;
  std::vector<std::size_t> running() const;
  std::vector<Candidate> schedule(int round) const;

  std::vector<Standing> standings_;
  SearchRules rules_;
  int rounds_ = 0;
  long exchanges_ = 0;
  std::vector<Candidate> round_;
  bool done_ = false;
  int duel_from_ = 0;  ///< the used round after which the duel began; 0: no duel
  Candidate choice_;
  std::string reason_;
};

}  // namespace ferry::detail
