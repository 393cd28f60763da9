// adaptive: times the other engines on the user's own exchanges and keeps the fastest.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engines/tuning/candidate_search.hpp"
#include "engines/tuning/tuning_cache.hpp"
#include "ferry/engine.hpp"

namespace ferry::detail {

/// The engine "auto" resolves to. Candidates are the engines of this build among p2p,
/// alltoallv, neighbor, rma and butterfly (every stage kept, and each mask that skips
/// one stage), all set up in setup(). CandidateSearch decides among them.
///
/// Profiling is the user's exchanges: each begin()/end() moves the data with the
/// candidate whose turn it is. The candidates take turns round by round (interleaved),
/// so load from other processes hits them alike. Each rank times its exchanges
/// (MPI_Wtime inside begin(), test() and end()); the times of the rounds up to the next
/// possible decision travel in one non-blocking MPI_Iallreduce MAX, started by the
/// end() of the last of those exchanges and completed by the next begin(), and the
/// slowest rank's times feed the search. Every rank thus decides, and sets up or
/// releases candidates, at the same exchange; and since the reduction completes at a
/// begin() and not inside an end(), a rank never waits in end() for another rank's
/// later call (put/get in the coupler call begin and end at different times on the
/// two sides). Only exchanges moving the same fields as the first one count (a mask
/// moving fewer fields would look faster); the others run with the candidate whose
/// turn it is and are not counted. A candidate out of the running is closed at once
/// (unless keep_candidates). After the decision only the chosen engine remains.
///
/// Watching: after the decision each rank keeps its last `watch` exchange times in a
/// ring allocated at the decision; every `watch` exchanges one MPI_Iallreduce MAX of
/// one double (the window's median), completed at the next begin() as above, gives
/// the slowest rank's window median. The first window after a decision is the
/// reference; three windows in a row off it by more than `drift` percent (either way)
/// start a new search over every candidate (set up again if released), whose choice
/// replaces the cache entry.
///
/// Cache: rank 0 reads the cache in setup(), rewriting it there without the lines
/// later ones superseded (compact_if_superseded); the entries that may be this plan's
/// ride in the reduction of the plan's signature. A decision is appended as one line
/// (append_entry), so that the exchange that decides pays no file rewrite. A cached
/// choice is used at once and, with `check` (default), re-checked on the first
/// exchanges at a bounded cost. A choice cached within kKeepWithinRatio of the
/// lowest cached median is first timed alone
/// (warmup + samples exchanges, one reduction) and kept if its median is within
/// kRecordMatchRatio of its cached one (slower only if the low end of the median's
/// interval is: an exchange that waited for a time slice does not count against the
/// record), or faster than that unless the entry was measured under a load gone since
/// (load_gone_since). A choice other than p2p cached
/// over kKeepWithinRatio its entry's lowest median (which no search writes: an entry
/// edited, or written for another engine) is replaced from the record: the candidate
/// of the lowest cached median is timed alone the same way and taken, without an
/// exchange of the cached choice, if it matches its record; if it does not, the
/// challenge below runs with it as the reference. Otherwise a search with the cached choice as
/// the reference (a challenger must be clearly faster than it, by the same intervals
/// as the full search), over only the candidates whose cached median is within
/// kCheckCloseRatio of the lowest (all of them if the entry has no medians), where a
/// challenger drops out once clearly slower than its round's fastest in two used
/// rounds or once its interval says it is at most `tolerance` faster (with the
/// recorded best as the reference, also once clearly slower than it in each of its
/// first kConfirmRounds used rounds: the entry recorded it slower), and which runs
/// `check_samples` used rounds at most. A replaced choice is recorded in the cache (a
/// challenger's median scaled to the record by its paired ratio to the cached choice,
/// at most the entry's lowest median, so that the next run keeps it); a kept one
/// leaves the entry as it is.
/// Profiled warm-up exchanges skip execute()'s barrier: their times are not used.
///
/// Options (see docs/user/engines/adaptive.md): samples, max_samples, warmup,
/// margin, tolerance, check, check_samples, watch, drift, cache, retune, candidates,
/// independent_sides, keep_candidates.
class AdaptiveEngine final : public Engine {
 public:
  ~AdaptiveEngine() override;
  std::string_view name() const override { return "adaptive"; }
  Capabilities capabilities() const override;
  void setup(const Plan& plan, const Comm& comm, const std::vector<FieldSpec>& fields,
             const EngineOptions& options) override;
  /// Completes a reduction in flight and closes every candidate still set up or kept.
  void close() override;
  void begin(const void* const* src, void* const* dst, const std::uint8_t* mask) override;
  void end() override;
  /// While profiling, the exchange starts after a barrier (see begin()).
  void execute(const void* const* src, void* const* dst, const std::uint8_t* mask) override;
  bool test() override;
  /// False while the reduction of the timings is in flight (it decides the next
  /// candidate), then the candidate's own answer.
  bool can_begin() override;
  /// The memory the engine of the next exchange offers (see Engine::destination_field):
  /// completes a reduction in flight first, as begin() would, since it may change
  /// that engine. A candidate that offered memory is not closed when it drops out
  /// (only in close()), so values a caller holds there outlive the next exchange.
  void* destination_field(std::size_t field) override;
  Traffic traffic() const override;
  EngineReport report() const override;

