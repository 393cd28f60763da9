#include "engines/adaptive/adaptive_engine.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "engines/adaptive/exchange_timing.hpp"
#include "engines/field_set.hpp"
#include "engines/tuning/candidate.hpp"
#include "engines/tuning/paired_statistics.hpp"
#include "engines/tuning/plan_signature.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/log.hpp"
#include "util/mpi.hpp"

namespace ferry::detail {

namespace {

// The engines adaptive chooses from, in the order it times them.
constexpr const char* kCandidateEngines[] = {"p2p", "alltoallv", "neighbor", "rma",
                                             kButterflyEngine};
// Five rounds are the fewest whose paired ratios give a 90 % interval of their
// median (all five on one side: 1 chance in 32 by luck).
constexpr int kDefaultSamples = 5;
// Under load the leaders of a close race separate slowly; past this many rounds the
// lowest median wins (if clearly faster than p2p).
constexpr int kDefaultMaxSamples = 20;
// The first exchanges after an engine's setup pay one-off costs (first touch of its
// new buffers and windows, MPI connections): 2-6x a later exchange for the first
// two on 4 ranks of one node. Timing them would favour whichever engine warms fastest.
constexpr int kDefaultWarmup = 2;
constexpr int kMaxExchanges = 1000;
// A candidate must be faster than p2p by more than this (the whole interval of the
// ratio below 1 - margin): a difference within timing noise is no reason for an
// engine with a costlier setup.
constexpr int kDefaultMarginPercent = 2;
// Candidates whose ratio to the leader lies within this are as good as it: no
// more rounds are spent telling them apart.
constexpr int kDefaultTolerancePercent = 5;
// The re-check of a cached choice runs at most this many used rounds (with the
// warm-up, 10 rounds: at most 50 exchanges for 5 candidates that all stay in).
constexpr int kDefaultCheckSamples = 8;
// The re-check times only the challengers whose cached median is at most this times
// the lowest cached median (the cached choice's, unless the entry was edited or a
// re-check replaced its choice): one far slower than the best when it was
// cached is not worth the exchanges it would cost, and a change that large is the
// watch's to catch.
constexpr double kCheckCloseRatio = 1.25;
// After a probe of the entry's recorded best that did not match its record, a
// challenger (every one was recorded slower than it) drops out once clearly slower
// than it in each of its first this many used rounds (SearchRules::confirm_rounds):
// with the warm-up, 5 exchanges of a wrong cached choice instead of 7 or more.
constexpr int kConfirmRounds = 3;
// A challenger over this times the fastest of two used rounds of the re-check drops
// out (SearchRules::drop_ratio), so that it costs a few exchanges at most.
constexpr double kCheckDropRatio = 1.5;
// A cached choice whose cached median is within this of the lowest cached median is
// first timed alone (warmup + samples exchanges, one reduction): if its median then
// matches its cached one within kRecordMatchRatio either way, the entry still
// describes this run and the choice is kept without timing any challenger. 1.10: the
// adaptive engine's target is an engine within 10 % of the best.
constexpr double kKeepWithinRatio = 1.10;
// How far the cached choice's median may be from its cached median, either way, and
// still count as matching it: a median of 5 slowest-rank times varies by about 10 %
// from run to run on an idle node. Slower (judged by the low end of the median's
// interval, see finish_probe) means a loaded or changed machine; faster
// means the entry was measured under a load this run does not have, when the
// comparison it records may not hold either (a choice made under load).
constexpr double kRecordMatchRatio = 1.25;
// Watching: exchanges per window, and the drift that counts when sustained over
// kSustainedWindows windows in a row.
constexpr int kDefaultWatch = 50;
constexpr int kDefaultDriftPercent = 30;
constexpr int kSustainedWindows = 3;
// The slowest rank's samples are reduced without blocking, so that end() waits for
// nothing but its exchange. SimGrid SMPI 3.32's nonblocking collectives send a message
// between every pair of ranks (0.5 s of simulation per MPI_Iallreduce on 96 ranks,
// against 5 ms for MPI_Allreduce), which made simulated profiling at a few hundred
// ranks take hours; under SMPI, whose runs are benchmarks of one exchange, it blocks.
#ifdef FERRY_SMPI
constexpr bool kNonblockingReduction = false;
#else
constexpr bool kNonblockingReduction = true;
#endif

// An integer option in [min, max]; Errc::Arg with the allowed range.
int int_option(const EngineOptions& options, const std::string& key, int fallback, int min,
               int max, const char* meaning) {
  const std::string text = options.get_string(key, std::to_string(fallback));
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  FERRY_CHECK(!text.empty() && *end == '\0' && value >= min && value <= max, Errc::Arg,
              "adaptive: option ", key, "=\"", text, "\" must be an integer in ", min, "..",
              max, " (", meaning, "; default ", fallback, ")");
  return static_cast<int>(value);
}

bool registered(const std::string& name) {
  const std::vector<std::string> names = engine_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The candidate engines this build offers (SimGrid SMPI builds lack neighbor, say).
// The engines of this build among kCandidateEngines, with `independent_sides` only
// those whose two sides progress independently (Capabilities::independent_sides, what
// the coupler's put/get needs), limited to `requested` (a comma-separated list; empty =
// all). Raises Errc::Arg for a name that is not one.
std::vector<std::string> candidate_engines(const std::string& requested, bool independent_sides) {
  std::vector<std::string> available;
  for (const char* engine : kCandidateEngines)
    if (registered(engine) &&
        (!independent_sides || engine_capabilities(engine).independent_sides))
      available.emplace_back(engine);
  if (requested.empty()) return available;
  std::vector<std::string> chosen;
  std::string rest = requested;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string name = rest.substr(0, comma);
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    FERRY_CHECK(std::find(available.begin(), available.end(), name) != available.end(), Errc::Arg,
                "adaptive: option candidates names \"", name, "\", which is not a candidate engine",
                independent_sides ? " with independent sides" : "", " of this build (",
                list_first(available, available.size()), ")");
    chosen.push_back(name);
  }
  return chosen;
}

// Rank 0's text rides in the signature's reduction (a MAX, the other ranks giving
// zeros), which also spares the first broadcast on a communicator, costly in some MPI
// libraries (SimGrid SMPI: ~90 us on 24 ranks): the length, then up to kInlineText
// bytes, 7 per int64 word so that every word is non-negative. The rest of a longer
// text follows in a broadcast.
constexpr std::size_t kInlineText = 1024;
constexpr std::size_t kTextWordBytes = 7;
constexpr std::size_t kTextWords = 1 + (kInlineText + kTextWordBytes - 1) / kTextWordBytes;

void append_text_words(std::vector<std::int64_t>& words, const std::string& text) {
  const std::size_t at = words.size();
  words.resize(at + kTextWords, 0);
  words[at] = static_cast<std::int64_t>(text.size());
  for (std::size_t i = 0; i < std::min(text.size(), kInlineText); ++i) {
    const auto byte = static_cast<std::int64_t>(static_cast<unsigned char>(text[i]));
    words[at + 1 + i / kTextWordBytes] |= byte << (8 * (i % kTextWordBytes));
  }
}

// Collective: the text append_text_words() put at words[at] on rank 0 (`root_text`).
std::string text_from_words(const Comm& comm, const std::vector<std::int64_t>& words,
                            std::size_t at, const std::string& root_text) {
  const auto length = static_cast<std::size_t>(words[at]);
  std::string text(length, '\0');
  for (std::size_t i = 0; i < std::min(length, kInlineText); ++i) {
    const std::int64_t word = words[at + 1 + i / kTextWordBytes];
    text[i] = static_cast<char>((word >> (8 * (i % kTextWordBytes))) & 0xff);
  }
  if (length <= kInlineText) return text;
  if (comm.rank() == 0) text = root_text;
  FERRY_CALL_MPI(MPI_Bcast(text.data() + kInlineText,
                           mpi_count<int>(length - kInlineText, "adaptive: tuning-cache text"),
                           MPI_CHAR, 0, comm.get()));
  return text;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  for (std::size_t begin = 0;;) {
    const auto newline = text.find('\n', begin);
    lines.push_back(text.substr(begin, newline == std::string::npos ? newline : newline - begin));
    if (newline == std::string::npos) return lines;
    begin = newline + 1;
  }
}

constexpr const char* kEntryWord = "entry ";
constexpr const char* kNoteWord = "note ";
constexpr const char* kNowWord = "now ";

std::string ms(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4f", seconds * 1e3);
  return text;
}

std::string ratio2(double ratio) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", ratio);
  return text;
}

// The butterfly candidates for a plan of `stages` stages: every stage kept, then
// each mask that skips one stage.
std::vector<Candidate> butterfly_candidates(int stages) {
  std::vector<Candidate> out = {{kButterflyEngine, "all"}};
  for (int s = 0; s < stages; ++s) {
    std::string mask(static_cast<std::size_t>(stages), '1');
    mask[static_cast<std::size_t>(s)] = '0';
    out.push_back({kButterflyEngine, mask});
  }
  return out;
}

// The median of values[0..n), using `scratch` (of at least n) so nothing is allocated.
double median_in_place(const std::vector<double>& values, std::size_t n,
                       std::vector<double>& scratch) {
  std::copy(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n), scratch.begin());
  const auto middle = scratch.begin() + static_cast<std::ptrdiff_t>(n / 2);
  std::nth_element(scratch.begin(), middle, scratch.begin() + static_cast<std::ptrdiff_t>(n));
  return *middle;
}

}  // namespace

