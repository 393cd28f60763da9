// The order in which the adaptive engine tries its candidates, and which one wins.
#pragma once

#include <cstddef>
#include <vector>

#include "engines/tuning/candidate.hpp"

namespace ferry::detail {

/// A candidate's time: the median over its samples of the slowest rank's time.
struct Measurement {
  Candidate candidate;
  double median_seconds = 0;
};

/// Walks the candidates: each given one once, in order; then, if the butterfly engine
/// was among them, the data-transfer paper's greedy pass over its stages. The pass
/// starts from every stage kept (the "butterfly:all" measurement); for stage s = 0,
/// 1, ... it tries the best mask so far with stage s skipped and keeps the skip if
/// that is clearly faster. The winner is the earliest candidate that no later one
/// beats clearly.
///
/// "Clearly faster" means a median below (1 - margin) times the other's: a later
/// candidate, usually a more complex engine with a costlier setup (butterfly masks
/// set up during profiling, rma's windows), must win by more than timing noise.
///
/// Not collective and deterministic: ranks fed the same medians walk the same path.
class CandidateSearch {
 public:
  /// `butterfly_stages`: the plan's stage count (ignored without a butterfly candidate).
  /// `candidates` must not be empty; `margin` in [0, 1).
  CandidateSearch(std::vector<Candidate> candidates, int butterfly_stages, double margin);

  bool done() const noexcept { return done_; }
  /// The candidate to measure next; only while !done().
  const Candidate& current() const noexcept { return current_; }
  /// Records current()'s median and moves on to the next candidate (or to done()).
  void record(double median_seconds);

  /// Every measurement so far, in the order taken.
  const std::vector<Measurement>& measured() const noexcept { return measured_; }
  /// The fastest measurement so far; only after the first record().
  const Measurement& best() const noexcept { return measured_[best_]; }
  /// How many candidates are measured in all, counted when known: the given ones,
  /// plus one per butterfly stage.
  std::size_t planned() const noexcept;

 private:
  std::vector<Candidate> given_;
  int stages_ = 0;
  double margin_ = 0;
  bool has_butterfly_ = false;
  std::size_t next_given_ = 0;
  Candidate current_;
  bool done_ = false;

  std::vector<Measurement> measured_;
  std::size_t best_ = 0;

  // The greedy pass: the stage tried next, and the best mask so far with its median.
  int stage_ = 0;
  std::string kept_;
  double kept_median_ = 0;

  void advance();
  bool clearly_faster(double median, double than) const noexcept {
    return median < (1 - margin_) * than;
  }
};

}  // namespace ferry::detail
