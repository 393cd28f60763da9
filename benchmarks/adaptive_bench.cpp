#include "adaptive_bench.hpp"

#include <algorithm>
#include <optional>

#include "background_load.hpp"
#include "engines/tuning/candidate.hpp"
#include "json_line.hpp"
#include "statistics.hpp"
#include "text_table.hpp"
#include "timing.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::bench {

namespace {

// The previous search's rules (ferry's adaptive engine before candidates took turns).
constexpr int kPreviousWarmup = 2;
constexpr int kPreviousSamples = 3;
constexpr double kPreviousMargin = 0.02;

bool registered(const std::string& engine) {
  const std::vector<std::string> names = engine_names();
  return std::find(names.begin(), names.end(), engine) != names.end();
}

double median_seconds(std::vector<double> samples) { return summarize(std::move(samples)).median; }

}  // namespace

AdaptiveBench::AdaptiveBench(MPI_Comm comm, const AdaptiveBenchConfig& config)
    : comm_(Comm::dup(comm)),
      config_(config),
      roles_(assign_roles(config.groups, comm_.size(), comm_.rank())),
      scenario_(make_scenario(config.scenario, roles_)),
      layouts_(make_layouts(scenario_, roles_)),
      data_(layouts_.src, layouts_.dst, scenario_.fields),
      specs_(static_cast<std::size_t>(scenario_.fields), FieldSpec{Datatype::Float64, 1}) {
  FERRY_CHECK(config.runs >= 1 && config.repeat >= 1, Errc::Arg,
              "bench adaptive: runs and repeat must be >= 1; got ", config.runs, " and ",
              config.repeat);
  int involved = layouts_.src.member() || layouts_.dst.member() ? 1 : 0;
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, &involved, 1, MPI_INT, MPI_SUM, comm_.get()));
  butterfly_stages_ = detail::butterfly_stage_count(involved);
  for (const char* engine : {"p2p", "alltoallv", "neighbor", "rma"})
    if (registered(engine)) labels_.push_back(engine);
  if (registered(detail::kButterflyEngine)) {
    labels_.push_back("butterfly:all");
    for (int s = 0; s < butterfly_stages_; ++s) {
      std::string mask(static_cast<std::size_t>(butterfly_stages_), '1');
      mask[static_cast<std::size_t>(s)] = '0';
      labels_.push_back("butterfly:" + mask);
    }
  }
}

Exchange& AdaptiveBench::candidate(const std::string& label) {
  auto& slot = exchanges_[label];
  if (!slot) {
    const std::optional<detail::Candidate> c = detail::Candidate::parse(label);
    FERRY_ASSERT(c, "bench adaptive: candidate label ", label, " does not parse");
    slot = std::make_unique<Exchange>(comm_.get(), layouts_.src, layouts_.dst, specs_, c->engine,
                                      c->options());
    slot->execute(data_.src(), data_.dst());  // connections, first touch
  }
  return *slot;
}

double AdaptiveBench::timed_execute(Exchange& exchange) {
  FERRY_CALL_MPI(MPI_Barrier(comm_.get()));
  const double start = MPI_Wtime();
  exchange.execute(data_.src(), data_.dst());
  return max_over_ranks(comm_, MPI_Wtime() - start);
}

std::pair<std::string, long> AdaptiveBench::previous_search() {
  long exchanges = 0;
  auto measure = [&](const std::string& label) {
    Exchange& exchange = candidate(label);
    std::vector<double> samples;
    for (int k = 0; k < kPreviousWarmup + kPreviousSamples; ++k) {
      const double seconds = timed_execute(exchange);
      if (k >= kPreviousWarmup) samples.push_back(seconds);
    }
    exchanges += kPreviousWarmup + kPreviousSamples;
    return median_seconds(samples);
  };
  auto clearly_faster = [](double a, double than) { return a < (1 - kPreviousMargin) * than; };
  std::string best;
  double best_median = 0;
  auto consider = [&](const std::string& label, double median) {
    if (best.empty() || clearly_faster(median, best_median)) best = label, best_median = median;
  };
  double kept_median = 0;
  for (const std::string& label : labels_) {
    if (label.rfind("butterfly:", 0) == 0 && label != "butterfly:all") continue;
    const double median = measure(label);
    consider(label, median);
    if (label == "butterfly:all") kept_median = median;
  }
  // The greedy stage pass from every stage kept.
  if (kept_median > 0) {
    std::string kept(static_cast<std::size_t>(butterfly_stages_), '1');
    for (int s = 0; s < butterfly_stages_; ++s) {
      std::string mask = kept;
      mask[static_cast<std::size_t>(s)] = '0';
      const double median = measure("butterfly:" + mask);
      consider("butterfly:" + mask, median);
      if (clearly_faster(median, kept_median)) kept = mask, kept_median = median;
    }
  }
  return {best, exchanges};
}

