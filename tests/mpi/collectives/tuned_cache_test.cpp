// `ferry tune kernels` round trip: the winners of the kernel and collective
// benchmarks go into the adaptive engine's tuning cache and are read back, while the
// adaptive engine keeps reading (and rewriting) its own entry in the same file.
#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "collectives/tuned_entry.hpp"
#include "collectives_bench.hpp"
#include "ferry/collectives.hpp"
#include "ferry/exchange.hpp"
#include "kernels_bench.hpp"
#include "tuned_choices.hpp"
#include "world.hpp"

namespace {

using ferry_test::World;

constexpr std::int64_t kN = 2001;
constexpr int kMaxExchanges = 200;  // far more than profiling needs

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::size_t occurrences(const std::string& text, const std::string& word) {
  std::size_t n = 0;
  for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) ++n;
  return n;
}

// Rank 0's temporary file name on every rank; removed at the end.
class TunedCache : public testing::Test {
 protected:
  void SetUp() override {
    std::string path(256, '\0');
    if (world_.rank == 0) {
      const char* dir = std::getenv("TMPDIR");
      path = std::string(dir && *dir ? dir : "/tmp") + "/ferry_tuned_cache_XXXXXX";
      const int fd = mkstemp(path.data());
      ASSERT_GE(fd, 0) << "cannot create a temporary file " << path;
      close(fd);
      std::remove(path.c_str());  // the cache starts missing
      path.resize(256, '\0');
    }
    MPI_Bcast(path.data(), 256, MPI_CHAR, 0, MPI_COMM_WORLD);
    path_ = path.c_str();
  }
  void TearDown() override {
    MPI_Barrier(MPI_COMM_WORLD);
    if (world_.rank == 0) std::remove(path_.c_str());
  }

  struct Reports {
    ferry::EngineReport first;  // right after set-up
    ferry::EngineReport last;
  };

  // An adaptive exchange block -> round-robin of one float64 field on the cache,
  // run until it has decided, every received value checked.
  Reports adaptive_exchange() const {
    const ferry::Layout src = ferry::Layout::block(kN, world_.size, world_.rank);
    const ferry::Layout dst = ferry::Layout::round_robin(kN, world_.size, world_.rank);
    ferry::EngineOptions options;
    options.values["cache"] = path_;
    options.values["samples"] = "2";
    options.values["check"] = "false";  // a cached choice is used at once, not re-checked
    ferry::Exchange exchange(MPI_COMM_WORLD, src, dst, {{ferry::Datatype::Float64, 1}},
                             "adaptive", options);
    const ferry::EngineReport first = exchange.engine_report();
    std::vector<double> in(static_cast<std::size_t>(src.local_size()));
    std::vector<double> out(static_cast<std::size_t>(dst.local_size()));
    for (int round = 0; round < kMaxExchanges && !exchange.engine_report().settled; ++round) {
      for (std::size_t i = 0; i < in.size(); ++i)
        in[i] = static_cast<double>(src.ids()[i] * 10 + round % 10);
      exchange.execute(in.data(), out.data());
      for (std::size_t i = 0; i < out.size(); ++i)
        EXPECT_EQ(out[i], static_cast<double>(dst.ids()[i] * 10 + round % 10))
            << "round " << round << " id " << dst.ids()[i];
    }
    const ferry::EngineReport last = exchange.engine_report();
    EXPECT_TRUE(last.settled) << last.text;
    return {first, last};
  }