Capabilities AdaptiveEngine::capabilities() const {
  Capabilities c = active_ ? active_->capabilities() : Capabilities{};
  // The candidate may change at the next begin(), so fields cannot wait in one.
  c.holds_fields = false;
  return c;
}

Traffic AdaptiveEngine::traffic() const {
  FERRY_CHECK(active_ != nullptr, Errc::State, "adaptive: traffic() before setup");
  return active_->traffic();
}

void AdaptiveEngine::setup(const Plan& plan, const Comm& comm, const std::vector<FieldSpec>& fields,
                           const EngineOptions& options) {
  FERRY_CHECK(plan_ == nullptr, Errc::State,
              "adaptive: setup called twice. Make a new engine instead");
  plan_ = &plan;
  comm_ = &comm;
  fields_ = fields;
  FieldSet field_set;
  std::size_t point_bytes = 0;
  bool retune = false;
  bool check = true;
  int margin = 0, tolerance = 0, drift = 0;
  std::string root_text;  // rank 0's read_cache()
  // Errors in the options are agreed on in the signature's reduction below (a MAX), and
  // only when some rank failed does agree() find and broadcast the first error.
  std::optional<Error> failed;
  try {
    field_set.assign(fields);
    rules_.min_rounds = int_option(options, "samples", kDefaultSamples, 1, kMaxExchanges,
                                   "rounds of timed exchanges before a decision");
    rules_.max_rounds = int_option(options, "max_samples",
                                   std::max(kDefaultMaxSamples, rules_.min_rounds),
                                   rules_.min_rounds, kMaxExchanges,
                                   "rounds of timed exchanges at most, at least samples");
    rules_.warmup_rounds = int_option(options, "warmup", kDefaultWarmup, 0, kMaxExchanges,
                                      "exchanges per candidate before the timed ones");
    // A leader not yet clearly faster than p2p after max_samples rounds may run on
    // against p2p alone (two exchanges a round) until as many rounds again inform,
    // in at most twice as many: under time slicing about half may be left out.
    rules_.duel_rounds = rules_.max_rounds;
    rules_.duel_round_limit = 2 * rules_.max_rounds;
    // Likewise the search: while the leader is not separated, until its pairs with the
    // candidates it is not separated from have max_samples rounds that inform, in at
    // most twice as many rounds.
    rules_.round_limit = 2 * rules_.max_rounds;
    margin = int_option(options, "margin", kDefaultMarginPercent, 0, 50,
                        "percent by which a candidate must be faster than p2p");
    tolerance = int_option(options, "tolerance", kDefaultTolerancePercent, 0, 50,
                           "percent within which candidates count as equally fast");
    rules_.margin = margin / 100.0;
    rules_.tolerance = tolerance / 100.0;
    check = options.get_bool(name(), "check", true);
    check_rounds_ = int_option(options, "check_samples", kDefaultCheckSamples, 1, kMaxExchanges,
                               "rounds that re-check a cached choice at most");
    watch_ = int_option(options, "watch", kDefaultWatch, 0, 1000000,
                        "exchanges per watch window after the decision; 0: no watching");
    drift = int_option(options, "drift", kDefaultDriftPercent, 1, 1000,
                       "percent of drift over three windows that starts a new search");
    drift_ = drift / 100.0;
    const std::string cache_option = options.get_string("cache", "");
    candidates_.clear();
    for (const std::string& engine :
         candidate_engines(options.get_string("candidates", ""),
                           options.get_bool(name(), "independent_sides", false)))
      candidates_.push_back({engine, engine == kButterflyEngine ? "all" : ""});
    retune = options.get_bool(name(), "retune", false);
    keep_candidates_ = options.get_bool(name(), "keep_candidates", false);
    point_bytes = field_set.point_bytes_all();
    if (comm.rank() == 0) root_text = read_cache(cache_option, retune, point_bytes);
  } catch (const Error& e) {
    failed = e;
  } catch (const std::bad_alloc&) {
    failed = Error(Errc::NoMemory, "out of memory while setting up", comm.rank());
  }
  // Rank 0 has read the tuning cache; the entries that may be this plan's ride in the
  // signature's reduction, which keys the cache and, with maxima, checks that every
  // rank has the same counts (every rank reduces its samples at the same exchange).
  // On a cache hit, setup thus costs one collective besides the candidates'.
  const std::vector<std::int64_t> agreed = {
      rules_.min_rounds, rules_.max_rounds,   rules_.warmup_rounds, margin, tolerance,
      check ? 1 : 0,     check_rounds_,       watch_,               drift};
  std::vector<std::int64_t> range = {failed ? 1 : 0};
  for (std::int64_t v : agreed) range.insert(range.end(), {v, -v});
  const std::size_t text_at = range.size();
  append_text_words(range, failed ? "" : root_text);
  const PlanSignature signature = plan_signature(plan, comm, point_bytes, range);
  if (range[0] != 0) agree(comm, failed);  // throws on every rank
  bool same = true;
  for (std::size_t i = 0; i < agreed.size(); ++i) same = same && range[1 + 2 * i] == -range[2 + 2 * i];
  FERRY_CHECK(same, Errc::Arg,
              "adaptive: options samples, max_samples, warmup, margin, tolerance, check, "
              "check_samples, watch and drift must be the same on every rank. Give every rank "
              "the same options");
  signature_ = signature.text;
  // Butterfly: every stage kept, and each mask that skips one stage.
  std::vector<Candidate> candidates;
  for (const Candidate& c : candidates_) {
    if (c.engine != kButterflyEngine) {
      candidates.push_back(c);
      continue;
    }
    for (Candidate& b : butterfly_candidates(butterfly_stage_count(signature.involved_ranks)))
      candidates.push_back(std::move(b));
  }
  candidates_ = candidates;
  offered_.reserve(candidates_.size());
  if (kNonblockingReduction) reduction_comm_ = Comm::dup(comm.get());
  // A watch window's reduction uses them too, before any search may have sized them.
  slowest_seconds_.reserve(1);
  local_seconds_.reserve(candidates_.size() * static_cast<std::size_t>(rules_.max_rounds +
                                                                       rules_.warmup_rounds));

  cached_ = use_cache(text_from_words(comm, range, text_at, root_text), retune);
  if (cached_ && !check) {
    chosen_ = cached_->choice;
    decide("not re-checked (check=false)");
    return;
  }
  if (cached_) {
    start_check();
    return;
  }
  for (const Candidate& c : candidates_) engine_for(c);
  start_search(candidates_, rules_);
}

