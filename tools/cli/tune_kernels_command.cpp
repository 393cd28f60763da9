// `ferry tune kernels`: measures the message protocols and the collective
// algorithms, prints the winner per size class and records them in the tuning cache.
#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>

#include "collectives_bench.hpp"
#include "command.hpp"
#include "ferry/comm.hpp"
#include "kernels_bench.hpp"
#include "text_table.hpp"
#include "tuned_choices.hpp"
#include "tuning_options.hpp"
#include "util/agree.hpp"
#include "util/mpi_library.hpp"

namespace ferry::cli {

namespace {

// The seed's Table 1, per operation and size: the winner, its time, its gain over the
// baseline (blocking send/recv or the MPI collective) and the runner-up's loss.
std::string winners_table(const std::vector<bench::TunedChoice>& choices) {
  bench::TextTable table(
      {"operation", "bytes", "winner", "median_us", "x_baseline", "runner_up", "x_winner"});
  for (const bench::TunedChoice& c : choices) {
    std::vector<std::pair<std::string, double>> ranked = c.medians;
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.second < b.second; });
    const double best = ranked.front().second;
    const double baseline = c.medians.front().second;
    const bool has_runner_up = ranked.size() > 1 && best > 0;
    table.add_row({c.operation, std::to_string(c.bytes), c.choice, bench::fixed(best * 1e6, 2),
                   bench::fixed(baseline > 0 ? best / baseline : 0, 2),
                   has_runner_up ? ranked[1].first : "-",
                   has_runner_up ? bench::fixed(ranked[1].second / best, 2) : "-"});
  }
  return table.str();
}

struct TuneKernelsOptions {
  std::string cache;
  bench::SweepConfig config;
};

int run(const TuneKernelsOptions& o, const Context& context) {
  const std::string cache = cache_path(o.cache);
  const bench::SweepConfig& config = o.config;
  if (context.size < 2)
    throw UsageError("the protocols need at least 2 ranks; got 1. Run it as mpiexec -n 2 "
                     "(or the rank count of your runs) ferry tune kernels");
  std::vector<bench::TunedChoice> choices = arg_errors_as_usage([&] {
    return bench::kernel_winners(bench::run_kernels(context.comm, config), context.size);
  });
  const std::vector<bench::TunedChoice> collectives = bench::collective_winners(
      bench::run_collectives(context.comm, config), context.size);
  choices.insert(choices.end(), collectives.begin(), collectives.end());

  // Rank 0 writes; every rank fails alike if it could not.
  std::optional<Error> failure;
  if (context.rank == 0) {
    const std::vector<std::string> problems = bench::store_tuned_choices(cache, choices);
    if (!problems.empty()) failure = Error(Errc::Io, problems.front(), 0);
  }
  detail::agree(Comm::view(context.comm), failure);
  if (context.rank != 0) return 0;
  std::cout << "winners per size class on " << context.size << " ranks, repeat "
            << config.repeat << "\nMPI: " << detail::mpi_library_version() << "\n\n"
            << winners_table(choices)
            << "\nbytes: the size class's smallest size (message; alltoallv block; allreduce\n"
               "vector). x_baseline = winner / blocking send/recv or the MPI collective;\n"
               "x_winner = runner-up / winner.\n"
            << "recorded " << choices.size() << " choices in the tuning cache " << cache << "\n"
            << std::flush;
  return 0;
}

Action declare_tune_kernels(CLI::App& app) {
  auto o = std::make_shared<TuneKernelsOptions>();
  app.add_option("--cache", o->cache);
  add_sweep_options(app, o->config);
  return [o](const Context& context) { return run(*o, context); };
}

}  // namespace

Command tune_kernels_command() {
  return {"tune kernels",
          "record the fastest send protocols and collective algorithms in the tuning cache",
          std::string("usage: mpiexec -n P ferry tune kernels [--cache FILE] [--repeat R] "
                      "[--max-bytes B]\n"
                      "\n"
                      "Runs `ferry bench kernels` (ranks 0 and 1; P >= 2) and `ferry bench\n"
                      "collectives` (all P ranks), prints the fastest protocol per direction\n"
                      "and message size and the fastest algorithm per collective and size,\n"
                      "and records each in the tuning cache the adaptive engine reads, keyed\n"
                      "\"ranks=P tuned=OPERATION bytes=B mpi=LIBRARY\" (replacing entries of\n"
                      "the same key, keeping all others, the adaptive engine's included).\n"
                      "\n") +
              kCacheOptionHelp + kSweepOptionsHelp,
          declare_tune_kernels};
}

}  // namespace ferry::cli
