#include "report_output.hpp"

#include <algorithm>

#include "json_line.hpp"
#include "text_table.hpp"
#include "util/format.hpp"

namespace ferry::report {

namespace {

using bench::fixed;

constexpr Share kShares[] = {Share::Computation, Share::Communication, Share::Waiting,
                             Share::Imbalance,   Share::Copies,        Share::Io,
                             Share::Setup,       Share::Other};

// Short column headers, in the order of kShares.
constexpr const char* kShareColumns[] = {"comp_%", "comm_%", "wait_%",  "imbal_%",
                                         "copy_%", "io_%",   "setup_%", "other_%"};

std::string percent(double fraction) { return fixed(100.0 * fraction, 1); }

std::string ranks_text(int ranks) { return detail::cat(ranks, ranks == 1 ? " rank" : " ranks"); }

std::string shares_table(const std::vector<ComponentRun>& runs) {
  const bool scaling = std::any_of(runs.begin(), runs.end(),
                                   [](const ComponentRun& r) { return r.efficiency.has_value(); });
  std::vector<std::string> header = {"component", "ranks", "run_s"};
  header.insert(header.end(), std::begin(kShareColumns), std::end(kShareColumns));
  if (scaling) {
    header.emplace_back("eff_%");
    header.emplace_back("rate_%");
  }
  bench::TextTable table(header);
  for (const ComponentRun& r : runs) {
    std::vector<std::string> row = {r.file.component, std::to_string(r.file.ranks),
                                    fixed(r.wall_seconds, 3)};
    for (Share s : kShares) row.push_back(fixed(r.percent(s), 1));
    if (scaling) {
      row.push_back(r.efficiency ? percent(*r.efficiency) : "-");
      row.push_back(r.rate ? percent(*r.rate) : "-");
    }
    table.add_row(std::move(row));
  }
  std::string out =
      "Where the time goes: percent of each component's run time (mean over its ranks)\n\n" +
      table.str() +
      "\nrun_s: wall time of the slowest rank, from the Coupler's construction to finalize.\n"
      "comp: outside ferry (the model's work); comm: inside the engines (transfer); wait: "
      "blocked for the\npartner component (wait); imbal: waiting for the component's own "
      "slower ranks (imbalance,\nwith output.imbalance); copy: coupler buffers and time "
      "transforms (pack, transform);\nio: restart and output files; setup: building the "
      "exchanges; other: the rest of put and get.\n";
  if (scaling)
    out += "eff: (T_small * P_small) / (T * P) against the component's run on the fewest ranks "
           "(T = run_s);\nrate: change of the computation's rank-seconds against that run "
           "(> 0: the work runs slower).\n";
  return out;
}

std::string exchanges_table(const ComponentRun& r) {
  bench::TextTable table({"exchange", "category", "calls_max", "min_ms", "mean_ms", "max_ms"});
  for (const Timer& t : r.file.timers)
    table.add_row({t.exchange, detail::timer_category_name(t.category), std::to_string(t.calls_max),
                   fixed(t.seconds.min * 1e3, 3), fixed(t.seconds.mean * 1e3, 3),
                   fixed(t.seconds.max * 1e3, 3)});
  return detail::cat("\n", r.file.component, " on ", ranks_text(r.file.ranks), " (", r.file.path,
                     "): per exchange, over the ranks\n\n", table.str());
}

}  // namespace

std::string report_table(const std::vector<ComponentRun>& runs) {
  std::string out = shares_table(runs);
  for (const ComponentRun& r : runs) out += exchanges_table(r);
  return out;
}

std::string report_json(const std::vector<ComponentRun>& runs) {
  std::string out;
  for (const ComponentRun& r : runs) {
    bench::JsonLine json;
    json.add("report", "component")
        .add("component", r.file.component)
        .add("ranks", r.file.ranks)
        .add("path", r.file.path)
        .add("run_s", r.wall_seconds)
        .add("mean_run_s", r.total_seconds);
    for (Share s : kShares) json.add(std::string(share_name(s)) + "_s", r.seconds_of(s));
    for (Share s : kShares) json.add(std::string(share_name(s)) + "_pct", r.percent(s));
    if (r.efficiency) json.add("efficiency", *r.efficiency);
    if (r.rate) json.add("rate", *r.rate);
    out += json.str() + "\n";
  }
  for (const ComponentRun& r : runs)
    for (const Timer& t : r.file.timers) {
      bench::JsonLine json;
      json.add("report", "exchange")
          .add("component", r.file.component)
          .add("ranks", r.file.ranks)
          .add("exchange", t.exchange)
          .add("category", detail::timer_category_name(t.category))
          .add("calls_max", static_cast<std::int64_t>(t.calls_max))
          .add("min_s", t.seconds.min)
          .add("mean_s", t.seconds.mean)
          .add("max_s", t.seconds.max);
      out += json.str() + "\n";
    }
  return out;
}

}  // namespace ferry::report