void AdaptiveEngine::start_check() {
  // The incumbent first: the reference a challenger must be clearly faster than.
  std::vector<Candidate> order = {cached_->choice};
  std::vector<std::string> untimed;
  // The lowest cached median, if the cached choice has one (else every one is timed).
  double lowest = cached_median(cached_->choice) ? *cached_median(cached_->choice) : 0;
  for (const Candidate& c : candidates_)
    if (lowest > 0 && cached_median(c)) lowest = std::min(lowest, *cached_median(c));
  for (const Candidate& c : candidates_) {
    if (c == cached_->choice) continue;
    const double* median = cached_median(c);
    if (lowest > 0 && median && *median > kCheckCloseRatio * lowest)
      untimed.push_back(c.label());
    else
      order.push_back(c);
  }
  if (order.size() == 1) {
    chosen_ = cached_->choice;
    decide(cat("re-checked without timing: no other candidate's cached median is within x",
               kCheckCloseRatio, " of the lowest"));
    return;
  }
  checking_ = true;
  std::vector<std::string> timed;
  for (std::size_t i = 1; i < order.size(); ++i) timed.push_back(order[i].label());
  cache_notes_.push_back(
      cat("re-check of ", cached_->choice.label(), " against ", list_first(timed, timed.size()),
          untimed.empty() ? std::string()
                          : cat(" (not timed, cached over x", kCheckCloseRatio,
                                " the lowest median: ", list_first(untimed, untimed.size()),
                                ")")));
  challengers_ = std::move(order);
  const double* own = cached_median(cached_->choice);
  if (own && *own <= kKeepWithinRatio * lowest) {
    start_probe(cached_->choice);
    return;
  }
  // A search records its leader, or p2p kept against a leader not clearly faster;
  // a re-check that replaces a choice records it with its lowest median. A choice
  // other than p2p cached over kKeepWithinRatio its entry's lowest median was not
  // written by either (an entry edited, or written for another engine): the
  // entry's own paired measurements say the recorded best is faster, so that one is
  // timed alone and taken if it still matches its record, without an exchange of
  // the cached choice.
  if (own && !(cached_->choice == candidates_.front())) {
    for (const Candidate& c : challengers_)
      if (cached_median(c) && *cached_median(c) == lowest) {
        start_probe(c);
        return;
      }
  }
  start_challenge(false);
}

