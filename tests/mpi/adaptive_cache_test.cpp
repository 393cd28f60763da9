// The adaptive engine's tuning cache: a decision is written, read back by the next
// exchange of the same plan (which then skips profiling), and bad files are ignored
// with a warning instead of trusted.
#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "engines/adaptive/exchange_timing.hpp"
#include "ferry/exchange.hpp"
#include "field_values.hpp"
#include "test_support.hpp"
#include "util/log.hpp"

using ferry::Datatype;
using ferry::FieldSpec;
using ferry::Layout;

namespace {

constexpr std::int64_t kN = 3001;
constexpr int kMaxExchanges = 200;  // far more than profiling needs at 1-3 ranks

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

// Rank 0's text on every rank.
std::string from_rank0(std::string text) {
  int length = static_cast<int>(text.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  text.resize(static_cast<std::size_t>(length));
  MPI_Bcast(text.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  return text;
}

// True on every rank if `text` is the same on every rank.
bool same_on_all_ranks(const std::string& text) {
  int same = from_rank0(text) == text ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return same == 1;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Collects what this rank writes to stderr while it lives: the warnings are checked,
// and they do not clutter the test output.
class StderrCapture {
 public:
  StderrCapture() : file_(std::tmpfile()) {
    std::fflush(stderr);
    saved_ = dup(2);
    dup2(fileno(file_), 2);
  }
  ~StderrCapture() { release(); }
  StderrCapture(const StderrCapture&) = delete;
  StderrCapture& operator=(const StderrCapture&) = delete;

  // Restores stderr and returns what was written.
  std::string text() {
    release();
    return text_;
  }

 private:
  void release() {
    if (saved_ < 0) return;
    std::fflush(stderr);
    dup2(saved_, 2);
    close(saved_);
    saved_ = -1;
    std::rewind(file_);
    char chunk[4096];
    for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, file_)) > 0;)
      text_.append(chunk, n);
    std::fclose(file_);
  }

  std::FILE* file_;
  int saved_ = -1;
  std::string text_;
};

// Expects `warning` in rank 0's log, unless FERRY_LOG_LEVEL turned warnings off.
void expect_logged(const std::string& log, const std::string& warning) {
  if (world_rank() != 0 || !ferry::detail::log_enabled(ferry::detail::LogLevel::Warn, 0)) return;
  EXPECT_NE(log.find("ferry[rank 0] warning: adaptive: "), std::string::npos) << log;
  EXPECT_NE(log.find(warning), std::string::npos) << log;
}

// A cache file path of this test, created empty by rank 0 and removed at the end.
class AdaptiveCache : public testing::Test {
 protected:
  void SetUp() override {
    std::string path;
    if (world_rank() == 0) {
      const char* dir = std::getenv("TMPDIR");
      path = std::string(dir && *dir ? dir : "/tmp") + "/ferry_adaptive_cache_XXXXXX";
      const int fd = mkstemp(path.data());
      ASSERT_GE(fd, 0) << "cannot create a temporary file " << path;
      close(fd);
    }
    path_ = from_rank0(path);
  }
  void TearDown() override {
    MPI_Barrier(MPI_COMM_WORLD);
    if (world_rank() == 0) std::remove(path_.c_str());
  }

  // Rank 0 replaces the cache file with `text`.
  void write_cache(const std::string& text) {
    if (world_rank() == 0) std::ofstream(path_) << text;
    MPI_Barrier(MPI_COMM_WORLD);
  }

  // The cache's one entry with its choice replaced by `choice` and, with
  // `drop_medians`, without its medians (so that a re-check times every candidate).
  void rewrite_entry(const std::string& choice, bool drop_medians = false) {
    std::string cache;
    if (world_rank() == 0) {
      cache = read_text(path_);
      const auto first_bar = cache.find(" | ", cache.find("\nranks="));
      const auto second_bar = cache.find(" | ", first_bar + 3);
      const auto third_bar = cache.find(" | ", second_bar + 3);
      cache = cache.substr(0, first_bar + 3) + choice +
              (drop_medians ? " | " + cache.substr(third_bar) : cache.substr(second_bar));
    }
    write_cache(cache);
  }

  // Replaces the conditions part of the one entry (after its last " | ").
  void rewrite_conditions(const std::string& conditions) {
    std::string cache;
    if (world_rank() == 0) {
      cache = read_text(path_);
      const auto line_end = cache.find('\n', cache.find("\nranks=") + 1);
      const auto last_bar = cache.rfind(" | ", line_end);
      cache = cache.substr(0, last_bar + 3) + conditions +
              (line_end == std::string::npos ? "" : cache.substr(line_end));
    }
    write_cache(cache);
  }

  // The options with the re-check of a cached choice turned off.
  ferry::EngineOptions unchecked() const {
    ferry::EngineOptions o = options();
    o.values["check"] = "false";
    return o;
  }