  // Measures the kernels and collectives at tiny sizes and stores the winners.
  std::vector<ferry::bench::TunedChoice> tune() const {
    const ferry::bench::SweepConfig sweep{2, 32};
    std::vector<ferry::bench::TunedChoice> choices =
        ferry::bench::kernel_winners(ferry::bench::run_kernels(MPI_COMM_WORLD, sweep), world_.size);
    const auto collectives = ferry::bench::collective_winners(
        ferry::bench::run_collectives(MPI_COMM_WORLD, sweep), world_.size);
    choices.insert(choices.end(), collectives.begin(), collectives.end());
    if (world_.rank == 0) {
      const std::vector<std::string> problems = ferry::bench::store_tuned_choices(path_, choices);
      EXPECT_TRUE(problems.empty()) << problems.front();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return choices;
  }

  World world_;
  std::string path_;
};

TEST_F(TunedCache, WinnersAreReadBackBesideTheAdaptiveEntry) {
  const auto profiled = adaptive_exchange();
  EXPECT_FALSE(profiled.first.settled);
  const std::vector<ferry::bench::TunedChoice> choices = tune();
  // 2 sizes x (2 directions + 2 collectives).
  ASSERT_EQ(choices.size(), 8u);

  for (const ferry::bench::TunedChoice& c : choices) {
    SCOPED_TRACE(c.operation + " " + std::to_string(c.bytes));
    // Any size of the class finds the entry: 8..31 -> 8, 32 and above -> 32.
    for (std::int64_t bytes : {c.bytes, c.bytes + 7}) {
      const auto found = ferry::bench::find_tuned_choice(path_, world_.size, c.operation, bytes);
      ASSERT_TRUE(found.has_value());
      EXPECT_EQ(found->bytes, c.bytes);
      EXPECT_EQ(found->choice, c.choice);
      ASSERT_EQ(found->medians.size(), c.medians.size());
      for (std::size_t k = 0; k < c.medians.size(); ++k) {
        EXPECT_EQ(found->medians[k].first, c.medians[k].first);
        EXPECT_NEAR(found->medians[k].second, c.medians[k].second, 1e-4 * c.medians[k].second);
      }
    }
  }
  EXPECT_FALSE(ferry::bench::find_tuned_choice(path_, world_.size, "allreduce", 7).has_value());

  // The library picks the recorded algorithms, the same on every rank.
  for (const ferry::bench::TunedChoice& c : choices) {
    if (c.operation == "alltoallv")
      EXPECT_EQ(ferry::tuned_alltoallv_algorithm(MPI_COMM_WORLD, path_, c.bytes + 3),
                ferry::parse_alltoallv_algorithm(c.choice));
    if (c.operation == "allreduce")
      EXPECT_EQ(ferry::tuned_allreduce_algorithm(MPI_COMM_WORLD, path_, c.bytes + 3),
                ferry::parse_allreduce_algorithm(c.choice));
  }
  // No entry for that size class, or no cache: the fallback.
  EXPECT_EQ(ferry::tuned_allreduce_algorithm(MPI_COMM_WORLD, path_, 4,
                                             ferry::AllreduceAlgorithm::Ring),
            ferry::AllreduceAlgorithm::Ring);
  EXPECT_EQ(
      ferry::tuned_alltoallv_algorithm(MPI_COMM_WORLD, "", 64, ferry::AlltoallvAlgorithm::Bruck),
            ferry::AlltoallvAlgorithm::Bruck);
  EXPECT_EQ(ferry::tuned_alltoallv_algorithm(MPI_COMM_WORLD, path_ + ".missing", 64),
            ferry::AlltoallvAlgorithm::Mpi);
  EXPECT_FALSE(
      ferry::bench::find_tuned_choice(path_, world_.size + 1, "allreduce", 8).has_value());

  // The adaptive engine still finds its own entry in the file, and keeps the others.
  const auto cached = adaptive_exchange();
  EXPECT_TRUE(cached.first.settled) << cached.first.text;
  EXPECT_EQ(cached.first.choice, profiled.last.choice);
  EXPECT_NE(cached.first.text.find("from the tuning cache"), std::string::npos)
      << cached.first.text;
  EXPECT_EQ(cached.first.text.find("malformed"), std::string::npos) << cached.first.text;

  // Tuning again replaces the entries instead of adding to them.
  tune();
  if (world_.rank == 0) {
    const std::string text = read_text(path_);
    EXPECT_EQ(text.rfind("ferry-tuning-cache 2\n", 0), 0u) << text;
    EXPECT_EQ(occurrences(text, " tuned=transfer_uni bytes=8 "), 1u) << text;
    EXPECT_EQ(occurrences(text, " tuned=allreduce bytes=32 "), 1u) << text;
    EXPECT_EQ(occurrences(text, "\nranks="), 9u) << text;  // 8 tuned + the adaptive entry
  }
}

// An entry naming an algorithm this ferry lacks (edited by hand, or from a newer
// ferry) is not trusted: every rank gets the fallback.
TEST_F(TunedCache, UnknownAlgorithmGivesTheFallback) {
  if (world_.rank == 0) {
    std::ofstream(path_) << "ferry-tuning-cache 1\n"
                         << ferry::detail::tuned_signature(world_.size, "allreduce", 128)
                         << " | butterfly | butterfly=1.0e-06\n";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_EQ(ferry::tuned_allreduce_algorithm(MPI_COMM_WORLD, path_, 200,
                                             ferry::AllreduceAlgorithm::RecursiveDoubling),
            ferry::AllreduceAlgorithm::RecursiveDoubling);
}

}  // namespace