void AdaptiveEngine::start_challenge(bool reference_recorded_best) {
  for (const Candidate& c : challengers_) engine_for(c);
  SearchRules check = rules_;
  check.max_rounds = std::max(rules_.min_rounds, check_rounds_);
  check.drop_ratio = kCheckDropRatio;
  check.drop_not_faster = true;
  check.duel_rounds = 0;  // the re-check's cost stays bounded by check_samples
  check.round_limit = 0;
  // The entry recorded every challenger slower than its recorded best: confirming
  // that costs the suspect cached choice fewer exchanges than an interval would.
  if (reference_recorded_best) check.confirm_rounds = kConfirmRounds;
  start_search(challengers_, check);
}

void AdaptiveEngine::start_probe(const Candidate& probed) {
  probing_ = true;
  profiling_ = true;
  probed_ = probed;
  batch_rounds_ = rules_.warmup_rounds + rules_.min_rounds;
  batch_.assign(static_cast<std::size_t>(batch_rounds_), probed);
  local_seconds_.assign(batch_.size(), 0.0);
  slot_ = 0;
  first_used_slot_ = static_cast<std::size_t>(rules_.warmup_rounds);
  active_candidate_ = probed;
  active_ = &engine_for(active_candidate_);
}

void AdaptiveEngine::finish_probe() {
  probing_ = false;
  for (double s : slowest_seconds_) profiled_seconds_ += s;
  const std::vector<double> used(
      slowest_seconds_.begin() + static_cast<std::ptrdiff_t>(rules_.warmup_rounds),
      slowest_seconds_.end());
  const double median = median_of(used);
  const double recorded = *cached_median(probed_);
  const double ratio = median / recorded;
  // Slower than its record only if the low end of the median's interval is (of 5
  // exchanges, the fastest): a descheduled exchange only ever looks slower, and on a
  // core shared by more ranks than it runs, one that waited for the next time slice
  // (4 ms and more against 0.1 ms) is no sign that the record no longer holds. Then
  // the challenge would time the suspect cached choice.
  const std::optional<Interval> interval = median_interval(used, kConfidence);
  const double low_ratio = (interval ? interval->low : median) / recorded;
  const bool own = probed_ == cached_->choice;
  const std::string timed_alone =
      cat(probed_.label(), " timed alone: median ", ms(median), " ms over ", used.size(),
          " exchanges, x", ratio2(ratio), " its cached ", ms(recorded), " ms",
          low_ratio < ratio ? cat(" (the low end of its interval x", ratio2(low_ratio), ")")
                            : std::string());
  const std::string kept =
      own ? cat("re-checked in ", batch_.size(), " exchanges: ", timed_alone)
          : cat("replaced from the entry's record in ", batch_.size(),
                " exchanges: the cached choice was cached at x",
                ratio2(*cached_median(cached_->choice) / recorded), " the lowest median, ",
                probed_.label(), "'s; ", timed_alone);
  const std::string close =
      own ? cat(", and cached within x", kKeepWithinRatio, " of the lowest median; no challenger timed")
          : cat("; ", cached_->choice.label(), " not timed");
  if (low_ratio <= kRecordMatchRatio && ratio >= 1 / kRecordMatchRatio) {
    chosen_ = probed_;
    decide(cat(kept, " (within x", kRecordMatchRatio, ")", close));
    return;
  }
  // Faster than its record: the machine is quicker now than when the entry was
  // measured (another run's first exchanges, a neighbour's job gone). The entry's
  // comparison is in doubt only if it was measured under a load this run does not have.
  const bool gone = load_gone_since(cached_->under, now_);
  if (ratio < 1 / kRecordMatchRatio && !gone) {
    chosen_ = probed_;
    decide(cat(kept, " (faster, and the entry was not measured under a load gone since: ",
               cached_->under.text(), ", now ", now_.text(), ")", close));
    return;
  }
  // The recorded best of an entry that contradicts its choice stays the reference
  // of the challenge: the cached choice must be clearly faster than it to be kept.
  if (!own) {
    const auto best = std::find(challengers_.begin(), challengers_.end(), probed_);
    std::rotate(challengers_.begin(), best, best + 1);
  }
  probe_note_ = cat(timed_alone, ", not within x", kRecordMatchRatio,
                    gone && ratio < 1 ? " and measured under a load gone since" : "",
                    ": challengers timed", own ? "" : cat(", ", probed_.label(), " the reference"));
  start_challenge(!own);
}

const double* AdaptiveEngine::cached_median(const Candidate& candidate) const {
  for (const Measurement& m : cached_->measured)
    if (m.candidate == candidate && m.median_seconds > 0) return &m.median_seconds;
  return nullptr;
}