  ferry::EngineOptions options(bool retune = false) const {
    ferry::EngineOptions o;
    o.values["cache"] = path_;
    o.values["samples"] = "5";
    o.values["max_samples"] = "5";
    o.values["warmup"] = "1";
    if (retune) o.values["retune"] = "true";
    return o;
  }

  // Makes an adaptive exchange block -> round-robin, runs exchanges until it has
  // decided (at least `at_least`), checking every received value; returns the
  // report of the exchange right after construction and the final one.
  struct Reports {
    ferry::EngineReport first;
    ferry::EngineReport last;
  };
  Reports run(const ferry::EngineOptions& opts, int at_least = 1, int delay_us_per_rank = 0) {
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const Layout src = Layout::block(kN, size, rank);
    const Layout dst = Layout::round_robin(kN, size, (rank + 1) % size);
    const std::vector<FieldSpec> fields = {{Datatype::Float64, 2}, {Datatype::Int32, 1}};
    ferry::Exchange exchange(MPI_COMM_WORLD, src, dst, fields, "adaptive", opts);
    Reports reports;
    reports.first = exchange.engine_report();

    std::vector<ferry_test::FieldBuffer> in, out;
    std::vector<const void*> in_ptrs;
    std::vector<void*> out_ptrs;
    for (const FieldSpec& spec : fields) {
      in.emplace_back(spec, src.local_size());
      out.emplace_back(spec, dst.local_size());
      in_ptrs.push_back(in.back().data());
      out_ptrs.push_back(out.back().data());
    }
    for (int round = 0; round < kMaxExchanges; ++round) {
      if (round >= at_least && exchange.engine_report().settled) break;
      for (std::size_t f = 0; f < fields.size(); ++f)
        for (std::int64_t i = 0; i < src.local_size(); ++i)
          for (int c = 0; c < fields[f].components; ++c)
            in[f].set(i, c, ferry_test::expected_value(src.ids()[static_cast<std::size_t>(i)],
                                                       static_cast<int>(f), c, round));
      // Ranks reaching the exchange at very different times (rank r sleeps r delays).
      if (delay_us_per_rank > 0) usleep(static_cast<useconds_t>(rank * delay_us_per_rank));
      exchange.execute(in_ptrs.data(), out_ptrs.data());
      for (std::size_t f = 0; f < fields.size(); ++f)
        for (std::int64_t i = 0; i < dst.local_size(); ++i)
          for (int c = 0; c < fields[f].components; ++c) {
            const std::int64_t gid = dst.ids()[static_cast<std::size_t>(i)];
            const std::int64_t want =
                ferry_test::expected_value(gid, static_cast<int>(f), c, round);
            if (out[f].get(i, c) != want) {
              ADD_FAILURE() << "exchange " << round << " with " << exchange.engine_report().choice
                            << ": field " << f << " id " << gid << " got " << out[f].get(i, c)
                            << ", expected " << want;
              return reports;
            }
          }
    }
    reports.last = exchange.engine_report();
    EXPECT_TRUE(reports.last.settled) << reports.last.text;
    return reports;
  }

