#include "exchange_report.hpp"

#include <algorithm>

#include "baseline_exchange.hpp"
#include "engine_table.hpp"
#include "json_line.hpp"
#include "text_table.hpp"
#include "util/format.hpp"

namespace ferry::bench {

namespace {

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
    json.add("src", describe_side(s, run.roles, true))
        .add("dst", describe_side(s, run.roles, false))
        .add("mode", mode_name(run.mode))
        .add("per_field", run.per_field)
        .add("engine_memory", run.engine_memory)
        .add("repeat", run.repeat)
        .add("setup_s", row.setup_seconds)
        .add("profiling_s", row.profiling_seconds)
        .add_seconds("exchange", row.exchange)
        .add("memcpy_bound_s", results.memcpy_bound.median)
        .add("memcpy_bound_min_s", results.memcpy_bound.min)
        .add("memcpy_bound_max_s", results.memcpy_bound.max)
        .add("memcpy_bound_repeat", run.bound_repeat)
        .add("memcpy_copies_per_step", run.legs())
        .add("payload_bytes_max", run.payload_bytes_max);
    add_traffic(json, row.traffic)
        .add("verified", true)
        .add("mpi_library", mpi_library);
    if (!row.report.choice.empty()) json.add("adaptive_choice", row.report.choice);
    if (row.choices.size() > 1) json.add("adaptive_choices", detail::list_first(row.choices, row.choices.size()));
    out += json.str() + "\n";
  }
  return out;
}

std::string exchange_table(const ExchangeRun& run, const ExchangeResults& results,
                           const std::string& mpi_library) {
  const Scenario& s = run.scenario;
  const double bound = results.memcpy_bound.median;
  const int legs = run.legs();
  std::vector<EngineTableRow> rows;
  for (const EngineResult& r : results.engines)
    rows.push_back({r.engine, r.setup_seconds, r.exchange, r.traffic});

  std::string out = detail::cat(
      "scenario ", s.name, ": ", s.nx, " x ", s.ny, " = ", s.points(), " points, ", s.fields,
      " float64 fields, ", describe(s, run.roles), "\n", "ranks ", run.ranks, ", groups ",
      roles_text(run.roles), ", repeat ", run.repeat, "\n", "mode ", mode_name(run.mode),
      run.mode == Mode::PingPong ? " (there and back)" : "",
      run.per_field ? detail::cat(", one exchange per field (", s.fields, " a way)")
                    : ", one exchange of every field",
      run.engine_memory ? ", into the engine's memory where offered" : "",
      "\nMPI: ", mpi_library, "\n", "memcpy bound: ", milliseconds(bound),
      " ms (one hot memcpy of ", megabytes(static_cast<double>(run.payload_bytes_max)),
      " MB, the largest rank payload; median of ", run.bound_repeat, ", timed on its own)",
      legs > 1 ? detail::cat("; x_memcpy is against ", legs, " copies, one a way") : "",
      "\n\n");
  out += engine_table(rows, bound * legs, kBaselineName);
  out += "msgs and MB: sent per rank and exchange (max over ranks, mean over source ranks). "
         "Received values verified.\n";
  // What the adaptive engine chose, from exchanges made before the timed ones.
  for (const EngineResult& r : results.engines) {
    if (r.choices.size() > 1)
      out += detail::cat("\n", r.engine, ": the choices of its ", r.choices.size(),
                         " exchanges: ", detail::list_first(r.choices, r.choices.size()),
                         "; the first one's report:\n");
    if (!r.report.text.empty()) out += (r.choices.size() > 1 ? "" : "\n") + r.report.text;
  }
  return out;
}

}  // namespace ferry::bench
