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
/// alltoallv, neighbor, rma and butterfly (stages "all"), all set up in setup(); then
/// butterfly stage masks, set up one at a time when the greedy pass reaches them
/// (their masks depend on earlier timings). See CandidateSearch for the order.
///
/// Profiling is the user's exchanges: each begin()/end() moves the data with the
/// current candidate. The first `warmup` exchanges with a candidate are not timed
/// (they pay one-off costs); the next `samples` are (MPI_Wtime inside begin(),
/// test() and end()). One non-blocking MPI_Iallreduce MAX, started by the end() of the
/// last sample and completed by the next begin(), turns them into the slowest rank's
/// times; their median is the candidate's time. Every rank thus decides, and sets up
/// or releases candidates, at the same exchange; and since the reduction completes at
/// a begin() and not inside an end(), a rank never waits in end() for another rank's
/// later call (put/get in the coupler call begin and end at different times on the
/// two sides). Only exchanges moving the same fields as the first one count (a mask
/// moving fewer fields would look faster); the others run with the current candidate
/// and are not counted. A candidate slower than the best so far is released at once,
/// so only the best, the one being timed and those not yet timed are alive. After the
/// decision only the chosen engine remains and begin()/end() forward to it.
///
/// Options: `samples` (timed exchanges per candidate, default 3), `warmup` (exchanges
/// per candidate before those, default 2), `cache` (tuning-cache file; default
/// $FERRY_TUNING_CACHE, none if unset), `retune` (true: profile even if the cache has
/// an entry, then replace it), `candidates` (comma-separated engines to time, default
/// every candidate of this build), `independent_sides` (true: only candidates whose two
/// sides progress independently, Capabilities::independent_sides; the coupler sets it,
/// which leaves out butterfly), `keep_candidates` (true: close candidates only in
/// close(), because closing windows is collective and would make one side of a put/get
/// wait for the other; the coupler sets it). Rank 0 reads the cache; the entries that may
/// be this plan's ride in the reduction of the plan's signature, so an entry for it
/// is used at once, without profiling, at the cost of that one collective.
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
  Traffic traffic() const override;
  EngineReport report() const override;

 private:
  // Rank 0: the cache path, then one line per entry that may be this plan's
  // ("entry ...") and per warning ("note ...").
  std::string read_cache(const std::string& cache_option, bool retune,
                         std::size_t point_bytes) const;
  // Every rank, on rank 0's read_cache() text: the entry for this plan, if usable.
  std::optional<CacheEntry> use_cache(const std::string& text, bool retune, int butterfly_stages);
  std::string unusable_choice(const Candidate& choice, int butterfly_stages) const;
  Engine& engine_for(const Candidate& candidate);
  void release(const Candidate& candidate);
  bool samples_this_exchange(const std::uint8_t* mask);
  // begin(); with `together` (execute()), a profiled exchange starts after a barrier.
  void start(const void* const* src, void* const* dst, const std::uint8_t* mask, bool together);
  void start_reduction();
  void finish_candidate();
  void decide();
  std::string measurement_table(const std::vector<Measurement>& measured,
                                const Candidate& chosen) const;

  const Plan* plan_ = nullptr;
  const Comm* comm_ = nullptr;
  std::vector<FieldSpec> fields_;
  int samples_ = 0;
  std::vector<std::string> candidates_;  // engine names timed, in order
  int warmup_ = 0;
  int margin_percent_ = 0;
  std::string cache_path_;  // rank 0's choice, broadcast; empty: no cache
  std::string signature_;
  std::vector<std::string> cache_notes_;  // what happened with the cache, for the report

  // Candidates set up and not released, in the order they were set up.
  std::vector<std::pair<Candidate, std::unique_ptr<Engine>>> engines_;
  Engine* active_ = nullptr;

  // Profiling state; search_ is empty when the choice came from the cache.
  std::optional<CandidateSearch> search_;
  bool profiling_ = false;
  std::vector<std::uint8_t> selection_;  // the fields of the first exchange; others don't count
  std::vector<double> local_seconds_;    // this rank's samples of the current candidate
  std::vector<double> slowest_seconds_;  // their max over ranks, once reduced
  MPI_Request reduction_ = MPI_REQUEST_NULL;  // the Iallreduce in flight, if any
  Comm reduction_comm_;  // its own, so an engine dropped with one in flight leaves it a live one
  bool keep_candidates_ = false;
  std::vector<std::unique_ptr<Engine>> kept_;  // released candidates, with keep_candidates
  int warmed_ = 0;                       // warm-up exchanges made with the current candidate
  int taken_ = 0;                        // samples taken of the current candidate
  bool sampling_ = false;                // the exchange in flight moves selection_'s fields
  double exchange_seconds_ = 0;          // time inside its begin() and test() calls
  long exchanges_ = 0;                   // exchanges made while profiling
  long sampled_ = 0;                     // of which timed
  double sampled_seconds_ = 0;           // their total time, slowest rank

  Candidate chosen_;
  std::optional<CacheEntry> cached_;  // the entry the choice came from
};

}  // namespace ferry::detail