std::vector<Measurement> AdaptiveEngine::measured_for_cache() const {
  // A re-check keeps the medians of the full search that wrote the entry: its own
  // are of a few candidates and a few rounds, and under load they swing by several
  // times from run to run; written back, one disturbed run would keep the right
  // engine out of the next re-check (which times only those cached close).
  if (!checking_) return search_->measured();
  std::vector<Measurement> out = cached_->measured;
  const double* incumbent = cached_median(cached_->choice);
  if (!search_ || chosen_ == cached_->choice || !incumbent) return out;
  // A challenger replaced the cached choice: its median is recorded as the cached
  // choice's times its paired ratio to it in the re-check, and at most the lowest
  // cached median (it led every candidate the re-check timed, and those not timed
  // were cached over kCheckCloseRatio that), so that the entry's choice has its
  // lowest median and the next run keeps it instead of taking the entry's earlier
  // best back from the record.
  const std::vector<Standing>& standings = search_->standings();
  const auto samples_of = [&](const Candidate& c) -> const std::vector<double>& {
    return std::find_if(standings.begin(), standings.end(),
                        [&](const Standing& s) { return s.candidate == c; })
        ->samples;
  };
  double lowest = *incumbent;
  for (const Measurement& m : out)
    if (m.median_seconds > 0) lowest = std::min(lowest, m.median_seconds);
  const std::vector<double> ratios = paired_ratios(samples_of(chosen_), samples_of(cached_->choice));
  const double recorded = ratios.empty() ? lowest : std::min(lowest, *incumbent * median_of(ratios));
  const auto entry = std::find_if(out.begin(), out.end(),
                                  [&](const Measurement& m) { return m.candidate == chosen_; });
  if (entry == out.end())
    out.push_back({chosen_, recorded});
  else
    entry->median_seconds = recorded;
  return out;
}

std::string AdaptiveEngine::read_cache(const std::string& cache_option, bool retune,
                                       std::size_t point_bytes) const {
  const char* env = std::getenv("FERRY_TUNING_CACHE");
  const std::string path = !cache_option.empty() ? cache_option : env ? env : "";
  std::string text = path;
  if (path.empty()) return text;
  if (retune)
    return text + "\n" + kNoteWord + "retune=true: profiling even if the cache has an entry";
  const CacheLookup lookup = find_entries(path, signature_filter(*plan_, *comm_, point_bytes));
  // Decisions are appended (see decide()); the set-up, not an exchange, pays the rewrite
  // that drops the lines they superseded.
  for (const std::string& warning : compact_if_superseded(path, lookup))
    FERRY_LOG_WARN(0, "adaptive: ", warning);
  for (const CacheEntry& entry : lookup.entries) text += "\n" + (kEntryWord + format_entry(entry));
  // Rank 0's conditions, which the re-check compares with the entry's.
  text += "\n" + (kNowWord + MeasuredUnder::now().text());
  for (const std::string& warning : lookup.warnings) {
    FERRY_LOG_WARN(0, "adaptive: ", warning);
    text += "\n" + (kNoteWord + ("warning: " + warning));
  }
  return text;
}

std::optional<CacheEntry> AdaptiveEngine::use_cache(const std::string& text, bool retune) {
  const std::vector<std::string> lines = split_lines(text);
  cache_path_ = lines[0];
  if (cache_path_.empty()) return std::nullopt;
  std::optional<CacheEntry> entry;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (line.rfind(kNoteWord, 0) == 0) {
      cache_notes_.push_back(line.substr(std::strlen(kNoteWord)));
      continue;
    }
    if (line.rfind(kNowWord, 0) == 0) {
      const auto now = MeasuredUnder::parse(line.substr(std::strlen(kNowWord)));
      FERRY_ASSERT(now, "conditions formatted by rank 0 do not parse: ", line);
      now_ = *now;
      continue;
    }
    std::string why;
    auto parsed = parse_entry(line.substr(std::strlen(kEntryWord)), why);
    FERRY_ASSERT(parsed, "a cache entry formatted by rank 0 does not parse: ", why);
    if (parsed->signature == signature_) entry = std::move(parsed);
  }
  const std::string no_entry =
      cat("no usable entry for this plan in \"", cache_path_, "\"; profiling");
  if (!entry) {
    if (!retune) cache_notes_.push_back(no_entry);
    return std::nullopt;
  }
  const std::string why = unusable_choice(entry->choice);
  if (!why.empty()) {
    const std::string warning = cat("tuning cache \"", cache_path_, "\": the entry for this plan ",
                                    why, "; ignoring it and profiling");
    if (comm_->rank() == 0) {
      FERRY_LOG_WARN(0, "adaptive: ", warning);
    }
    cache_notes_.push_back("warning: " + warning);
    cache_notes_.push_back(no_entry);
    return std::nullopt;
  }
  const std::string under = entry->under.text();
  cache_notes_.push_back(cat("choice ", entry->choice.label(), " read from \"", cache_path_, "\"",
                             under.empty() ? "" : " (measured " + under + ")"));
  return entry;
}

std::string AdaptiveEngine::unusable_choice(const Candidate& choice) const {
  if (std::find(candidates_.begin(), candidates_.end(), choice) != candidates_.end()) return {};
  if (choice.engine == kButterflyEngine &&
      std::any_of(candidates_.begin(), candidates_.end(),
                  [](const Candidate& c) { return c.engine == kButterflyEngine; }))
    return cat("keeps butterfly stages \"", choice.stages,
               "\", which is not a butterfly candidate of this plan");
  std::vector<std::string> labels;
  for (const Candidate& c : candidates_) labels.push_back(c.label());
  return cat("names engine \"", choice.label(), "\", which is not a candidate here (",
             list_first(labels, labels.size()), ")");
}

