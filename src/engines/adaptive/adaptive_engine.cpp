#include "engines/adaptive/adaptive_engine.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "engines/field_set.hpp"
#include "engines/tuning/candidate.hpp"
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
constexpr int kDefaultSamples = 3;
// The first exchanges after an engine's setup pay one-off costs (first touch of its
// new buffers and windows, MPI connections): 2-6x a later exchange for the first
// two on 4 ranks of one node. Timing them would favour whichever engine warms fastest.
constexpr int kDefaultWarmup = 2;
constexpr int kMaxExchanges = 1000;
// A later candidate must be more than this much faster to be chosen (see
// CandidateSearch): half a microsecond in 25 is noise, not a reason for an engine
// with a costlier setup.
constexpr int kDefaultMarginPercent = 2;
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

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::string ms(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4f", seconds * 1e3);
  return text;
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
  std::string root_text;  // rank 0's read_cache()
  // Errors in the options are agreed on in the signature's reduction below (a MAX), and
  // only when some rank failed does agree() find and broadcast the first error.
  std::optional<Error> failed;
  try {
    field_set.assign(fields);
    samples_ = int_option(options, "samples", kDefaultSamples, 1, kMaxExchanges,
                          "exchanges timed per candidate");
    warmup_ = int_option(options, "warmup", kDefaultWarmup, 0, kMaxExchanges,
                         "exchanges per candidate before the timed ones");
    margin_percent_ = int_option(options, "margin", kDefaultMarginPercent, 0, 50,
                                 "percent by which a later candidate must be faster");
    const std::string cache_option = options.get_string("cache", "");
    candidates_ = candidate_engines(options.get_string("candidates", ""),
                                    options.get_bool(name(), "independent_sides", false));
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
  // On a cache hit, setup thus costs one collective besides the chosen engine's.
  std::vector<std::int64_t> range = {failed ? 1 : 0,   samples_,        -samples_, warmup_,
                                     -warmup_,         margin_percent_, -margin_percent_};
  const std::size_t text_at = range.size();
  append_text_words(range, failed ? "" : root_text);
  const PlanSignature signature = plan_signature(plan, comm, point_bytes, range);
  if (range[0] != 0) agree(comm, failed);  // throws on every rank
  FERRY_CHECK(range[1] == -range[2] && range[3] == -range[4] && range[5] == -range[6], Errc::Arg,
              "adaptive: options samples, warmup and margin must be the same on every rank; got "
              "samples ",
              -range[2], " to ", range[1], ", warmup ", -range[4], " to ", range[3], ", margin ",
              -range[6], " to ", range[5], ". Give every rank the same options");
  signature_ = signature.text;
  const int stages = butterfly_stage_count(signature.involved_ranks);

  cached_ = use_cache(text_from_words(comm, range, text_at, root_text), retune, stages);
  if (cached_) {
    chosen_ = cached_->choice;
    active_ = &engine_for(chosen_);
    FERRY_LOG_INFO(comm.rank(), report().text);
    return;
  }

  const bool butterfly =
      std::find(candidates_.begin(), candidates_.end(), kButterflyEngine) != candidates_.end();
  std::vector<Candidate> candidates;
  for (const std::string& engine : candidates_)
    candidates.push_back({engine, engine == kButterflyEngine ? "all" : ""});
  for (const Candidate& c : candidates) engine_for(c);
  search_.emplace(std::move(candidates), butterfly ? stages : 0, margin_percent_ / 100.0);
  local_seconds_.assign(static_cast<std::size_t>(samples_), 0.0);
  if (kNonblockingReduction) reduction_comm_ = Comm::dup(comm.get());
  profiling_ = true;
  active_ = &engine_for(search_->current());
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
  for (const CacheEntry& entry : lookup.entries) text += "\n" + (kEntryWord + format_entry(entry));
  for (const std::string& warning : lookup.warnings) {
    FERRY_LOG_WARN(0, "adaptive: ", warning);
    text += "\n" + (kNoteWord + ("warning: " + warning));
  }
  return text;
}

std::optional<CacheEntry> AdaptiveEngine::use_cache(const std::string& text, bool retune,
                                                    int butterfly_stages) {
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
  const std::string why = unusable_choice(entry->choice, butterfly_stages);
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
  cache_notes_.push_back(cat("choice read from \"", cache_path_, "\"; no profiling"));
  return entry;
}

std::string AdaptiveEngine::unusable_choice(const Candidate& choice, int butterfly_stages) const {
  const std::vector<std::string>& engines = candidates_;
  if (std::find(engines.begin(), engines.end(), choice.engine) == engines.end())
    return cat("names engine \"", choice.engine, "\", which is not a candidate in this build (",
               list_first(engines, engines.size()), ")");
  if (choice.engine == kButterflyEngine && choice.stages != "all" && !choice.stages.empty() &&
      static_cast<int>(choice.stages.size()) != butterfly_stages)
    return cat("keeps butterfly stages \"", choice.stages, "\", but this plan has ",
               butterfly_stages, " stages");
  return {};
}

Engine& AdaptiveEngine::engine_for(const Candidate& candidate) {
  for (auto& [c, engine] : engines_)
    if (c == candidate) return *engine;
  auto engine = make_engine(candidate.engine);
  const EngineOptions options = candidate.options();
  engine->setup(*plan_, *comm_, fields_, options);
  options.check_all_read(candidate.engine);
  engines_.emplace_back(candidate, std::move(engine));
  return *engines_.back().second;
}

void AdaptiveEngine::release(const Candidate& candidate) {
  // Collective for engines holding windows or communicators: every rank releases
  // the same candidate at the same exchange, because decisions are identical.
  auto it = std::find_if(engines_.begin(), engines_.end(),
                         [&](const auto& slot) { return slot.first == candidate; });
  if (it == engines_.end()) return;
  if (keep_candidates_)
    kept_.push_back(std::move(it->second));
  else
    it->second->close();
  engines_.erase(it);
}

void AdaptiveEngine::close() {
  // Every rank started the reduction at the same exchange, and closes the candidates
  // in the same order (setup order, then release order).
  if (reduction_ != MPI_REQUEST_NULL) FERRY_CALL_MPI(MPI_Wait(&reduction_, MPI_STATUS_IGNORE));
  for (auto& slot : engines_) slot.second->close();
  for (auto& engine : kept_) engine->close();
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
  if (reduction_ != MPI_REQUEST_NULL) {
    FERRY_CALL_MPI(MPI_Wait(&reduction_, MPI_STATUS_IGNORE));
    finish_candidate();
  }
  if (!profiling_) {
    active_->begin(src, dst, mask);
    return;
  }
  sampling_ = samples_this_exchange(mask);
  // Exchanges made by execute() start together. Otherwise a rank that arrives early
  // counts its wait for the others (their previous exchange or computation) as
  // transfer time, and that skew depends on the candidate timed before, not on this
  // one. A begin() on its own must not block: a caller may put before it gets, and
  // its partner the other way round.
  if (together) FERRY_CALL_MPI(MPI_Barrier(comm_->get()));
  const double start = MPI_Wtime();
  active_->begin(src, dst, mask);
  exchange_seconds_ = MPI_Wtime() - start;
}

bool AdaptiveEngine::can_begin() {
  FERRY_CHECK(active_ != nullptr, Errc::State, "adaptive: can_begin before setup");
  if (reduction_ != MPI_REQUEST_NULL) {
    int done = 0;
    FERRY_CALL_MPI(MPI_Test(&reduction_, &done, MPI_STATUS_IGNORE));
    if (!done) return false;
    finish_candidate();  // as begin() would have
  }
  return active_->can_begin();
}

bool AdaptiveEngine::test() {
  FERRY_CHECK(active_ != nullptr, Errc::State, "adaptive: test before setup");
  if (!profiling_) return active_->test();
  // Time spent polling is transfer time the caller waited through, as in end().
  const double start = MPI_Wtime();
  const bool done = active_->test();
  exchange_seconds_ += MPI_Wtime() - start;
  return done;
}

void AdaptiveEngine::end() {
  FERRY_CHECK(active_ != nullptr, Errc::State, "adaptive: end before setup");
  if (!profiling_ || reduction_ != MPI_REQUEST_NULL) {
    active_->end();
    return;
  }
  const double start = MPI_Wtime();
  active_->end();
  const double seconds = exchange_seconds_ + (MPI_Wtime() - start);
  ++exchanges_;
  if (!sampling_) return;
  if (warmed_ < warmup_) {
    ++warmed_;
    return;
  }
  local_seconds_[static_cast<std::size_t>(taken_++)] = seconds;
  if (taken_ == samples_) start_reduction();
}

void AdaptiveEngine::start_reduction() {
  slowest_seconds_.assign(local_seconds_.size(), 0.0);
  if (!kNonblockingReduction) {
    FERRY_CALL_MPI(MPI_Allreduce(local_seconds_.data(), slowest_seconds_.data(), samples_,
                                 MPI_DOUBLE, MPI_MAX, comm_->get()));
    finish_candidate();
    return;
  }
  FERRY_CALL_MPI(MPI_Iallreduce(local_seconds_.data(), slowest_seconds_.data(), samples_,
                                MPI_DOUBLE, MPI_MAX, reduction_comm_.get(), &reduction_));
}

void AdaptiveEngine::finish_candidate() {
  const std::vector<double>& slowest = slowest_seconds_;
  taken_ = 0;
  warmed_ = 0;
  sampled_ += samples_;
  for (double s : slowest) sampled_seconds_ += s;
  const double median = median_of(slowest);
  const Candidate tried = search_->current();
  FERRY_LOG_DEBUG(comm_->rank(), "adaptive: ", tried.label(), ": slowest-rank samples ",
                  list_first(slowest, slowest.size()), " s, median ", median, " s");

  const bool first = search_->measured().empty();
  const Candidate best_before = first ? Candidate{} : search_->best().candidate;
  search_->record(median);
  // Keep only the fastest so far and the candidates still to be timed.
  if (!(search_->best().candidate == tried))
    release(tried);
  else if (!first)
    release(best_before);
  if (search_->done())
    decide();
  else
    active_ = &engine_for(search_->current());
}

void AdaptiveEngine::decide() {
  profiling_ = false;
  chosen_ = search_->best().candidate;
  active_ = &engine_for(chosen_);
  FERRY_ASSERT(engines_.size() == 1, "adaptive keeps ", engines_.size(),
               " engines after deciding, expected 1");
  if (!cache_path_.empty()) {
    cache_notes_.push_back(cat("rank 0 records the choice in \"", cache_path_, "\""));
    if (comm_->rank() == 0)
      for (const std::string& warning :
           store_entry(cache_path_, {signature_, chosen_, search_->measured()})) {
        FERRY_LOG_WARN(0, "adaptive: ", warning);
        cache_notes_.push_back("warning: " + warning);
      }
  }
  FERRY_LOG_INFO(comm_->rank(), report().text);
}

std::string AdaptiveEngine::measurement_table(const std::vector<Measurement>& measured,
                                              const Candidate& chosen) const {
  std::size_t width = std::string("candidate").size();
  for (const Measurement& m : measured) width = std::max(width, m.candidate.label().size());
  auto row = [width](const std::string& label, const std::string& time) {
    return "  " + label + std::string(width - label.size(), ' ') +
           std::string(time.size() < 11 ? 11 - time.size() : 1, ' ') + time;
  };
  std::string out = row("candidate", "median_ms") + "\n";
  for (const Measurement& m : measured)
    out += row(m.candidate.label(), ms(m.median_seconds)) +
           (m.candidate == chosen ? "  <- chosen" : "") + "\n";
  return out;
}

EngineReport AdaptiveEngine::report() const {
  EngineReport r;
  r.settled = !profiling_;
  if (profiling_) {
    r.choice = search_->current().label();
    r.text = cat("adaptive: profiling candidate ", search_->measured().size() + 1, " of ",
                 search_->planned(), " (", r.choice, "), ",
                 warmed_ < warmup_ ? cat("warm-up exchange ", warmed_ + 1, " of ", warmup_)
                                   : cat("sample ", taken_ + 1, " of ", samples_),
                 "; ", exchanges_, " exchanges so far\n",
                 measurement_table(search_->measured(), Candidate{}));
  } else if (search_) {
    r.choice = chosen_.label();
    const double chosen_total = static_cast<double>(sampled_) * search_->best().median_seconds;
    r.text = cat("adaptive: chose ", r.choice, " after profiling ", search_->measured().size(),
                 " candidates in ", exchanges_, " exchanges\n",
                 measurement_table(search_->measured(), chosen_), "  median_ms: median of ",
                 samples_, " timed exchanges (after ", warmup_,
                 " warm-up ones) of the slowest rank's\n  time inside begin(), test() and end(); ",
                 "a later candidate wins if over ", margin_percent_, " % faster\n",
                 "  profiling cost: the ", sampled_, " timed exchanges took ",
                 ms(sampled_seconds_), " ms, ", ms(chosen_total), " ms with the choice\n");
  } else if (cached_) {
    r.choice = chosen_.label();
    r.text = cat("adaptive: chose ", r.choice, " from the tuning cache, without profiling\n",
                 measurement_table(cached_->measured, chosen_),
                 "  medians as profiled by the run that wrote the entry\n");
  }
  if (cache_path_.empty())
    r.text += "  tuning cache: none (set option cache or FERRY_TUNING_CACHE to keep the choice)\n";
  for (const std::string& note : cache_notes_) r.text += "  tuning cache: " + note + "\n";
  return r;
}

}  // namespace ferry::detail