void AdaptiveBench::check_values(const std::string& what) {
  std::optional<Error> wrong;
  if (auto mismatch = data_.first_mismatch())
    wrong = Error(Errc::Internal,
                  detail::cat("bench adaptive: ", what, " delivered wrong values on rank ",
                              comm_.rank(), ": ", *mismatch, ". This is a bug in ferry"),
                  comm_.rank());
  detail::agree(comm_, wrong);
}

std::vector<AdaptiveRunResult> AdaptiveBench::measure() {
  for (const std::string& label : labels_) candidate(label);
  std::vector<AdaptiveRunResult> results;
  for (int run = 0; run < config_.runs; ++run) {
    AdaptiveRunResult r;
    r.load_average = load_average();
    // A fresh adaptive exchange, profiling (retune: a cache in the environment is
    // neither read nor trusted).
    EngineOptions options;
    options.values["retune"] = "true";
    Exchange adaptive(comm_.get(), layouts_.src, layouts_.dst, specs_, "adaptive", options);
    data_.clear_destination();
    while (!adaptive.engine_report().settled) {
      adaptive.execute(data_.src(), data_.dst());
      ++r.chosen_exchanges;
    }
    check_values("the adaptive engine");
    const EngineReport report = adaptive.engine_report();
    r.chosen = report.choice;
    r.reason = report.text.substr(0, report.text.find('\n'));
    const auto [previous, previous_exchanges] = previous_search();
    r.previous = previous;
    r.previous_exchanges = previous_exchanges;

    // The judge: every candidate (and any mask the stage pass tried) in rotation.
    judge(r);
    results.push_back(std::move(r));
  }
  return results;
}

std::vector<std::vector<double>> AdaptiveBench::judge_rounds(
    const std::vector<Exchange*>& exchanges) {
  // Round by round, the order turned by one each round (as the adaptive engine's
  // search does): a load burst hits a round's candidates alike, and none is always
  // timed right after another moving the same data (found in cache).
  const std::size_t n = exchanges.size();
  std::vector<std::vector<double>> samples(n);
  for (int round = 0; round < config_.repeat; ++round)
    for (std::size_t turn = 0; turn < n; ++turn) {
      const std::size_t k = (turn + static_cast<std::size_t>(round)) % n;
      samples[k].push_back(timed_execute(*exchanges[k]));
    }
  return samples;
}

void AdaptiveBench::judge(AdaptiveRunResult& r) {
  std::vector<std::string> judged;
  std::vector<Exchange*> exchanges;
  for (const auto& [label, exchange] : exchanges_) {
    judged.push_back(label);
    exchanges.push_back(exchange.get());
  }
  const std::size_t n = judged.size();
  const std::vector<std::vector<double>> samples = judge_rounds(exchanges);
  // The candidate of the lowest median in `rounds`.
  auto lowest_median = [&](const std::vector<std::vector<double>>& rounds) {
    std::size_t best = 0;
    for (std::size_t k = 0; k < n; ++k) {
      r.medians[judged[k]] = median_seconds(rounds[k]);
      if (r.medians[judged[k]] < r.medians[judged[best]]) best = k;
    }
    return best;
  };
  // A choice's ratio to the best: the largest, over the candidates, of the median of
  // its paired ratios (its time over the candidate's, round by round).
  auto ratio_to_best = [&](const std::string& choice) {
    const std::size_t c = static_cast<std::size_t>(
        std::find(judged.begin(), judged.end(), choice) - judged.begin());
    double worst = 1;
    for (std::size_t k = 0; k < n; ++k) {
      std::vector<double> ratios;
      for (int round = 0; round < config_.repeat; ++round)
        ratios.push_back(samples[c][static_cast<std::size_t>(round)] /
                         samples[k][static_cast<std::size_t>(round)]);
      worst = std::max(worst, median_seconds(std::move(ratios)));
    }
    return worst;
  };
  // The second judge's medians are set first, so that the first judge's are reported.
  if (config_.judge_twice) {
    r.repeat_best = judged[lowest_median(judge_rounds(exchanges))];
    r.repeat_ratio = ratio_to_best(r.repeat_best);
  }
  const std::size_t best = lowest_median(samples);
  r.best = judged[best];
  r.best_seconds = r.medians.at(r.best);
  r.chosen_seconds = r.medians.at(r.chosen);
  r.previous_seconds = r.medians.at(r.previous);
  r.chosen_ratio = ratio_to_best(r.chosen);
  r.previous_ratio = ratio_to_best(r.previous);
}