Engine& AdaptiveEngine::engine_for(const Candidate& candidate) {
  for (auto& [c, engine] : engines_)
    if (c == candidate) return *engine;
  for (auto it = kept_.begin(); it != kept_.end(); ++it)
    if (it->first == candidate) {
      engines_.push_back(std::move(*it));
      kept_.erase(it);
      return *engines_.back().second;
    }
  auto engine = make_engine(candidate.engine);
  const EngineOptions options = candidate.options();
  engine->setup(*plan_, *comm_, fields_, options);
  options.check_all_read(candidate.engine);
  engines_.emplace_back(candidate, std::move(engine));
  return *engines_.back().second;
}

void AdaptiveEngine::release_all_but(const std::vector<Candidate>& keep) {
  // Collective for engines holding windows or communicators: every rank releases
  // the same candidates at the same exchange, because decisions are identical.
  for (auto it = engines_.begin(); it != engines_.end();) {
    if (std::find(keep.begin(), keep.end(), it->first) != keep.end()) {
      ++it;
      continue;
    }
    // A caller may hold values in memory an engine offered until the end of the
    // next exchange; closing the engine would free it.
    const bool offered = std::find(offered_.begin(), offered_.end(), it->first) != offered_.end();
    if (keep_candidates_ || offered)
      kept_.push_back(std::move(*it));
    else
      it->second->close();
    it = engines_.erase(it);
  }
}

void AdaptiveEngine::close() {
  // Every rank started the reduction at the same exchange, and closes the candidates
  // in the same order (setup order, then release order).
  if (reduction_ != MPI_REQUEST_NULL) FERRY_CALL_MPI(MPI_Wait(&reduction_, MPI_STATUS_IGNORE));
  for (auto& slot : engines_) slot.second->close();
  for (auto& slot : kept_) slot.second->close();
}

AdaptiveEngine::~AdaptiveEngine() {
  if (reduction_ == MPI_REQUEST_NULL) return;
  // A reduction in flight completes only as every rank progresses it, which a
  // destructor must not wait for; MPI may still use its buffers and communicator
  // (freeing either would crash it), so they live on until the process ends.
  struct Orphan {
    Comm comm;
    std::vector<double> local, slowest;
  };
  static std::vector<Orphan> orphans;
  orphans.push_back({std::move(reduction_comm_), std::move(local_seconds_),
                     std::move(slowest_seconds_)});
}

bool AdaptiveEngine::samples_this_exchange(const std::uint8_t* mask) {
  if (selection_.empty()) {
    for (std::size_t f = 0; f < fields_.size(); ++f)
      selection_.push_back(!mask || mask[f] ? 1 : 0);
    return true;
  }
  for (std::size_t f = 0; f < fields_.size(); ++f)
    if ((!mask || mask[f]) != (selection_[f] != 0)) return false;
  return true;
}

void AdaptiveEngine::start_search(std::vector<Candidate> candidates, const SearchRules& rules) {
  search_.emplace(std::move(candidates), rules);
  ++searches_;
  profiling_ = true;
  if (search_->done()) {
    decide();
    return;
  }
  plan_batch();
}

void AdaptiveEngine::plan_batch() {
  batch_rounds_ = search_->rounds_until_decision();
  batch_.clear();
  for (int r = 0; r < batch_rounds_; ++r)
    for (Candidate& c : search_->round_after(r)) batch_.push_back(std::move(c));
  local_seconds_.assign(batch_.size(), 0.0);
  slot_ = 0;
  // The rounds of a batch have one schedule size (the running candidates change only
  // at a record()).
  const int warmup_left = std::max(0, rules_.warmup_rounds - search_->rounds());
  first_used_slot_ = std::min(batch_.size(), static_cast<std::size_t>(warmup_left) *
                                                 search_->round_after(0).size());
  active_candidate_ = batch_[0];
  active_ = &engine_for(active_candidate_);
}

void AdaptiveEngine::begin(const void* const* src, void* const* dst, const std::uint8_t* mask) {
  start(src, dst, mask, false);
}

void AdaptiveEngine::execute(const void* const* src, void* const* dst,
                             const std::uint8_t* mask) {
  start(src, dst, mask, true);
  end();
}

void AdaptiveEngine::start(const void* const* src, void* const* dst, const std::uint8_t* mask,
                           bool together) {
  FERRY_CHECK(active_ != nullptr, Errc::State, "adaptive: begin before setup");
  if (reduction_ != MPI_REQUEST_NULL) finish_reduction();
  sampling_ = samples_this_exchange(mask);
  // Exchanges made by execute() start together while profiling. Otherwise a rank
  // that arrives early counts its wait for the others (their previous exchange or
  // computation) as transfer time, and that skew depends on the candidate timed
  // before, not on this one. A begin() on its own must not block: a caller may put
  // before it gets, and its partner the other way round. Warm-up exchanges, whose
  // times are not used, skip the barrier (it costs as much as a small exchange).
  if (profiling_ && together && slot_ >= first_used_slot_)
    FERRY_CALL_MPI(MPI_Barrier(comm_->get()));
  const bool timed = profiling_ || watch_ > 0;
  const double start = timed ? MPI_Wtime() : 0;
  active_->begin(src, dst, mask);
  exchange_seconds_ = timed ? MPI_Wtime() - start : 0;
}

bool AdaptiveEngine::can_begin() {
  FERRY_CHECK(active_ != nullptr, Errc::State, "adaptive: can_begin before setup");
  if (reduction_ != MPI_REQUEST_NULL) {
    int done = 0;
    FERRY_CALL_MPI(MPI_Test(&reduction_, &done, MPI_STATUS_IGNORE));
    if (!done) return false;
    finish_reduction();  // as begin() would have
  }
  return active_->can_begin();
}

