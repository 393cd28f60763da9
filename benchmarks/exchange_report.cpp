#include "exchange_report.hpp"

#include <algorithm>

#include "baseline_exchange.hpp"
#include "json_line.hpp"
#include "text_table.hpp"
#include "util/format.hpp"

namespace ferry::bench {

namespace {

std::string ms(double seconds) { return fixed(seconds * 1e3, 4); }
std::string megabytes(double bytes) { return fixed(bytes / 1e6, 3); }

std::string ratio(double value, double reference) {
  return reference > 0 ? fixed(value / reference, 2) : "-";
}

std::string roles_text(const Roles& roles) {
  if (roles.groups == Groups::Shared) return "shared (every rank sends and receives)";
  return detail::cat("split (", roles.src_ranks, " source + ", roles.dst_ranks,
                     " destination ranks)");
}

}  // namespace

std::string exchange_json(const ExchangeRun& run, const ExchangeResults& results,
                          const std::string& mpi_library) {
  const Scenario& s = run.scenario;
  std::string out;
  for (const EngineResult& row : results.engines) {
    JsonLine json;
    json.add("bench", "exchange")
        .add("scenario", s.name)
        .add("engine", row.engine)
        .add("ranks", run.ranks)
        .add("groups", groups_name(run.roles.groups))
        .add("src_ranks", run.roles.src_ranks)
        .add("dst_ranks", run.roles.dst_ranks)
        .add("nx", s.nx)
        .add("ny", s.ny)
        .add("points", s.points())
        .add("fields", s.fields);
    if (s.msgs_per_proc > 0) json.add("msgs_per_proc", s.msgs_per_proc);
    json.add("repeat", run.repeat)
        .add("setup_s", row.setup_seconds)
        .add("profiling_s", row.profiling_seconds)
        .add_seconds("exchange", row.exchange)
        .add("memcpy_bound_s", results.memcpy_bound.median)
        .add("memcpy_bound_min_s", results.memcpy_bound.min)
        .add("memcpy_bound_max_s", results.memcpy_bound.max)
        .add("payload_bytes_max", run.payload_bytes_max);
    add_traffic(json, row.traffic)
        .add("verified", true)
        .add("mpi_library", mpi_library);
    if (!row.report.choice.empty()) json.add("adaptive_choice", row.report.choice);
    out += json.str() + "\n";
  }
  return out;
}

std::string exchange_table(const ExchangeRun& run, const ExchangeResults& results,
                           const std::string& mpi_library) {
  const Scenario& s = run.scenario;
  const std::vector<EngineResult>& rows = results.engines;
  const auto baseline = std::find_if(rows.begin(), rows.end(), [](const EngineResult& r) {
    return r.engine == kBaselineName;
  });
  const bool has_baseline = baseline != rows.end();
  const double bound = results.memcpy_bound.median;

  std::vector<std::string> header = {"engine", "setup_ms", "median_ms", "min_ms", "max_ms",
                                     "x_memcpy"};
  if (has_baseline) header.push_back("x_baseline");
  for (const char* column : {"msgs_max", "msgs_mean", "MB_max", "MB_mean"})
    header.push_back(column);
  TextTable table(header);
  for (const EngineResult& r : rows) {
    std::vector<std::string> row = {r.engine,           ms(r.setup_seconds),
                                    ms(r.exchange.median), ms(r.exchange.min),
                                    ms(r.exchange.max), ratio(r.exchange.median, bound)};
    if (has_baseline) row.push_back(ratio(r.exchange.median, baseline->exchange.median));
    row.push_back(std::to_string(r.traffic.messages.max));
    row.push_back(fixed(r.traffic.messages.mean, 1));
    row.push_back(megabytes(static_cast<double>(r.traffic.bytes.max)));
    row.push_back(megabytes(r.traffic.bytes.mean));
    table.add_row(std::move(row));
  }

  std::string out = detail::cat(
      "scenario ", s.name, ": ", s.nx, " x ", s.ny, " = ", s.points(), " points, ", s.fields,
      " float64 fields, ", describe(s, run.roles), "\n", "ranks ", run.ranks, ", groups ",
      roles_text(run.roles), ", repeat ", run.repeat, "\n", "MPI: ", mpi_library, "\n",
      "memcpy bound: ", ms(bound), " ms (one memcpy of ",
      megabytes(static_cast<double>(run.payload_bytes_max)), " MB, the largest rank payload)\n\n");
  out += table.str();
  out += "\nTimes per exchange, slowest rank, over the repeats (engines and bound timed in "
         "rotation); x_memcpy = median / memcpy bound";
  if (has_baseline) out += "; x_baseline = median / baseline median";
  out += ".\nmsgs and MB: sent per rank and exchange (max over ranks, mean over source ranks). "
         "Received values verified.\n";
  // What the adaptive engine chose, from exchanges made before the timed ones.
  for (const EngineResult& r : rows)
    if (!r.report.text.empty()) out += "\n" + r.report.text;
  return out;
}

}  // namespace ferry::bench
