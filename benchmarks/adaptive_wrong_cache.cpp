// `ferry bench adaptive --wrong-cache ENGINE`: the re-check of a wrong cached choice,
// against the right engine and the wrong choice trusted, exchange by exchange.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "adaptive_bench.hpp"
#include "background_load.hpp"
#include "engines/tuning/candidate.hpp"
#include "engines/tuning/tuning_cache.hpp"
#include "json_line.hpp"
#include "text_table.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::bench {

namespace {

// Rounds of the wrong choice a re-check that times it needs at least with the default
// options: 2 warm-up rounds and the 5 timed ones of the first 90 % interval. (A
// choice replaced from the entry's record runs none.)
constexpr int kFewestWrongExchanges = 2 + 5;

std::unique_ptr<Exchange> make_exchange(MPI_Comm comm, const LayoutPair& layouts,
                                        const std::vector<FieldSpec>& specs,
                                        const std::string& label) {
  const std::optional<detail::Candidate> c = detail::Candidate::parse(label);
  FERRY_ASSERT(c, "bench adaptive: candidate label ", label, " does not parse");
  return std::make_unique<Exchange>(comm, layouts.src, layouts.dst, specs, c->engine,
                                    c->options());
}

double median_of_last_half(std::vector<double> samples) {
  samples.erase(samples.begin(), samples.begin() + static_cast<long>(samples.size() / 2));
  return summarize(std::move(samples)).median;
}

// The floor of the re-check's cost: the fewest exchanges with the wrong choice, each
// slower than the right one by the difference of their medians, over `exchanges` of
// the right one.
double cost_floor(const WrongCacheRunResult& r, int exchanges) {
  return kFewestWrongExchanges * (r.wrong_median / r.right_median - 1) / exchanges;
}

// The typical run: for each exchange index, its median over the runs, of the
// re-check's times (first) and the right engine's. A run's sums are dominated by the
// few exchanges descheduled under load; the medians over runs are not.
std::pair<std::vector<double>, std::vector<double>> typical_run(
    const std::vector<WrongCacheRunResult>& runs, int exchanges) {
  std::pair<std::vector<double>, std::vector<double>> typical;
  for (int k = 0; k < exchanges; ++k) {
    std::vector<double> check_k, right_k;
    for (const WrongCacheRunResult& r : runs) {
      check_k.push_back(r.check_times[static_cast<std::size_t>(k)]);
      right_k.push_back(r.right_times[static_cast<std::size_t>(k)]);
    }
    typical.first.push_back(summarize(std::move(check_k)).median);
    typical.second.push_back(summarize(std::move(right_k)).median);
  }
  return typical;
}

double sum_from(const std::vector<double>& values, std::size_t first) {
  double sum = 0;
  for (std::size_t k = first; k < values.size(); ++k) sum += values[k];
  return sum;
}

// The first exchanges shown one by one: those of the warm-up rounds and more.
constexpr std::size_t kShownExchanges = 8;

std::string percent(double ratio) { return fixed(100 * ratio, 1) + "%"; }

}  // namespace

std::string AdaptiveBench::cache_file() {
  std::string path;
  std::optional<Error> failed;
  if (comm_.rank() == 0) {
    const char* dir = std::getenv("TMPDIR");
    path = std::string(dir && *dir ? dir : "/tmp") + "/ferry_bench_cache_XXXXXX";
    const int fd = mkstemp(path.data());
    if (fd < 0)
      failed = Error(Errc::Io, detail::cat("bench adaptive: cannot create a tuning-cache file ",
                                           path, "; set TMPDIR to a writable directory"),
                     0);
    else
      close(fd);
  }
  detail::agree(comm_, failed);
  int length = static_cast<int>(path.size());
  FERRY_CALL_MPI(MPI_Bcast(&length, 1, MPI_INT, 0, comm_.get()));
  path.resize(static_cast<std::size_t>(length));
  FERRY_CALL_MPI(MPI_Bcast(path.data(), length, MPI_CHAR, 0, comm_.get()));
  return path;
}

void AdaptiveBench::rewrite_cache_choice(const std::string& path, const std::string& choice) {
  std::optional<Error> failed;
  if (comm_.rank() == 0) {
    const detail::CacheLookup lookup =
        detail::find_entries(path, [](const std::string&) { return true; });
    if (lookup.entries.size() != 1)
      failed = Error(Errc::Internal,
                     detail::cat("bench adaptive: the tuning cache has ", lookup.entries.size(),
                                 " entries, expected the search's one"),
                     0);
    for (detail::CacheEntry entry : lookup.entries) {
      entry.choice = *detail::Candidate::parse(choice);
      for (const std::string& warning : detail::store_entry(path, entry))
        failed = Error(Errc::Io, "bench adaptive: " + warning, 0);
    }
  }
  detail::agree(comm_, failed);
}

