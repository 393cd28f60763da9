#include "engines/adaptive/adaptive_engine.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "engines/adaptive/plan_signature.hpp"
#include "engines/butterfly/butterfly_engine.hpp"
#include "engines/field_set.hpp"
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

// An integer option in [min, kMaxExchanges]; Errc::Arg with the allowed range.
int count_option(const EngineOptions& options, const std::string& key, int fallback, int min,
                 const char* meaning) {
  const std::string text = options.get_string(key, std::to_string(fallback));
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  FERRY_CHECK(!text.empty() && *end == '\0' && value >= min && value <= kMaxExchanges, Errc::Arg,
              "adaptive: option ", key, "=\"", text, "\" must be an integer in ", min, "..",
              kMaxExchanges, " (", meaning, "; default ", fallback, ")");
  return static_cast<int>(value);
}

bool registered(const std::string& name) {
  const std::vector<std::string> names = engine_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The candidate engines this build offers (SimGrid SMPI builds lack neighbor, say).
// The engines of this build among kCandidateEngines, limited to `requested` (a
// comma-separated list; empty = all). Raises Errc::Arg for a name that is not one.
std::vector<std::string> candidate_engines(const std::string& requested) {
  std::vector<std::string> available;
  for (const char* engine : kCandidateEngines)
    if (registered(engine)) available.emplace_back(engine);
  if (requested.empty()) return available;
  std::vector<std::string> chosen;
  std::string rest = requested;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string name = rest.substr(0, comma);
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    FERRY_CHECK(std::find(available.begin(), available.end(), name) != available.end(), Errc::Arg,
                "adaptive: option candidates names \"", name,
                "\", which is not a candidate engine of this build (",
                list_first(available, available.size()), ")");
    chosen.push_back(name);
  }
  return chosen;
}

// Collective: every rank gets rank 0's `text`.
void broadcast_text(const Comm& comm, std::string& text) {
  std::uint64_t length = text.size();
  FERRY_CALL_MPI(MPI_Bcast(&length, 1, MPI_UINT64_T, 0, comm.get()));
  text.resize(static_cast<std::size_t>(length));
  FERRY_CALL_MPI(MPI_Bcast(text.data(), mpi_count<int>(length, "adaptive: broadcast text"),
                           MPI_CHAR, 0, comm.get()));
}

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
  return active_ ? active_->capabilities() : Capabilities{};
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
  std::string cache_option;
  bool retune = false;
  agree_on(comm, [&] {
    field_set.assign(fields);
    samples_ = count_option(options, "samples", kDefaultSamples, 1,
                            "exchanges timed per candidate");
    warmup_ = count_option(options, "warmup", kDefaultWarmup, 0,
                           "exchanges per candidate before the timed ones");
    cache_option = options.get_string("cache", "");
    candidates_ = candidate_engines(options.get_string("candidates", ""));
    retune = options.get_bool(name(), "retune", false);
    keep_candidates_ = options.get_bool(name(), "keep_candidates", false);
  });
  // Every rank reduces its samples at the same exchange, so the counts must match.
  int range[4] = {samples_, -samples_, warmup_, -warmup_};
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, range, 4, MPI_INT, MPI_MAX, comm.get()));
  FERRY_CHECK(range[0] == -range[1] && range[2] == -range[3], Errc::Arg,
              "adaptive: options samples and warmup must be the same on every rank; got samples ",
              -range[1], " to ", range[0], ", warmup ", -range[3], " to ", range[2],
              ". Give every rank the same options");

  const bool butterfly =
      std::find(candidates_.begin(), candidates_.end(), kButterflyEngine) != candidates_.end();
  const int stages = butterfly ? butterfly_stage_count(plan, comm) : 0;
  // Rank 0's cache path holds for every rank, so all take part in the same broadcasts.
  if (comm.rank() == 0) {
    const char* env = std::getenv("FERRY_TUNING_CACHE");
    cache_path_ = !cache_option.empty() ? cache_option : env ? env : "";
  }
  broadcast_text(comm, cache_path_);
  if (!cache_path_.empty()) {
    signature_ = plan_signature(plan, comm, field_set.point_bytes_all());
    if (retune)
      cache_notes_.push_back("retune=true: profiling even if the cache has an entry");
    else
      cached_ = look_up_cache(stages);
  }
  if (cached_) {
    chosen_ = cached_->choice;
    active_ = &engine_for(chosen_);
    FERRY_LOG_INFO(comm.rank(), report().text);
    return;
  }

  std::vector<Candidate> candidates;
  for (const std::string& engine : candidates_)
    candidates.push_back({engine, engine == kButterflyEngine ? "all" : ""});
  for (const Candidate& c : candidates) engine_for(c);
  search_.emplace(std::move(candidates), stages);
  local_seconds_.assign(static_cast<std::size_t>(samples_), 0.0);
  profiling_ = true;
  active_ = &engine_for(search_->current());
}

std::optional<CacheEntry> AdaptiveEngine::look_up_cache(int butterfly_stages) {
  // Rank 0 reads the file; every rank gets the usable entry (first line) and the
  // warnings (one per following line).
  std::string text;
  if (comm_->rank() == 0) {
    CacheLookup lookup = find_entry(cache_path_, signature_);
    if (lookup.entry) {
      const std::string why = unusable_choice(lookup.entry->choice, butterfly_stages);
      if (why.empty())
        text = format_entry(*lookup.entry);
      else
        lookup.warnings.push_back(cat("tuning cache \"", cache_path_,
                                      "\": the entry for this plan ", why,
                                      "; ignoring it and profiling"));
    }
    for (const std::string& warning : lookup.warnings) {
      FERRY_LOG_WARN(0, "adaptive: ", warning);
      text += "\nwarning: " + warning;
    }
  }
  broadcast_text(*comm_, text);
  auto newline = text.find('\n');
  const std::string line = text.substr(0, newline);
  while (newline != std::string::npos) {
    const auto next = text.find('\n', newline + 1);
    cache_notes_.push_back(text.substr(newline + 1, next - newline - 1));
    newline = next;
  }
  if (line.empty()) {
    cache_notes_.push_back(
        cat("no usable entry for this plan in \"", cache_path_, "\"; profiling"));
    return std::nullopt;
  }
  std::string why;
  auto entry = parse_entry(line, why);
  FERRY_ASSERT(entry, "a cache entry formatted by rank 0 does not parse: ", why);
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
  if (keep_candidates_) kept_.push_back(std::move(it->second));
  engines_.erase(it);
}

AdaptiveEngine::~AdaptiveEngine() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  // Every rank started the reduction; it completes as the others reach this point too.
  if (!finalized && reduction_ != MPI_REQUEST_NULL) MPI_Wait(&reduction_, MPI_STATUS_IGNORE);
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
  const double start = MPI_Wtime();
  active_->begin(src, dst, mask);
  exchange_seconds_ = MPI_Wtime() - start;
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
  FERRY_CALL_MPI(MPI_Iallreduce(local_seconds_.data(), slowest_seconds_.data(), samples_,
                                MPI_DOUBLE, MPI_MAX, comm_->get(), &reduction_));
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
                 " warm-up ones) of the slowest rank's\n  time inside begin(), test() and end()\n",
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
