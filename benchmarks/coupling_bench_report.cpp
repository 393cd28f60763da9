#include "coupling_bench_report.hpp"

#include <limits>

#include "json_line.hpp"
#include "text_table.hpp"
#include "util/format.hpp"

namespace ferry::bench {

namespace {

// The targets: put/get within 10% of a bare exchange, and the coupler's own
// state under twice the exchanged fields.
constexpr double kTimeTarget = 1.10;
constexpr double kStateTarget = 2.0;

// The bare exchange is the first case: the reference of the time ratios.
double time_ratio(const CouplingCase& c, const std::vector<CouplingCase>& cases) {
  const double reference = cases.front().step.median;
  return reference > 0 ? c.step.median / reference : std::numeric_limits<double>::quiet_NaN();
}

double or_nan(const std::optional<double>& value) {
  return value ? *value : std::numeric_limits<double>::quiet_NaN();
}

std::string ranks_text(int ranks) { return detail::cat(ranks, ranks == 1 ? " rank" : " ranks"); }

std::string components_text(const CouplingRun& run) {
  if (run.roles.groups == Groups::Shared) return "atm and ocn both on the one rank";
  return detail::cat("atm on ", ranks_text(run.roles.src_ranks), ", ocn on ",
                     ranks_text(run.roles.dst_ranks));
}

}  // namespace

std::string coupling_json(const CouplingRun& run, const std::vector<CouplingCase>& cases,
                          const Summary& memcpy_bound, const std::string& mpi_library) {
  const Scenario& s = run.scenario;
  std::string out;
  for (const CouplingCase& c : cases) {
    JsonLine json;
    json.add("bench", "coupling")
        .add("case", c.name)
        .add("engine", run.engine)
        .add("ranks", run.ranks)
        .add("atm_ranks", run.roles.src_ranks)
        .add("ocn_ranks", run.roles.dst_ranks)
        .add("nx", s.nx)
        .add("ny", s.ny)
        .add("points", s.points())
        .add("fields", s.fields)
        .add("steps", run.steps)
        .add("src", describe_side(s, run.roles, true))
        .add("dst", describe_side(s, run.roles, false))
        .add("mode", run.pingpong ? "pingpong" : "oneway")
        .add("memcpy_bound_s", memcpy_bound.median)
        .add("memcpy_copies_per_step", run.pingpong ? 2 : 1)
        .add("setup_s", c.setup_seconds)
        .add_seconds("step", c.step)
        .add("x_exchange", time_ratio(c, cases))
        .add("field_bytes_max", run.field_bytes_max);
    if (c.state_bytes_max)
      json.add("state_bytes_max", *c.state_bytes_max);
    else
      json.add("state_bytes_max", std::numeric_limits<double>::quiet_NaN());
    json.add("state_x_fields_max", or_nan(c.state_per_field_byte_max))
        .add("verified", true)
        .add("mpi_library", mpi_library);
    out += json.str() + "\n";
  }
  return out;
}

std::string coupling_table(const CouplingRun& run, const std::vector<CouplingCase>& cases,
                           const Summary& memcpy_bound, const std::string& mpi_library) {
  const Scenario& s = run.scenario;
  const int copies = run.pingpong ? 2 : 1;
  TextTable table({"case", "setup_ms", "median_ms", "min_ms", "max_ms", "x_memcpy", "x_exchange",
                   "state_MB", "x_fields"});
  for (const CouplingCase& c : cases)
    table.add_row({c.name, milliseconds(c.setup_seconds), milliseconds(c.step.median),
                   milliseconds(c.step.min), milliseconds(c.step.max),
                   fixed(c.step.median / (copies * memcpy_bound.median), 2),
                   fixed(time_ratio(c, cases), 2),
                   c.state_bytes_max ? megabytes(static_cast<double>(*c.state_bytes_max)) : "-",
                   c.state_per_field_byte_max ? fixed(*c.state_per_field_byte_max, 2) : "-"});

  std::string out = detail::cat(
      "coupling: ", s.nx, " x ", s.ny, " = ", s.points(), " points, ", s.fields,
      " float64 fields atm -> ocn every step", run.pingpong ? " and back (ping-pong)" : "",
      ", ", describe(s, run.roles), "\n", "ranks ", run.ranks, " (", components_text(run),
      "), engine ", run.engine, ", ", run.steps, " steps\n", "MPI: ", mpi_library, "\n",
      "fields per rank: up to ", megabytes(static_cast<double>(run.field_bytes_max)),
      " MB (put and got)\nmemcpy bound: ", milliseconds(memcpy_bound.median),
      " ms (one hot memcpy of the largest rank payload, median of ", run.bound_repeat,
      ", timed on its own); x_memcpy is against ", copies, copies > 1 ? " copies" : " copy",
      "\n\n");
  out += table.str() + "\n";
  for (const CouplingCase& c : cases) out += c.name + ": " + c.description + ".\n";
  out += detail::cat(
      "Times per step (every field moved once), slowest rank, over the steps (cases timed in "
      "rotation);\nx_exchange = median / exchange median (target for the coupler: < ",
      fixed(kTimeTarget, 2), ").\n",
      "state_MB: heap a case still holds after its first step (max over ranks); x_fields = that "
      "heap / the\nbytes of the fields the rank puts or gets (max over ranks; target for the "
      "coupler: < ",
      fixed(kStateTarget, 1), "). Received values verified.\n");
  return out;
}

}  // namespace ferry::bench