std::vector<WrongCacheRunResult> AdaptiveBench::measure_wrong_cache(const std::string& wrong,
                                                                    int exchanges,
                                                                    std::string& right) {
  FERRY_CHECK(wrong == kRightCache ||
                  std::find(labels_.begin(), labels_.end(), wrong) != labels_.end(),
              Errc::Arg, "bench adaptive: --wrong-cache names \"", wrong,
              "\", which is not a candidate here (", detail::list_first(labels_, labels_.size()),
              ") nor \"", kRightCache, "\"");
  FERRY_CHECK(exchanges >= 1, Errc::Arg, "bench adaptive: --exchanges must be >= 1; got ",
              exchanges);
  const std::string path = cache_file();
  {
    // The full search writes this plan's entry.
    EngineOptions options;
    options.values["cache"] = path;
    options.values["retune"] = "true";
    Exchange search(comm_.get(), layouts_.src, layouts_.dst, specs_, "adaptive", options);
    while (!search.engine_report().settled) search.execute(data_.src(), data_.dst());
    right = search.engine_report().choice;
    search.close();
  }
  FERRY_CHECK(right != wrong, Errc::Arg, "bench adaptive: the full search chose ", wrong,
              ", the engine given to --wrong-cache; give another, or \"", kRightCache,
              "\" to re-check a right choice");
  const std::string cached = wrong == kRightCache ? right : wrong;

  std::vector<WrongCacheRunResult> results;
  for (int run = 0; run < config_.runs; ++run) {
    WrongCacheRunResult r;
    r.load_average = load_average();
    rewrite_cache_choice(path, cached);
    EngineOptions checked;
    checked.values["cache"] = path;
    EngineOptions trusting = checked;
    trusting.values["check"] = "false";
    // Both read the rewritten entry before the re-check writes its result back.
    Exchange check(comm_.get(), layouts_.src, layouts_.dst, specs_, "adaptive", checked);
    Exchange trusted(comm_.get(), layouts_.src, layouts_.dst, specs_, "adaptive", trusting);
    const std::unique_ptr<Exchange> right_engine =
        make_exchange(comm_.get(), layouts_, specs_, right);
    std::vector<double> wrong_times;
    // The exchanges made before the first one with the re-check's choice: that one
    // settles it (its begin() completes the last reduction).
    r.decided_after = check.engine_report().settled ? 0 : -1;
    // The order of the three turns each exchange: the one timed right after another
    // moving the same data finds it in cache, which would favour whichever comes second.
    for (int k = 0; k < exchanges; ++k) {
      for (int turn = 0; turn < 3; ++turn) {
        switch ((k + turn) % 3) {
          case 0:
            data_.clear_destination();
            r.check_times.push_back(timed_execute(check));
            if (r.decided_after < 0 && check.engine_report().settled) r.decided_after = k;
            check_values("the re-checking adaptive exchange");
            break;
          case 1:
            r.right_times.push_back(timed_execute(*right_engine));
            break;
          default:
            wrong_times.push_back(timed_execute(trusted));
        }
      }
    }
    check_values("the trusted adaptive exchange");
    for (double s : r.check_times) r.check_seconds += s;
    for (double s : r.right_times) r.right_seconds += s;
    for (double s : wrong_times) r.wrong_seconds += s;
    r.right_median = median_of_last_half(r.right_times);
    r.wrong_median = median_of_last_half(wrong_times);
    const EngineReport report = check.engine_report();
    r.chosen = report.choice;
    r.reason = report.text.substr(0, report.text.find('\n'));
    check.close();
    trusted.close();
    right_engine->close();
    results.push_back(std::move(r));
  }
  if (comm_.rank() == 0) std::remove(path.c_str());
  return results;
}

