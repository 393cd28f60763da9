#include "time_breakdown.hpp"

#include <algorithm>

#include "ferry/error.hpp"
#include "util/format.hpp"

namespace ferry::report {

namespace {

using detail::TimerCategory;

ComponentRun component_run(TimerFile file) {
  std::array<double, static_cast<std::size_t>(TimerCategory::Count)> mean{};
  for (const Timer& t : file.timers) mean[static_cast<std::size_t>(t.category)] += t.seconds.mean;
  auto of = [&](TimerCategory c) { return mean[static_cast<std::size_t>(c)]; };

  ComponentRun run;
  auto set = [&](Share s, double seconds) { run.seconds[static_cast<std::size_t>(s)] = seconds; };
  set(Share::Communication, of(TimerCategory::Transfer));
  set(Share::Waiting, of(TimerCategory::Wait));
  set(Share::Imbalance, of(TimerCategory::Imbalance));
  set(Share::Copies, of(TimerCategory::Pack) + of(TimerCategory::Transform));
  set(Share::Io, of(TimerCategory::Io));
  set(Share::Setup, of(TimerCategory::Setup));
  double parts = 0;
  for (Share s : {Share::Communication, Share::Waiting, Share::Imbalance, Share::Copies, Share::Io,
                  Share::Setup})
    parts += run.seconds_of(s);
  // Setup, put and get span all of ferry's work but finalize's (its last waits and
  // restart writes): where the parts add up to more, the parts are the time inside.
  const double inside =
      std::max(of(TimerCategory::Setup) + of(TimerCategory::Put) + of(TimerCategory::Get), parts);
  set(Share::Other, inside - parts);
  set(Share::Computation, std::max(0.0, file.run_seconds.mean - inside));
  run.total_seconds = std::max(file.run_seconds.mean, inside);
  run.wall_seconds = file.run_seconds.max;
  run.file = std::move(file);
  return run;
}

}  // namespace

const char* share_name(Share share) noexcept {
  switch (share) {
    case Share::Computation: return "computation";
    case Share::Communication: return "communication";
    case Share::Waiting: return "waiting";
    case Share::Imbalance: return "imbalance";
    case Share::Copies: return "copies";
    case Share::Io: return "io";
    case Share::Setup: return "setup";
    case Share::Other: return "other";
    case Share::Count: break;
  }
  return "unknown";
}

double ComponentRun::percent(Share share) const {
  return total_seconds > 0 ? 100.0 * seconds_of(share) / total_seconds : 0.0;
}

std::vector<ComponentRun> break_down(std::vector<TimerFile> files) {
  std::vector<ComponentRun> runs;
  for (TimerFile& file : files) runs.push_back(component_run(std::move(file)));
  std::sort(runs.begin(), runs.end(), [](const ComponentRun& a, const ComponentRun& b) {
    return a.file.component != b.file.component ? a.file.component < b.file.component
                                                : a.file.ranks < b.file.ranks;
  });
  for (std::size_t i = 1; i < runs.size(); ++i) {
    const TimerFile& a = runs[i - 1].file;
    const TimerFile& b = runs[i].file;
    if (a.component == b.component && a.ranks == b.ranks)
      throw Error(Errc::Arg, detail::cat(a.path, " and ", b.path, " both time component \"",
                                         a.component, "\" on ", a.ranks,
                                         a.ranks == 1 ? " rank" : " ranks",
                                         ". Give one file per component and rank count "
                                         "(each run in its own output.directory)"));
  }

  // Each component's runs against its run on the fewest ranks (the first after sorting).
  for (std::size_t first = 0; first < runs.size();) {
    std::size_t end = first;
    while (end < runs.size() && runs[end].file.component == runs[first].file.component) ++end;
    const ComponentRun& base = runs[first];
    const double base_cost = base.wall_seconds * base.file.ranks;
    const double base_work = base.seconds_of(Share::Computation) * base.file.ranks;
    for (std::size_t i = first; end - first > 1 && i < end; ++i) {
      ComponentRun& run = runs[i];
      const double cost = run.wall_seconds * run.file.ranks;
      if (cost > 0) run.efficiency = base_cost / cost;
      if (i > first && base_work > 0)
        run.rate = run.seconds_of(Share::Computation) * run.file.ranks / base_work - 1.0;
    }
    first = end;
  }
  return runs;
}

}  // namespace ferry::report