  std::string path_;
};

TEST_F(AdaptiveCache, DecisionIsWrittenAndReadBack) {
  const Reports profiled = run(options());
  EXPECT_FALSE(profiled.first.settled);
  EXPECT_NE(profiled.last.text.find(" rounds ("), std::string::npos) << profiled.last.text;
  EXPECT_TRUE(same_on_all_ranks(profiled.last.choice)) << profiled.last.choice;
  if (world_rank() == 0) {
    const std::string cache = read_text(path_);
    EXPECT_EQ(cache.rfind("ferry-tuning-cache 2\n", 0), 0u) << cache;
    EXPECT_NE(cache.find(" | " + profiled.last.choice + " | "), std::string::npos) << cache;
    // When and under what load the entry was measured.
    EXPECT_NE(cache.find(" | when="), std::string::npos) << cache;
    EXPECT_NE(cache.find(" load="), std::string::npos) << cache;
  }

  // Same plan, check=false: the cached choice is used from the first exchange,
  // without profiling.
  const Reports cached = run(unchecked(), 5);
  EXPECT_TRUE(cached.first.settled) << cached.first.text;
  EXPECT_EQ(cached.first.choice, profiled.last.choice);
  EXPECT_NE(cached.first.text.find("from the tuning cache"), std::string::npos)
      << cached.first.text;

  // retune profiles again and appends its entry, which supersedes the first; the next
  // set-up rewrites the file with the last entry alone.
  auto entries = [this] {
    const std::string cache = read_text(path_);
    std::size_t n = 0;
    for (std::size_t at = cache.find("\nranks="); at != std::string::npos;
         at = cache.find("\nranks=", at + 1))
      ++n;
    return n;
  };
  const Reports again = run(options(true));
  EXPECT_FALSE(again.first.settled);
  if (world_rank() == 0) EXPECT_EQ(entries(), 2u) << read_text(path_);
  const Reports after = run(unchecked(), 1);
  EXPECT_EQ(after.first.choice, again.last.choice) << after.first.text;
  if (world_rank() == 0) EXPECT_EQ(entries(), 1u) << read_text(path_);
}

TEST_F(AdaptiveCache, FileThatIsNotACacheIsIgnoredAndKept) {
  const std::string text = "my simulation's namelist, given as the cache by mistake\n";
  write_cache(text);
  StderrCapture log;
  const Reports reports = run(options());
  expect_logged(log.text(), "is not a ferry tuning cache");
  EXPECT_FALSE(reports.first.settled);
  EXPECT_NE(reports.first.text.find("is not a ferry tuning cache"), std::string::npos)
      << reports.first.text;
  EXPECT_TRUE(same_on_all_ranks(reports.last.choice));
  if (world_rank() == 0) {
    EXPECT_EQ(read_text(path_), text);
    EXPECT_NE(reports.last.text.find("not writing the tuning cache"), std::string::npos)
        << reports.last.text;
  }
}

TEST_F(AdaptiveCache, OtherFormatVersionIsIgnoredAndReplaced) {
  write_cache("ferry-tuning-cache 999\nranks=1 whatever | p2p | p2p=1e-3\n");
  StderrCapture log;
  const Reports reports = run(options());
  expect_logged(log.text(), "has another format");
  EXPECT_FALSE(reports.first.settled);
  EXPECT_NE(reports.first.text.find("has another format"), std::string::npos)
      << reports.first.text;
  if (world_rank() == 0) EXPECT_EQ(read_text(path_).rfind("ferry-tuning-cache 2\n", 0), 0u);
}

TEST_F(AdaptiveCache, MalformedLinesAndUnknownEnginesAreIgnored) {
  run(options());  // writes the entry of this plan
  std::string cache;
  if (world_rank() == 0) {
    cache = read_text(path_);
    const auto line = cache.find("\nranks=");
    const auto first_bar = cache.find(" | ", line);
    const auto second_bar = cache.find(" | ", first_bar + 3);
    // The entry now names an engine no build has; a garbled line follows it.
    cache = cache.substr(0, first_bar) + " | warp" + cache.substr(second_bar) +
            "ranks=2 | this line | has | too many parts\n";
  }
  write_cache(cache);
  StderrCapture log;
  const Reports reports = run(options());
  const std::string logged = log.text();
  expect_logged(logged, "names engine \"warp\"");
  expect_logged(logged, "is malformed");
  EXPECT_FALSE(reports.first.settled) << reports.first.text;
  EXPECT_NE(reports.first.text.find("names engine \"warp\""), std::string::npos)
      << reports.first.text;
  EXPECT_NE(reports.first.text.find("is malformed"), std::string::npos) << reports.first.text;
  EXPECT_TRUE(same_on_all_ranks(reports.last.choice));
}

// A cache filled for many plans: rank 0 sends every rank the entries that may be this
// plan's (here more than fit in the signature's reduction, so the rest is broadcast),
// and each rank finds this plan's among them.
TEST_F(AdaptiveCache, EntryIsFoundAmongManyForOtherPlans) {
  const Reports profiled = run(options());
  std::string cache;
  if (world_rank() == 0) {
    cache = read_text(path_);
    const auto start = cache.find("\nranks=") + 1;
    const std::string entry = cache.substr(start, cache.find('\n', start) - start);
    const std::string other_choice = profiled.last.choice == "p2p" ? "alltoallv" : "p2p";
    // Entries of plans that differ only in what the signature's reduction finds (their
    // message counts): they pass rank 0's filter, and must not be taken for this one.
    const auto messages = entry.find(" messages=") + std::strlen(" messages=");
    const auto digits = entry.find(' ', messages);
    std::string lines = cache.substr(0, start);
    for (int k = 1; k <= 12; ++k) {
      lines += entry.substr(0, messages) + std::to_string(1000 + k) +
               entry.substr(digits, entry.find(" | ") - digits) + " | " + other_choice +
               " | p2p=1.0000e-03 alltoallv=1.0000e-03 rma=1.0000e-03\n";
      if (k == 6) lines += entry + "\n";
    }
    // One of another rank count: filtered out on rank 0.
    cache = lines + "ranks=99999" + entry.substr(entry.find(' ')) + "\n";
    ASSERT_GT(cache.size(), 2048u);
  }
  write_cache(cache);
  const Reports cached = run(unchecked(), 3);
  EXPECT_TRUE(cached.first.settled) << cached.first.text;
  EXPECT_EQ(cached.first.choice, profiled.last.choice) << cached.first.text;
  EXPECT_NE(cached.first.text.find("from the tuning cache"), std::string::npos)
      << cached.first.text;
}

// Profiling completes and every rank takes the same decision at the same exchange when
// the ranks arrive at each exchange milliseconds apart (the reduction of the samples
// must not need a rank that is still computing), and the next run reads it back.
TEST_F(AdaptiveCache, RanksArrivingAtDifferentTimesDecideTogether) {
  ferry::EngineOptions opts = options();
  const Reports profiled = run(opts, 1, 3000);
  EXPECT_TRUE(same_on_all_ranks(profiled.last.choice)) << profiled.last.choice;
  EXPECT_TRUE(same_on_all_ranks(profiled.last.text.substr(0, profiled.last.text.find('\n'))))
      << profiled.last.text;
  // The re-check of the cached choice, too, ends at the same exchange everywhere
  // (without medians in the entry, it times every candidate).
  rewrite_entry(profiled.last.choice, true);
  const Reports cached = run(opts, 3, 3000);
  EXPECT_FALSE(cached.first.settled) << cached.first.text;
  EXPECT_EQ(cached.first.choice, profiled.last.choice);
  EXPECT_TRUE(same_on_all_ranks(cached.last.choice)) << cached.last.choice;
  EXPECT_NE(cached.last.text.find("cached choice"), std::string::npos) << cached.last.text;
}

// Times injected through the test seam, in ms: alltoallv 1, others 2 unless `ms`
// says otherwise (times a factor of the rank, so ranks differ); `slow` makes
// `slow_label` take 5 ms. `exchanges` counts the exchanges made with each label;
// those `waited` lists (by that count, from 1) waited for a later time slice: 10
// times as long.
struct InjectedTimes {
  std::map<std::string, double> ms;
  std::string slow_label;
  bool slow = false;
  std::map<std::string, int> exchanges;
  std::map<std::string, std::set<int>> waited;
  double time(const std::string& label) {
    const int exchange = ++exchanges[label];
    if (slow && label == slow_label) return 5e-3;
    const auto given = ms.find(label);
    const double base = given != ms.end() ? given->second : label == "alltoallv" ? 1 : 2;
    const double wait = waited[label].count(exchange) ? 10 : 1;
    return wait * base * 1e-3 * (1 + 0.1 * world_rank());
  }
};

class InjectedTiming : public AdaptiveCache {
 protected:
  void SetUp() override {
    AdaptiveCache::SetUp();
    ferry::detail::set_exchange_timing(
        [this](const std::string& label, double) { return times_.time(label); });
  }
  void TearDown() override {
    ferry::detail::set_exchange_timing({});
    AdaptiveCache::TearDown();
  }
  // Rank 0: the cache's entry has `choice` as its choice, with its median at `ms`
  // (times of the slowest rank: InjectedTimes makes each rank 10 % slower).
  void expect_recorded_choice(const std::string& choice, double ms) const {
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char median[64];
    std::snprintf(median, sizeof median, " %s=%.4e ", choice.c_str(),
                  ms * 1e-3 * (1 + 0.1 * (size - 1)));
    const std::string cache = read_text(path_);
    EXPECT_NE(cache.find(" | " + choice + " | "), std::string::npos) << cache;
    EXPECT_NE(cache.find(median), std::string::npos) << median << " in " << cache;
  }
  ferry::EngineOptions two_candidates() const {
    ferry::EngineOptions o = options();
    o.values["candidates"] = "p2p,alltoallv";
    o.values["max_samples"] = "20";
    return o;
  }
  InjectedTimes times_;
};

TEST_F(InjectedTiming, EveryRankChoosesTheClearlyFasterCandidate) {
  const Reports r = run(two_candidates());
  EXPECT_EQ(r.last.choice, "alltoallv") << r.last.text;
  EXPECT_TRUE(same_on_all_ranks(r.last.text)) << r.last.text;
  EXPECT_NE(r.last.text.find("clearly faster than p2p"), std::string::npos) << r.last.text;
  // 1 warm-up and 5 timed rounds of 2 candidates separate them.
  EXPECT_NE(r.last.text.find("after 6 rounds (12 exchanges)"), std::string::npos) << r.last.text;
}

// rma 1 ms, p2p 1.2 ms, neighbor 1.5 ms, alltoallv 3 ms; a full search chooses rma,
// and `times_.exchanges` then counts the exchanges of a run with the entry's choice
// rewritten to `cached`.
class WrongCachedChoice : public InjectedTiming {
 protected:
  void SetUp() override {
    InjectedTiming::SetUp();
    times_.ms = {{"rma", 1}, {"p2p", 1.2}, {"alltoallv", 3}, {"neighbor", 1.5}};
    ASSERT_EQ(run(opts()).last.choice, "rma");
  }
  ferry::EngineOptions opts() const {
    ferry::EngineOptions o = options();
    o.values["candidates"] = "p2p,alltoallv,neighbor,rma";
    o.values["max_samples"] = "20";
    return o;
  }
  Reports run_with_cached(const std::string& cached) {
    rewrite_entry(cached);
    times_.exchanges.clear();
    const Reports r = run(opts());
    EXPECT_TRUE(same_on_all_ranks(r.last.text)) << r.last.text;
    return r;
  }
};

TEST_F(WrongCachedChoice, IsReplacedFromTheRecordWithoutAnExchangeOfIt) {
  // The entry's choice alltoallv was cached at x3 its lowest median (rma's), which no
  // search writes: rma is timed alone (1 warm-up and 5 used exchanges), matches its
  // record, and is taken; alltoallv never runs.
  const Reports r = run_with_cached("alltoallv");
  EXPECT_EQ(r.first.choice, "rma") << r.first.text;
  EXPECT_NE(r.first.text.find("re-checking the cached choice alltoallv: timing rma, its "
                              "entry's lowest median, alone, 0 of 6"),
            std::string::npos)
      << r.first.text;
  EXPECT_EQ(r.last.choice, "rma") << r.last.text;
  EXPECT_NE(r.last.text.find("replaced from the entry's record in 6 exchanges: the cached "
                             "choice was cached at x3.00 the lowest median, rma's"),
            std::string::npos)
      << r.last.text;
  EXPECT_NE(r.last.text.find("alltoallv not timed"), std::string::npos) << r.last.text;
  // The 7th exchange, whose begin() completes the probe's reduction, runs with rma.
  EXPECT_EQ(times_.exchanges["rma"], 6 + 1);
  EXPECT_EQ(times_.exchanges.count("alltoallv"), 0u);
  EXPECT_EQ(times_.exchanges.count("p2p"), 0u);
  EXPECT_EQ(times_.exchanges.count("neighbor"), 0u);
  if (world_rank() == 0) {
    const std::string cache = read_text(path_);
    EXPECT_NE(cache.find(" | rma | "), std::string::npos) << cache;
    EXPECT_NE(cache.find(" neighbor="), std::string::npos) << cache;  // the medians kept
  }
  // The next run finds a consistent entry: rma is kept at once.
  times_.exchanges.clear();
  const Reports next = run(opts());
  EXPECT_EQ(next.last.choice, "rma") << next.last.text;
  EXPECT_EQ(times_.exchanges.count("alltoallv"), 0u);
}

TEST_F(WrongCachedChoice, IsReplacedFromTheRecordThoughSomeProbeExchangesWaited) {
  // Three of rma's five used exchanges in the probe wait for a later time slice (x10):
  // their median is x10 rma's record, but the low end of its interval (the fastest of
  // five) matches it, so rma is still taken without an exchange of alltoallv.
  times_.waited["rma"] = {3, 4, 6};
  const Reports r = run_with_cached("alltoallv");
  EXPECT_EQ(r.last.choice, "rma") << r.last.text;
  for (const char* part : {"replaced from the entry's record in 6 exchanges",
                           "x10.00 its cached", "(the low end of its interval x1.00)"})
    EXPECT_NE(r.last.text.find(part), std::string::npos) << part << " in " << r.last.text;
  EXPECT_EQ(times_.exchanges.count("alltoallv"), 0u);
  EXPECT_EQ(times_.exchanges.count("p2p"), 0u);
}

TEST_F(WrongCachedChoice, IsChallengedWhenTheRecordedBestNoLongerMatchesItsRecord) {
  // rma now 2.5 ms (x2.5 its record), p2p 1.6 ms: the record is in doubt, so the
  // re-check times the candidates cached close to the lowest median (rma and p2p, not
  // neighbor) and the cached choice, rma the reference. alltoallv drops out clearly
  // slower after 2 used rounds, and p2p, clearly faster than rma, is chosen.
  times_.ms["rma"] = 2.5;
  times_.ms["p2p"] = 1.6;
  const Reports r = run_with_cached("alltoallv");
  EXPECT_EQ(r.last.choice, "p2p") << r.last.text;
  EXPECT_NE(r.last.text.find("rma timed alone: median"), std::string::npos) << r.last.text;
  EXPECT_NE(r.last.text.find("not within x1.25: challengers timed, rma the reference"),
            std::string::npos)
      << r.last.text;
  EXPECT_NE(r.last.text.find("clearly faster than rma"), std::string::npos) << r.last.text;
  EXPECT_EQ(times_.exchanges["alltoallv"], 1 + 2);
  EXPECT_EQ(times_.exchanges.count("neighbor"), 0u);
  if (world_rank() == 0) {
    // p2p is recorded at the cached alltoallv's median times p2p's paired ratio to it
    // in the re-check (3 x 1.6 / 3), but at most the entry's lowest median, rma's 1 ms:
    // the next run keeps p2p.
    expect_recorded_choice("p2p", 1);
  }
}

TEST_F(WrongCachedChoice, IsDroppedOnceItsFirstRoundsConfirmTheRecord) {
  // rma now 1.4 ms (x1.4 its record: the challenge runs, rma the reference),
  // alltoallv 1.9 ms and p2p 2 ms: both under 1.5 times rma, so the drop ratio does
  // not drop them. Recorded slower than rma, each drops out once clearly slower in
  // its first 3 used rounds: 1 warm-up and 3 used exchanges, where the interval of
  // the ratio needed 5 used rounds.
  times_.ms["rma"] = 1.4;
  times_.ms["alltoallv"] = 1.9;
  times_.ms["p2p"] = 2;
  const Reports r = run_with_cached("alltoallv");
  EXPECT_EQ(r.last.choice, "rma") << r.last.text;
  EXPECT_NE(r.last.text.find("every other candidate was slower than rma in its first 3 rounds, "
                             "as recorded"),
            std::string::npos)
      << r.last.text;
  EXPECT_EQ(times_.exchanges["alltoallv"], 1 + 3);
  EXPECT_EQ(times_.exchanges["p2p"], 1 + 3);
  if (world_rank() == 0) expect_recorded_choice("rma", 1);
}

TEST_F(WrongCachedChoice, MustBeClearlyFasterThanTheRecordedBestToStay) {
  // rma and alltoallv both 2.5 ms now (rma x2.5 its record), p2p 4 ms: in the
  // challenge, rma the reference, p2p drops out clearly slower and alltoallv, not
  // over 5 % faster than rma after 5 used rounds, drops out too: rma replaces it.
  times_.ms["rma"] = 2.5;
  times_.ms["alltoallv"] = 2.5;
  times_.ms["p2p"] = 4;
  const Reports r = run_with_cached("alltoallv");
  EXPECT_EQ(r.last.choice, "rma") << r.last.text;
  EXPECT_NE(r.last.text.find("no other candidate is over 5% faster than rma"), std::string::npos)
      << r.last.text;
  EXPECT_EQ(times_.exchanges["alltoallv"], 1 + 5);
  EXPECT_EQ(times_.exchanges["p2p"], 1 + 2);
  if (world_rank() == 0) expect_recorded_choice("rma", 1);
}

TEST_F(WrongCachedChoice, CachedP2pIsChallengedNotReplacedFromTheRecord) {
  // A search keeps p2p against a faster leader that is not clearly faster, so p2p
  // cached over its entry's lowest median is consistent: the re-check times it.
  const Reports r = run_with_cached("p2p");
  EXPECT_EQ(r.first.choice, "p2p") << r.first.text;  // the incumbent runs first
  EXPECT_EQ(r.last.choice, "rma") << r.last.text;
  EXPECT_NE(r.last.text.find("re-check of the cached choice p2p"), std::string::npos)
      << r.last.text;
  EXPECT_NE(r.last.text.find("clearly faster than p2p"), std::string::npos) << r.last.text;
  EXPECT_NE(r.last.text.find("not timed, cached over x1.25 the lowest median: alltoallv, neighbor"),
            std::string::npos)
      << r.last.text;
  // 1 warm-up and 5 used rounds of p2p and rma; the 13th runs with the choice.
  EXPECT_NE(r.last.text.find("(12 exchanges)"), std::string::npos) << r.last.text;
  EXPECT_EQ(times_.exchanges["p2p"], 6);
  EXPECT_EQ(times_.exchanges["rma"], 6 + 1);
}

// alltoallv 1 ms, cached so, and p2p (1.2 ms) cached close to it: the entry's choice
// is first timed alone, warmup + samples exchanges.
class ProbedCachedChoice : public InjectedTiming {
 protected:
  void SetUp() override {
    InjectedTiming::SetUp();
    times_.ms = {{"p2p", 1.2}, {"rma", 2}};
    ASSERT_EQ(run(opts()).last.choice, "alltoallv");
    times_.exchanges.clear();
  }
  ferry::EngineOptions opts() const {
    ferry::EngineOptions o = two_candidates();
    o.values["candidates"] = "p2p,alltoallv,rma";
    return o;
  }
  // The entry's conditions rewritten, then all faster than cached (alltoallv 0.5 ms,
  // p2p 0.3 ms, the faster one now).
  Reports run_faster_than_record(const std::string& conditions) {
    rewrite_conditions(conditions);
    times_.ms["alltoallv"] = 0.5;
    times_.ms["p2p"] = 0.3;
    const Reports r = run(opts());
    EXPECT_TRUE(same_on_all_ranks(r.last.text)) << r.last.text;
    return r;
  }
};

TEST_F(ProbedCachedChoice, ARightCachedChoiceMatchingItsRecordIsKeptWithoutChallengers) {
  times_.ms["alltoallv"] = 1.15;  // within x1.25 of its cached median
  const Reports r = run(opts());
  EXPECT_FALSE(r.first.settled);
  EXPECT_NE(r.first.text.find("re-checking the cached choice alltoallv alone, 0 of 6"),
            std::string::npos)
      << r.first.text;
  EXPECT_EQ(r.last.choice, "alltoallv") << r.last.text;
  EXPECT_TRUE(same_on_all_ranks(r.last.text)) << r.last.text;
  EXPECT_NE(r.last.text.find("re-checked in 6 exchanges: alltoallv timed alone"),
            std::string::npos)
      << r.last.text;
  EXPECT_NE(r.last.text.find("no challenger timed"), std::string::npos) << r.last.text;
  // 1 warm-up and 5 used exchanges of the cached choice, then its own: no challenger.
  EXPECT_EQ(times_.exchanges["alltoallv"], 6 + 1);
  EXPECT_EQ(times_.exchanges.count("p2p"), 0u);
  EXPECT_EQ(times_.exchanges.count("rma"), 0u);
}

TEST_F(ProbedCachedChoice, ARightCachedChoiceIsKeptThoughSomeProbeExchangesWaited) {
  // Three of the five used exchanges wait for a later time slice (x10): slower than
  // its record only by its median, not by its fastest, so it is kept unchallenged.
  times_.waited["alltoallv"] = {2, 5, 6};
  const Reports r = run(opts());
  EXPECT_EQ(r.last.choice, "alltoallv") << r.last.text;
  EXPECT_NE(r.last.text.find("no challenger timed"), std::string::npos) << r.last.text;
  EXPECT_EQ(times_.exchanges["alltoallv"], 6 + 1);
  EXPECT_EQ(times_.exchanges.count("p2p"), 0u);
}

TEST_F(ProbedCachedChoice, ACachedChoiceSlowerThanItsRecordIsChallenged) {
  // alltoallv now 1.4 ms (x1.4 its cached median): p2p is timed, and drops out once
  // clearly slower (2.2 ms, over x1.5) in two used rounds.
  times_.ms["alltoallv"] = 1.4;
  times_.ms["p2p"] = 2.2;
  const std::string before = from_rank0(world_rank() == 0 ? read_text(path_) : "");
  const Reports r = run(opts());
  // Kept: the entry is not written again.
  if (world_rank() == 0) EXPECT_EQ(read_text(path_), before);
  EXPECT_NE(r.last.text.find("entry left as it is"), std::string::npos) << r.last.text;
  EXPECT_EQ(r.last.choice, "alltoallv") << r.last.text;
  EXPECT_NE(r.last.text.find("not within x1.25: challengers timed"), std::string::npos)
      << r.last.text;
  EXPECT_NE(r.last.text.find("every other candidate was clearly slower"), std::string::npos)
      << r.last.text;
  // The probe's 6, then 1 warm-up and 2 used rounds of 2 candidates.
  EXPECT_EQ(times_.exchanges["p2p"], 3);
  EXPECT_EQ(times_.exchanges["alltoallv"], 6 + 3 + 1);
  EXPECT_EQ(times_.exchanges.count("rma"), 0u);
}

TEST_F(ProbedCachedChoice, ACachedChoiceFasterThanItsRecordUnderAGoneLoadIsReplaced) {
  // The entry was measured under a load this run does not have (1000 per core; all
  // faster now, and p2p the faster one): its comparison may not hold, so p2p is timed
  // and wins.
  const Reports r = run_faster_than_record("when=2025-06-01T12:00:00Z load=1000.00 cores=1");
  EXPECT_EQ(r.last.choice, "p2p") << r.last.text;
  EXPECT_NE(r.last.text.find("and measured under a load gone since: challengers timed"),
            std::string::npos)
      << r.last.text;
  EXPECT_NE(r.last.text.find("clearly faster than alltoallv"), std::string::npos) << r.last.text;
  // The probe's 6, then 1 warm-up and 5 used rounds of 2 candidates: 18 exchanges.
  EXPECT_EQ(times_.exchanges["alltoallv"], 6 + 6);
  EXPECT_EQ(times_.exchanges["p2p"], 6 + 1);
  if (world_rank() == 0) {
    // p2p is recorded at the cached alltoallv's 1 ms times its paired ratio to it in
    // the re-check (0.3 / 0.5), under its own cached 1.2 ms: the entry's choice has
    // its lowest median.
    expect_recorded_choice("p2p", 0.6);
  }
}

TEST_F(ProbedCachedChoice, ACachedChoiceFasterThanItsRecordWithoutAGoneLoadIsKept) {
  // The entry was measured on an idle machine (load 0): a faster cached choice means a
  // quicker machine now, not a comparison made under load, so no challenger is timed.
  const Reports r = run_faster_than_record("when=2025-06-01T12:00:00Z load=0.00 cores=2");
  EXPECT_EQ(r.last.choice, "alltoallv") << r.last.text;
  EXPECT_NE(r.last.text.find("(faster, and the entry was not measured under a load gone since"),
            std::string::npos)
      << r.last.text;
  EXPECT_EQ(times_.exchanges["alltoallv"], 6 + 1);
  EXPECT_EQ(times_.exchanges.count("p2p"), 0u);
}

TEST_F(ProbedCachedChoice, AChallengerAsFastAsTheCachedChoiceStopsAfterFiveUsedRounds) {
  // Both 1.5 ms now: p2p is timed (alltoallv is slower than its record) but is not
  // over 5 % faster after the 5 used rounds of a first interval, instead of running
  // to check_samples (8).
  times_.ms["alltoallv"] = 1.5;
  times_.ms["p2p"] = 1.5;
  const Reports r = run(opts());
  EXPECT_EQ(r.last.choice, "alltoallv") << r.last.text;
  EXPECT_NE(r.last.text.find("no other candidate is over 5% faster than alltoallv"),
            std::string::npos)
      << r.last.text;
  EXPECT_EQ(times_.exchanges["p2p"], 6);
  EXPECT_EQ(times_.exchanges["alltoallv"], 6 + 6 + 1);
}

TEST_F(InjectedTiming, ARightCachedChoiceWithoutCloseChallengersIsKeptAtOnce) {
  run(two_candidates());  // alltoallv 1 ms, p2p 2 ms: not close
  times_.exchanges.clear();
  const Reports r = run(two_candidates());
  EXPECT_TRUE(r.first.settled) << r.first.text;
  EXPECT_EQ(r.last.choice, "alltoallv") << r.last.text;
  EXPECT_NE(r.last.text.find("no other candidate's cached median is within x1.25 of the lowest"),
            std::string::npos)
      << r.last.text;
  EXPECT_EQ(times_.exchanges.count("p2p"), 0u);
}

// After the decision the chosen engine turns slow: three windows off the reference
// start a new search on every rank at the same exchange, and its choice replaces
// the cache entry.
TEST_F(InjectedTiming, ASustainedDriftStartsANewSearch) {
  ferry::EngineOptions opts = two_candidates();
  opts.values["watch"] = "4";
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const Layout src = Layout::block(kN, size, rank);
  const Layout dst = Layout::round_robin(kN, size, (rank + 1) % size);
  ferry::Exchange exchange(MPI_COMM_WORLD, src, dst, {{Datatype::Float64, 1}}, "auto", opts);
  std::vector<double> in(static_cast<std::size_t>(src.local_size()), 1.0);
  std::vector<double> out(static_cast<std::size_t>(dst.local_size()));
  int k = 0;
  for (; k < kMaxExchanges && !exchange.engine_report().settled; ++k)
    exchange.execute(in.data(), out.data());
  ASSERT_EQ(exchange.engine_report().choice, "alltoallv") << exchange.engine_report().text;
  // One window sets the reference; two more off it are not yet sustained.
  times_.slow_label = "alltoallv";
  for (int i = 0; i < 4; ++i) exchange.execute(in.data(), out.data());
  times_.slow = true;
  for (int i = 0; i < 8; ++i) exchange.execute(in.data(), out.data());
  EXPECT_TRUE(exchange.engine_report().settled) << exchange.engine_report().text;
  EXPECT_EQ(exchange.engine_report().choice, "alltoallv");
  // The third window off it: the next begin() starts the search.
  for (int i = 0; i < 5; ++i) exchange.execute(in.data(), out.data());
  EXPECT_FALSE(exchange.engine_report().settled) << exchange.engine_report().text;
  for (k = 0; k < kMaxExchanges && !exchange.engine_report().settled; ++k)
    exchange.execute(in.data(), out.data());
  const ferry::EngineReport report = exchange.engine_report();
  EXPECT_EQ(report.choice, "p2p") << report.text;
  EXPECT_TRUE(same_on_all_ranks(report.text)) << report.text;
  EXPECT_NE(report.text.find("drifted from"), std::string::npos) << report.text;
  if (world_rank() == 0) EXPECT_NE(read_text(path_).find(" | p2p | "), std::string::npos);
}

// An option wrong on one rank only: every rank raises that rank's error.
TEST(AdaptiveOptions, BadOptionOnOneRankFailsOnEveryRank) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ferry::EngineOptions opts;
  if (rank == size - 1) opts.values["warmup"] = "-1";
  const Layout layout = Layout::block(kN, size, rank);
  ferry_test::expect_error(
      [&] {
        ferry::Exchange(MPI_COMM_WORLD, layout, layout, {{Datatype::Float64, 1}}, "auto", opts);
      },
      ferry::Errc::Arg, "adaptive: option warmup=\"-1\" must be an integer");
}

TEST(AdaptiveOptions, BadSamplesIsAnArgumentError) {
  ferry::EngineOptions opts;
  opts.values["samples"] = "three";
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const Layout layout = Layout::block(kN, size, rank);
  ferry_test::expect_error(
      [&] {
        ferry::Exchange(MPI_COMM_WORLD, layout, layout, {{Datatype::Float64, 1}}, "auto", opts);
      },
      ferry::Errc::Arg, "adaptive: option samples=\"three\" must be an integer");
}

}  // namespace
