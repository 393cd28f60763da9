// `ferry report`: where each component's time goes, from the coupler's timer files.
#include <iostream>
#include <memory>
#include <optional>

#include "command.hpp"
#include "progress.hpp"
#include "report_output.hpp"
#include "report_plot.hpp"
#include "time_breakdown.hpp"
#include "timer_file.hpp"
#include "util/agree.hpp"

namespace ferry::cli {

namespace {

struct ReportOptions {
  std::vector<std::string> names;
  std::string png;
  bool json = false;
};

int run(const ReportOptions& o, const Context& context) {
  const std::vector<std::string>& names = o.names;
  const std::string& png = o.png;
  const bool json = o.json;
  if (names.empty())
    throw UsageError("missing the timer files, as in: ferry report output/ferry_timers_ocean.json");

  // Every rank reads the files and reaches the same verdict; rank 0 prints and plots.
  std::vector<report::TimerFile> files;
  for (const std::string& path : report::timer_file_paths(names)) {
    bench::progress().stage("reading " + path);
    files.push_back(report::read_timer_file(path));
  }
  const std::vector<report::ComponentRun> runs = report::break_down(std::move(files));
  if (context.rank == 0)
    std::cout << (json ? report::report_json(runs) : report::report_table(runs)) << std::flush;
  if (png.empty()) return 0;
  std::optional<Error> failure;
  if (context.rank == 0) {
    try {
      report::plot_report(runs, png);
    } catch (const Error& e) {
      failure = e;
    }
  }
  detail::agree(Comm::view(context.comm), failure);
  if (context.rank == 0 && !json) std::cout << "\nwrote " << png << "\n";
  return 0;
}

Action declare_report(CLI::App& app) {
  auto o = std::make_shared<ReportOptions>();
  app.add_option("FILES", o->names);
  app.add_option("--png", o->png);
  app.add_flag("--json", o->json);
  return [o](const Context& context) { return run(*o, context); };
}

}  // namespace

Command report_command() {
  return {"report", "where each component's time goes, from the coupler's timer files",
          "usage: ferry report FILE.json|DIR... [--png OUT.png] [--json]\n"
          "\n"
          "Reads the ferry_timers_<component>.json files the coupler writes at finalize\n"
          "(a directory stands for all of them in it) and prints, per component and rank\n"
          "count, the run time and its percentages in computation (outside ferry),\n"
          "communication, waiting for the partner, waiting for the component's own\n"
          "slower ranks (with output.imbalance: true), copies, I/O, setup and the rest\n"
          "of put/get; then every exchange's timers (min, mean and max over the ranks).\n"
          "Given runs of one component at several rank counts (each run's files in its\n"
          "own directory), it adds the parallel efficiency against the run on the fewest\n"
          "ranks, (T_small * P_small) / (T * P), and the change of the computation's\n"
          "rank-seconds. docs/user/report.md explains how to read it.\n"
          "\n"
          "  --png OUT.png   also draw the percentages as stacked bars (needs matplotlib in\n"
          "                  $FERRY_PYTHON, else ferry's .venv, else python3)\n"
          "  --json          one JSON object per component run and per timer instead\n"
          "\n"
          "Runs without mpiexec.\n",
          declare_report};
}

}  // namespace ferry::cli