void* AdaptiveEngine::destination_field(std::size_t field) {
  FERRY_CHECK(active_ != nullptr, Errc::State, "adaptive: destination_field before setup");
  FERRY_CHECK(field < fields_.size(), Errc::ArgRange, "adaptive: destination_field: field ",
              field, " out of range; the exchange has ", fields_.size(), " fields");
  if (reduction_ != MPI_REQUEST_NULL) finish_reduction();  // as begin() would
  void* memory = active_->destination_field(field);
  if (memory && std::find(offered_.begin(), offered_.end(), active_candidate_) == offered_.end())
    offered_.push_back(active_candidate_);
  return memory;
}

bool AdaptiveEngine::test() {
  FERRY_CHECK(active_ != nullptr, Errc::State, "adaptive: test before setup");
  if (!profiling_ && watch_ == 0) return active_->test();
  // Time spent polling is transfer time the caller waited through, as in end().
  const double start = MPI_Wtime();
  const bool done = active_->test();
  exchange_seconds_ += MPI_Wtime() - start;
  return done;
}

void AdaptiveEngine::end() {
  FERRY_CHECK(active_ != nullptr, Errc::State, "adaptive: end before setup");
  if (!profiling_ && watch_ == 0) {
    active_->end();
    return;
  }
  const double start = MPI_Wtime();
  active_->end();
  const double seconds =
      recorded_seconds(active_candidate_, exchange_seconds_ + (MPI_Wtime() - start));
  if (!sampling_) return;
  if (!profiling_) {
    watch(seconds);
    return;
  }
  ++exchanges_;
  local_seconds_[slot_++] = seconds;
  if (slot_ < batch_.size()) {
    active_candidate_ = batch_[slot_];
    active_ = &engine_for(active_candidate_);
    return;
  }
  slowest_seconds_.assign(local_seconds_.size(), 0.0);
  start_reduction(local_seconds_.data(), slowest_seconds_.data(),
                  static_cast<int>(local_seconds_.size()));
}

void AdaptiveEngine::start_reduction(double* local, double* slowest, int count) {
  reducing_window_ = !profiling_;
  if (!kNonblockingReduction) {
    FERRY_CALL_MPI(MPI_Allreduce(local, slowest, count, MPI_DOUBLE, MPI_MAX, comm_->get()));
    finish_reduction();
    return;
  }
  FERRY_CALL_MPI(MPI_Iallreduce(local, slowest, count, MPI_DOUBLE, MPI_MAX, reduction_comm_.get(),
                                &reduction_));
}

void AdaptiveEngine::finish_reduction() {
  if (reduction_ != MPI_REQUEST_NULL) FERRY_CALL_MPI(MPI_Wait(&reduction_, MPI_STATUS_IGNORE));
  if (reducing_window_)
    finish_window();
  else
    finish_batch();
}

void AdaptiveEngine::finish_batch() {
  if (probing_) {
    finish_probe();
    return;
  }
  for (double s : slowest_seconds_) profiled_seconds_ += s;
  FERRY_LOG_DEBUG(comm_->rank(), "adaptive: slowest-rank times of ", batch_rounds_, " rounds: ",
                  list_first(slowest_seconds_, slowest_seconds_.size()), " s");
  search_->record(slowest_seconds_, batch_rounds_);
  if (search_->done()) {
    chosen_ = search_->choice();
    release_all_but({chosen_});
    decide();
    return;
  }
  // Keep the candidates still running (releasing is collective: every rank here).
  release_all_but(search_->round());
  plan_batch();
}

void AdaptiveEngine::decide(const std::string& unsearched) {
  profiling_ = false;
  if (!unsearched.empty()) {
    search_.reset();
    reason_ = unsearched;
  } else {
    chosen_ = search_->choice();
    reason_ = checking_ ? cat("re-check of the cached choice ", cached_->choice.label(), ": ",
                              probe_note_.empty() ? "" : probe_note_ + "; ", search_->reason())
                        : search_->reason();
  }
  active_candidate_ = chosen_;
  active_ = &engine_for(chosen_);
  FERRY_ASSERT(engines_.size() == 1, "adaptive keeps ", engines_.size(),
               " engines after deciding, expected 1");
  // Watching starts afresh: the first full window is the new reference.
  window_.assign(static_cast<std::size_t>(watch_), 0.0);
  window_scratch_.assign(window_.size(), 0.0);
  window_fill_ = 0;
  reference_seconds_ = 0;
  drifted_windows_ = 0;
  watched_ = 0;
  const bool searched = search_.has_value() && search_->exchanges() > 0;
  // Rank 0 appends the entry inside this exchange: one write(2), tens of microseconds;
  // a rewrite of the file (a rename over it, which ext4 flushes: 0.1 to 25 ms measured
  // on a local disk) is left to the next set-up. A re-check that keeps the cached
  // choice would write the entry back unchanged but for its conditions, so it leaves
  // the entry as it is.
  const bool kept = checking_ && chosen_ == cached_->choice;
  const bool replaced = checking_ && !kept;
  if (kept && !cache_path_.empty())
    cache_notes_.push_back(cat("the re-check kept the cached choice; entry left as it is"));
  if (!cache_path_.empty() && (searched || replaced) && !kept) {
    cache_notes_.push_back(cat("rank 0 records the choice in \"", cache_path_, "\""));
    // A re-check decides a few exchanges after the set-up, where rank 0 read its
    // conditions (now_); reading them again (/proc/loadavg and the cores online, 40 to
    // 70 us) would fall inside this exchange.
    const MeasuredUnder under = checking_ && now_.cores > 0 ? now_ : MeasuredUnder::now();
    if (comm_->rank() == 0)
      for (const std::string& warning :
           append_entry(cache_path_, {signature_, chosen_, measured_for_cache(), under})) {
        FERRY_LOG_WARN(0, "adaptive: ", warning);
        cache_notes_.push_back("warning: " + warning);
      }
  }
  FERRY_LOG_INFO(comm_->rank(), report().text);
}