std::string wrong_cache_table(const AdaptiveBench& bench, const std::string& right,
                              const std::string& wrong, int exchanges,
                              const std::vector<WrongCacheRunResult>& runs,
                              const std::string& mpi_library) {
  const Scenario& s = bench.scenario();
  TextTable table({"run", "load", "re-check", "decided", "check_ms", "right_ms", "trusted_ms",
                   "cost", "floor", "x_wrong"});
  // The re-check made its choice within the exchanges, and not the wrong one.
  int replaced = 0;
  std::vector<double> costs, trusted_costs, floors;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const WrongCacheRunResult& r = runs[i];
    const bool good = (wrong == kRightCache ? r.chosen == right : r.chosen != wrong) &&
                      r.decided_after >= 0;
    replaced += good ? 1 : 0;
    costs.push_back(r.cost());
    trusted_costs.push_back(r.wrong_seconds / r.right_seconds - 1);
    floors.push_back(cost_floor(r, exchanges));
    table.add_row({std::to_string(i + 1), fixed(r.load_average, 2), r.chosen,
                   r.decided_after < 0 ? "no" : std::to_string(r.decided_after),
                   milliseconds(r.check_seconds), milliseconds(r.right_seconds),
                   milliseconds(r.wrong_seconds), percent(r.cost()),
                   percent(cost_floor(r, exchanges)),
                   fixed(r.wrong_median / r.right_median, 2)});
  }
  const auto [check, right_engine] = typical_run(runs, exchanges);
  std::string first_ones;
  for (std::size_t k = 0; k < std::min(kShownExchanges, check.size()); ++k)
    first_ones += " " + milliseconds(check[k]) + "/" + milliseconds(right_engine[k]);
  const double typical_cost = sum_from(check, 0) / sum_from(right_engine, 0) - 1;
  std::string out = detail::cat(
      "bench adaptive --wrong-cache: ", s.name, ", ", s.nx, " x ", s.ny, " points, ", s.fields,
      " float64 fields, ", describe(s, bench.roles()), "\n", "ranks ", bench.roles().src_ranks,
      " + ", bench.roles().dst_ranks, ", ", runs.size(), " runs; the full search chose ", right,
      wrong == kRightCache ? std::string(", the cached choice is left as it is")
                           : ", the cached choice is rewritten to " + wrong + " before each run",
      "\n", "MPI: ", mpi_library,
      "\n\n");
  out += table.str();
  out += detail::cat(
      "\n", wrong == kRightCache ? "kept" : "replaced", " within ", exchanges,
      " exchanges in ", replaced, " of ", runs.size(),
      " runs\ncost of the typical run ", percent(typical_cost), " (median floor ",
      percent(summarize(floors).median), "); median of the runs' costs ",
      percent(summarize(costs).median), "; trusting the wrong choice ",
      percent(summarize(trusted_costs).median), "\n",
      "typical run, the first ", kShownExchanges, " exchanges, re-check/right ms:", first_ones,
      "\n", "typical run without its first ", kShownExchanges, " exchanges: re-check ",
      milliseconds(sum_from(check, kShownExchanges)), " ms, right ",
      milliseconds(sum_from(right_engine, kShownExchanges)), " ms, cost ",
      percent(sum_from(check, kShownExchanges) / sum_from(right_engine, kShownExchanges) - 1),
      "\n",
      "decided: exchanges made before the re-check's choice runs; check_ms, right_ms, "
      "trusted_ms: the first ", exchanges,
      " exchanges (sums of the slowest rank's times) of the re-check, the right engine made "
      "fresh, and the wrong choice trusted (check=false), made in rotation exchange by "
      "exchange, the order turning each time;\ncost: check_ms / right_ms - 1; the typical run's: the same with each "
      "exchange's median over the runs; floor: ",
      kFewestWrongExchanges,
      " exchanges of the wrong choice (the fewest a re-check that times it needs; one from "
      "the entry's record needs none) times (x_wrong - 1), / ",
      exchanges, ";\nx_wrong: the wrong choice's median exchange / the right one's (last half "
      "of the exchanges); load: 1-minute load average at the run's start\n");
  return out;
}

std::string wrong_cache_json(const AdaptiveBench& bench, const std::string& right,
                             const std::string& wrong, int exchanges,
                             const std::vector<WrongCacheRunResult>& runs,
                             const std::string& mpi_library) {
  const Scenario& s = bench.scenario();
  std::string out;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const WrongCacheRunResult& r = runs[i];
    JsonLine json;
    json.add("bench", "adaptive_wrong_cache")
        .add("scenario", s.name)
        .add("run", static_cast<int>(i + 1))
        .add("src_ranks", bench.roles().src_ranks)
        .add("dst_ranks", bench.roles().dst_ranks)
        .add("fields", s.fields)
        .add("load_average", r.load_average)
        .add("right", right)
        .add("wrong", wrong)
        .add("exchanges", exchanges)
        .add("chosen", r.chosen)
        .add("decided_after", static_cast<std::int64_t>(r.decided_after))
        .add("check_s", r.check_seconds)
        .add("right_s", r.right_seconds)
        .add("trusted_s", r.wrong_seconds)
        .add("cost", r.cost())
        .add("cost_floor", cost_floor(r, exchanges))
        .add("right_median_s", r.right_median)
        .add("wrong_median_s", r.wrong_median)
        .add("reason", r.reason)
        .add("mpi_library", mpi_library);
    out += json.str() + "\n";
  }
  return out;
}

}  // namespace ferry::bench