std::string adaptive_table(const AdaptiveBench& bench, const std::vector<AdaptiveRunResult>& runs,
                           const std::string& mpi_library) {
  const Scenario& s = bench.scenario();
  const double within = bench.config().within;
  const bool twice = bench.config().judge_twice;
  std::vector<std::string> columns = {"run",      "load",   "adaptive",  "x_best", "exchanges",
                                      "previous", "x_best", "exchanges", "best",   "best_ms"};
  if (twice) columns.insert(columns.end(), {"repeat_best", "x_best"});
  TextTable table(columns);
  int good = 0, previous_good = 0, repeat_good = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const AdaptiveRunResult& r = runs[i];
    good += r.chosen_good(within) ? 1 : 0;
    previous_good += r.previous_good(within) ? 1 : 0;
    repeat_good += r.repeat_good(within) ? 1 : 0;
    std::vector<std::string> row = {std::to_string(i + 1), fixed(r.load_average, 2), r.chosen,
                                    fixed(r.chosen_ratio, 2), std::to_string(r.chosen_exchanges),
                                    r.previous, fixed(r.previous_ratio, 2),
                                    std::to_string(r.previous_exchanges), r.best,
                                    milliseconds(r.best_seconds)};
    if (twice) row.insert(row.end(), {r.repeat_best, fixed(r.repeat_ratio, 2)});
    table.add_row(row);
  }
  std::string out = detail::cat(
      "bench adaptive: ", s.name, ", ", s.nx, " x ", s.ny, " points, ", s.fields,
      " float64 fields, ", describe(s, bench.roles()), "\n", "ranks ",
      bench.roles().src_ranks, " + ", bench.roles().dst_ranks, ", ", runs.size(),
      " runs, judge: every candidate ", bench.config().repeat, " times in rotation after each run\n",
      "MPI: ", mpi_library, "\n\n");
  out += table.str();
  out += detail::cat(
      "\nadaptive (candidates take turns, intervals of paired ratios): within ",
      static_cast<int>(within * 100 + 0.5), "% of the best in ", good, " of ", runs.size(),
      " runs\nprevious (one candidate after another, median of 3): within ",
      static_cast<int>(within * 100 + 0.5), "% of the best in ", previous_good, " of ",
      runs.size(), " runs\n",
      twice ? detail::cat("a second judge's best (the judge agreeing with itself): within ",
                          static_cast<int>(within * 100 + 0.5), "% of the first judge's best in ",
                          repeat_good, " of ", runs.size(), " runs\n")
            : std::string(),
      "x_best: the largest, over the candidates, of the median of the choice's time over "
      "the candidate's,\nround by round in the judge's rotation (1: no candidate faster); "
      "best, best_ms: the lowest median;\nexchanges: exchanges the search took; load: 1-minute load average at the "
      "run's start\n");
  return out;
}

std::string adaptive_json(const AdaptiveBench& bench, const std::vector<AdaptiveRunResult>& runs,
                          const std::string& mpi_library) {
  const Scenario& s = bench.scenario();
  std::string out;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const AdaptiveRunResult& r = runs[i];
    JsonLine json;
    json.add("bench", "adaptive")
        .add("scenario", s.name)
        .add("run", static_cast<int>(i + 1))
        .add("src_ranks", bench.roles().src_ranks)
        .add("dst_ranks", bench.roles().dst_ranks)
        .add("points", s.points())
        .add("fields", s.fields)
        .add("load_average", r.load_average)
        .add("adaptive_choice", r.chosen)
        .add("adaptive_s", r.chosen_seconds)
        .add("adaptive_x_best", r.chosen_ratio)
        .add("adaptive_exchanges", static_cast<std::int64_t>(r.chosen_exchanges))
        .add("adaptive_good", r.chosen_good(bench.config().within))
        .add("previous_choice", r.previous)
        .add("previous_s", r.previous_seconds)
        .add("previous_x_best", r.previous_ratio)
        .add("previous_exchanges", static_cast<std::int64_t>(r.previous_exchanges))
        .add("previous_good", r.previous_good(bench.config().within))
        .add("best", r.best)
        .add("best_s", r.best_seconds)
        .add("reason", r.reason);
    if (bench.config().judge_twice)
      json.add("judge_repeat_best", r.repeat_best)
          .add("judge_repeat_x_best", r.repeat_ratio)
          .add("judge_repeat_good", r.repeat_good(bench.config().within));
    for (const auto& [label, seconds] : r.medians) json.add("median_s." + label, seconds);
    json
        .add("mpi_library", mpi_library);
    out += json.str() + "\n";
  }
  return out;
}

}  // namespace ferry::bench