void AdaptiveEngine::watch(double seconds) {
  ++watched_;
  window_[window_fill_++] = seconds;
  if (window_fill_ < window_.size()) return;
  window_fill_ = 0;
  // One double per window; a window's reduction still in flight (begin() not called
  // since) has been waited for by this exchange's begin().
  local_seconds_.assign(1, median_in_place(window_, window_.size(), window_scratch_));
  slowest_seconds_.assign(1, 0.0);
  start_reduction(local_seconds_.data(), slowest_seconds_.data(), 1);
}

void AdaptiveEngine::finish_window() {
  const double window_slowest = slowest_seconds_.front();
  last_window_seconds_ = window_slowest;
  if (reference_seconds_ == 0) {
    reference_seconds_ = window_slowest;
    return;
  }
  const double ratio = window_slowest / reference_seconds_;
  const bool drifted = ratio > 1 + drift_ || ratio < 1 / (1 + drift_);
  drifted_windows_ = drifted ? drifted_windows_ + 1 : 0;
  if (drifted_windows_ < kSustainedWindows) return;
  // Every rank saw the same reduced medians: all start the new search here.
  history_.push_back(cat("after ", watched_, " exchanges with ", chosen_.label(),
                         " its time drifted from ", ms(reference_seconds_), " to ",
                         ms(window_slowest), " ms (median of ", watch_,
                         ", slowest rank) for ", kSustainedWindows,
                         " windows: profiled every candidate again"));
  cached_.reset();
  checking_ = false;
  probe_note_.clear();
  start_search(candidates_, rules_);
  for (const Candidate& c : candidates_) engine_for(c);
}

std::string AdaptiveEngine::measurement_table() const {
  const std::vector<Standing>& standings = search_->standings();
  std::size_t width = std::string("candidate").size();
  for (const Standing& s : standings) width = std::max(width, s.candidate.label().size());
  auto row = [width](const std::string& label, const std::string& time,
                     const std::string& rounds, const std::string& verdict) {
    return "  " + label + std::string(width - label.size(), ' ') +
           std::string(time.size() < 11 ? 11 - time.size() : 1, ' ') + time +
           std::string(rounds.size() < 8 ? 8 - rounds.size() : 1, ' ') + rounds +
           (verdict.empty() ? "" : "  " + verdict) + "\n";
  };
  std::string out = row("candidate", "median_ms", "rounds", "");
  for (const Standing& s : standings)
    out += row(s.candidate.label(), ms(s.median_seconds()), std::to_string(s.sample_count()),
               s.verdict);
  return out;
}

EngineReport AdaptiveEngine::report() const {
  EngineReport r;
  r.settled = !profiling_;
  r.choice = profiling_ ? active_candidate_.label() : chosen_.label();
  if (probing_) {
    r.text = cat("adaptive: re-checking the cached choice ", cached_->choice.label(),
                 probed_ == cached_->choice
                     ? std::string(" alone")
                     : cat(": timing ", r.choice, ", its entry's lowest median, alone"),
                 ", ", std::min(slot_, batch_.size()), " of ", batch_.size(),
                 " exchanges made\n");
  } else if (profiling_) {
    r.text = cat("adaptive: profiling, round ", search_->rounds() + 1 + slot_ / search_->round().size(),
                 " (", r.choice, "); ", exchanges_, " exchanges so far\n", measurement_table());
  } else if (search_ && search_->exchanges() == 0) {
    r.text = cat("adaptive: chose ", r.choice, " (", reason_, ")\n");
  } else if (search_) {
    const double chosen_median = [&] {
      for (const Standing& s : search_->standings())
        if (s.candidate == chosen_) return s.median_seconds();
      return 0.0;
    }();
    r.text = cat("adaptive: chose ", r.choice, " after ", search_->rounds(), " rounds (",
                 search_->exchanges(), " exchanges) of ", search_->standings().size(),
                 " candidates: ", reason_, "\n", measurement_table(),
                 "  median_ms: median of the slowest rank's time inside begin(), test() and "
                 "end()\n  over the rounds after ", rules_.warmup_rounds,
                 " warm-up ones; candidates take turns each round\n",
                 "  profiling cost: the ", exchanges_, " profiled exchanges took ",
                 ms(profiled_seconds_), " ms, ",
                 ms(static_cast<double>(exchanges_) * chosen_median), " ms with the choice\n");
  } else {
    r.text = cat("adaptive: chose ", r.choice, " from the tuning cache",
                 exchanges_ > 0 ? "" : ", without profiling", " (", reason_, ")\n");
  }
  if (cached_ && !cached_->measured.empty() && !profiling_) {
    r.text += "  cached medians:";
    for (const Measurement& m : cached_->measured)
      r.text += cat(" ", m.candidate.label(), "=", ms(m.median_seconds));
    r.text += " ms\n";
  }
  if (!profiling_ && watch_ > 0)
    r.text += reference_seconds_ > 0
                  ? cat("  watching: ", watched_, " exchanges since the choice, reference ",
                        ms(reference_seconds_), " ms, last window ", ms(last_window_seconds_),
                        " ms (", watch_, " exchanges a window; ", kSustainedWindows,
                        " windows off by over ", static_cast<int>(drift_ * 100 + 0.5),
                        "% start a new search)\n")
                  : cat("  watching: ", watched_, " exchanges since the choice, first window of ",
                        watch_, " not complete yet\n");
  for (const std::string& line : history_) r.text += "  earlier: " + line + "\n";
  if (cache_path_.empty())
    r.text += "  tuning cache: none (set option cache or FERRY_TUNING_CACHE to keep the choice)\n";
  for (const std::string& note : cache_notes_) r.text += "  tuning cache: " + note + "\n";
  return r;
}

}  // namespace ferry::detail