 private:
  // Rank 0: the cache path, then one line per entry that may be this plan's
  // ("entry ...") and per warning ("note ...").
  std::string read_cache(const std::string& cache_option, bool retune,
                         std::size_t point_bytes) const;
  // Every rank, on rank 0's read_cache() text: the entry for this plan, if usable.
  std::optional<CacheEntry> use_cache(const std::string& text, bool retune);
  std::string unusable_choice(const Candidate& choice) const;
  Engine& engine_for(const Candidate& candidate);
  void release_all_but(const std::vector<Candidate>& keep);
  bool samples_this_exchange(const std::uint8_t* mask);
  // begin(); with `together` (execute()), a profiled exchange starts after a barrier.
  void start(const void* const* src, void* const* dst, const std::uint8_t* mask, bool together);
  void start_search(std::vector<Candidate> candidates, const SearchRules& rules);
  // The re-check of cached_: the incumbent and the challengers cached close to it.
  void start_check();
  // A candidate timed alone (a probe): the cached choice, when cached close to the
  // lowest median, or the entry's recorded best, when the cached choice was cached
  // far from it; then the challenge, with challengers_, unless its times match the
  // record.
  void start_probe(const Candidate& probed);
  void finish_probe();
  // With `reference_recorded_best`, the challengers were recorded slower than the
  // first (SearchRules::confirm_rounds).
  void start_challenge(bool reference_recorded_best);
  const double* cached_median(const Candidate& candidate) const;
  // The medians to record: the search's, or after a re-check the cached ones.
  std::vector<Measurement> measured_for_cache() const;
  void plan_batch();
  void start_reduction(double* local, double* slowest, int count);
  void finish_reduction();
  void finish_batch();
  // Ends profiling with chosen_ (the search's, or with `unsearched` the cached choice,
  // taken without a search for that reason).
  void decide(const std::string& unsearched = {});
  void watch(double seconds);
  void finish_window();
  std::string measurement_table() const;

  const Plan* plan_ = nullptr;
  const Comm* comm_ = nullptr;
  std::vector<FieldSpec> fields_;
  SearchRules rules_;
  int check_rounds_ = 0;  // used rounds of the re-check of a cached choice, at most
  std::vector<Candidate> candidates_;  // in the order given (p2p first)
  std::string cache_path_;  // rank 0's choice, broadcast; empty: no cache
  std::string signature_;
  std::vector<std::string> cache_notes_;  // what happened with the cache, for the report

  // Candidates set up and not released, in the order they were set up.
  std::vector<std::pair<Candidate, std::unique_ptr<Engine>>> engines_;
  Engine* active_ = nullptr;
  Candidate active_candidate_;
  bool keep_candidates_ = false;

  // Profiling: the search, and the exchanges of the rounds gathered for its next step.
  std::optional<CandidateSearch> search_;
  bool profiling_ = false;
  std::vector<std::uint8_t> selection_;  // the fields of the first exchange; others don't count
  std::vector<Candidate> batch_;         // the candidate of each exchange of the batch
  int batch_rounds_ = 0;
  std::size_t slot_ = 0;                 // the batch's next exchange
  std::size_t first_used_slot_ = 0;      // the batch's warm-up exchanges come before
  std::vector<double> local_seconds_;    // this rank's times of the batch
  std::vector<double> slowest_seconds_;  // their max over ranks, once reduced
  MPI_Request reduction_ = MPI_REQUEST_NULL;  // the Iallreduce in flight, if any
  Comm reduction_comm_;  // its own, so an engine dropped with one in flight leaves it a live one
  bool reducing_window_ = false;         // it carries a watch window, not a batch
  // Candidates out of the running, with keep_candidates or after offering memory
  // (offered_): closed only in close(), and taken back by a later search.
  std::vector<std::pair<Candidate, std::unique_ptr<Engine>>> kept_;
  std::vector<Candidate> offered_;       // candidates whose destination_field gave memory
  bool sampling_ = false;                // the exchange in flight moves selection_'s fields
  double exchange_seconds_ = 0;          // time inside its begin() and test() calls
  long exchanges_ = 0;                   // exchanges made while profiling, all searches
  double profiled_seconds_ = 0;          // their total time, slowest rank (batches only)
  std::string reason_;                   // why the last search chose what it chose
  int searches_ = 0;
  std::vector<std::string> history_;     // one line per search after the first

  // Watching after the decision.
  int watch_ = 0;                        // exchanges per window; 0: not watching
  double drift_ = 0;                     // relative drift that counts
  std::vector<double> window_;           // this rank's times of the window
  std::vector<double> window_scratch_;   // for its median, without allocating
  std::size_t window_fill_ = 0;
  double reference_seconds_ = 0;         // the first window's median; 0 until then
  double last_window_seconds_ = 0;
  int drifted_windows_ = 0;
  long watched_ = 0;                     // exchanges made since the decision

  Candidate chosen_;
  std::optional<CacheEntry> cached_;  // the entry the choice came from
  bool checking_ = false;             // the search re-checks cached_'s choice
  bool probing_ = false;              // the batch times probed_ alone
  Candidate probed_;                  // the cached choice, or the entry's recorded best
  std::vector<Candidate> challengers_;  // of the re-check, the cached choice first
  std::string probe_note_;            // why the probe did not keep the choice
  MeasuredUnder now_;                 // rank 0's conditions when it read the cache
};

}  // namespace ferry::detail
