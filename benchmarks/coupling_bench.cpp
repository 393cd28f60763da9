#include "coupling_bench.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <system_error>

#include "ferry/coupler.hpp"
#include "ferry/engine.hpp"
#include "ferry/exchange.hpp"
#include "field_data.hpp"
#include "heap_usage.hpp"
#include "payload_copy.hpp"
#include "progress.hpp"
#include "timing.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::bench {

namespace {

constexpr std::int64_t kValueBytes = sizeof(double);
// Model seconds between coupling times: every step is a coupling time.
constexpr int kPeriod = 1;

// The coupler refuses butterfly (docs/user/coupler.md), and adaptive (the coupler's
// auto) would profile its candidates during the timed steps: compare the others.
std::vector<std::string> coupling_engines() {
  std::vector<std::string> engines = engine_names();
  const auto refused = [](const std::string& e) { return e == "butterfly" || e == "adaptive"; };
  engines.erase(std::remove_if(engines.begin(), engines.end(), refused), engines.end());
  return engines;
}

CouplingRun resolve_run(const Comm& comm, const CouplingBenchConfig& config) {
  FERRY_CHECK(config.points >= 1 && config.fields >= 1 && config.steps >= 1, Errc::Arg,
              "points, fields and steps must be >= 1; got ", config.points, ", ",
              config.fields, ", ", config.steps);
  const std::vector<std::string> engines = coupling_engines();
  FERRY_CHECK(std::find(engines.begin(), engines.end(), config.engine) != engines.end(),
              Errc::Arg, "engine \"", config.engine,
              "\" cannot be compared inside and outside the coupler; this build offers ",
              detail::list_first(engines, engines.size()),
              " (the coupler refuses butterfly; adaptive would time its profiling: compare "
              "its candidates one by one)");
  CouplingRun run;
  run.roles = assign_roles(Groups::Split, comm.size(), comm.rank());
  // The "large" scenario is the atm -> ocn pair: 2-D blocks to round-robin, rescaled.
  ScenarioRequest request;
  request.name = "large";
  request.fields = config.fields;
  request.points = config.nx > 0 ? 0 : config.points;
  request.nx = config.nx;
  request.ny = config.ny;
  request.src_layout = config.src_layout;
  request.dst_layout = config.dst_layout;
  run.scenario = make_scenario(request, run.roles);
  run.ranks = comm.size();
  run.steps = config.steps;
  run.engine = config.engine;
  run.pingpong = config.pingpong;
  run.bound_repeat = config.bound_repeat;
  return run;
}

// Rank 0's directory for the configuration files; removed (by rank 0) on destruction.
class ScratchDirectory {
 public:
  explicit ScratchDirectory(const Comm& comm) : rank_(comm.rank()) {
    std::string path;
    if (rank_ == 0) {
      std::error_code ignored;
      std::string name =
          (std::filesystem::temp_directory_path(ignored) / "ferry_bench_coupling_XXXXXX").string();
      if (mkdtemp(name.data()) != nullptr) path = name;
    }
    int length = static_cast<int>(path.size());
    FERRY_CALL_MPI(MPI_Bcast(&length, 1, MPI_INT, 0, comm.get()));
    path.resize(static_cast<std::size_t>(length));
    FERRY_CALL_MPI(MPI_Bcast(path.data(), length, MPI_CHAR, 0, comm.get()));
    FERRY_CHECK(!path.empty(), Errc::Io,
                "bench coupling: cannot create a scratch directory in the temporary directory. "
                "Point TMPDIR to a writable directory");
    path_ = path;
  }
  ~ScratchDirectory() {
    std::error_code ignored;
    if (rank_ == 0) std::filesystem::remove_all(path_, ignored);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;

  const std::string& path() const noexcept { return path_; }

 private:
  int rank_;
  std::string path_;
};

std::string field_name(int field) { return "f" + std::to_string(field); }
// The fields ocn sends back in a ping-pong.
std::string back_name(int field) { return "b" + std::to_string(field); }

// The entries of one direction: one exchange per field, or all fields in one.
std::string entries(const CouplingRun& run, bool aggregated, const char* from, const char* to,
                    std::string (*name)(int)) {
  const std::string settings =
      detail::cat("    period: ", kPeriod, "\n    engine: ", run.engine, "\n");
  if (aggregated) {
    std::string list;
    for (int f = 0; f < run.scenario.fields; ++f) list += (f ? ", " : "") + name(f);
    return detail::cat("  - name: ", from, "_to_", to, "\n    source: {component: ", from,
                       ", fields: [", list, "]}\n    target: {component: ", to, ", fields: [",
                       list, "]}\n", settings);
  }
  std::string yaml;
  for (int f = 0; f < run.scenario.fields; ++f)
    yaml += detail::cat("  - name: ", name(f), "\n    source: {component: ", from,
                        ", field: ", name(f), "}\n    target: {component: ", to, ", field: ",
                        name(f), "}\n", settings);
  return yaml;
}

// The configuration of one case: atm -> ocn, and back with a ping-pong.
std::string configuration(const CouplingRun& run, bool aggregated,
                          const std::string& output_directory, bool timers) {
  std::string yaml = detail::cat("version: 1\nrun: {start: 0, length: ", (run.steps + 1) * kPeriod,
                                 "}\noutput: {directory: \"", output_directory,
                                 "\", timers: ", timers ? "true" : "false", "}\nexchanges:\n");
  yaml += entries(run, aggregated, "atm", "ocn", field_name);
  if (run.pingpong) yaml += entries(run, aggregated, "ocn", "atm", back_name);
  return yaml;
}

// The fields of one FieldData coupled atm -> ocn, one coupling time per step.
class CoupledFields {
 public:
  CoupledFields(const Comm& comm, const std::string& config_path, const CouplingRun& run,
                const LayoutPair& layouts, FieldData& data, FieldData* back)
      : coupler_(comm.get(), components(run.roles), config_path), data_(data), back_(back) {
    const Scenario& s = run.scenario;
    auto define = [&](const char* component, const Layout& layout, FieldDirection direction,
                      std::string (*name)(int), std::vector<FieldId>& ids) {
      const GridId grid =
          coupler_.def_grid(component, std::string(component) + "_grid", s.nx, s.ny);
      const PartitionId part = coupler_.def_partition(grid, "decomposition", layout);
      for (int f = 0; f < s.fields; ++f)
        ids.push_back(coupler_.def_field(part, name(f), direction, Datatype::Float64));
      if (!back_) return;
      const bool out = direction == FieldDirection::Out;
      for (int f = 0; f < s.fields; ++f)
        (out ? back_in_ : back_out_)
            .push_back(coupler_.def_field(part, back_name(f),
                                          out ? FieldDirection::In : FieldDirection::Out,
                                          Datatype::Float64));
    };
    if (run.roles.src_part >= 0) define("atm", layouts.src, FieldDirection::Out, field_name, out_);
    if (run.roles.dst_part >= 0) define("ocn", layouts.dst, FieldDirection::In, field_name, in_);
    coupler_.enddef();
  }

  // Puts every field on atm, then gets every field on ocn, at the next coupling time;
  // in a ping-pong ocn then puts what it got back and atm gets it.
  void step() {
    for (std::size_t f = 0; f < out_.size(); ++f) coupler_.put(out_[f], time_, data_.src()[f]);
    for (std::size_t f = 0; f < in_.size(); ++f) coupler_.get(in_[f], time_, data_.dst()[f]);
    for (std::size_t f = 0; f < back_out_.size(); ++f)
      coupler_.put(back_out_[f], time_, data_.dst()[f]);
    for (std::size_t f = 0; f < back_in_.size(); ++f)
      coupler_.get(back_in_[f], time_, back_->dst()[f]);
    time_ += kPeriod;
  }

  void finalize() { coupler_.finalize(); }

 private:
  static std::vector<std::string> components(const Roles& roles) {
    std::vector<std::string> names;
    if (roles.src_part >= 0) names.emplace_back("atm");
    if (roles.dst_part >= 0) names.emplace_back("ocn");
    return names;
  }

  Coupler coupler_;
  FieldData& data_;
  FieldData* back_;  // ping-pong only: what atm gets back
  std::vector<FieldId> out_, in_, back_out_, back_in_;
  double time_ = 0;
};

// The values a case moves: atm -> ocn, and ocn -> atm for a ping-pong.
struct CaseData {
  FieldData data;
  std::unique_ptr<FieldData> back;
  CaseData(const LayoutPair& layouts, int fields, bool pingpong)
      : data(layouts.src, layouts.dst, fields),
        back(pingpong ? std::make_unique<FieldData>(layouts.dst, layouts.src, fields) : nullptr) {}
  void clear_destination() {
    data.clear_destination();
    if (back) back->clear_destination();
  }
  std::optional<std::string> first_mismatch() const {
    if (auto there = data.first_mismatch()) return there;
    if (auto again = back ? back->first_mismatch() : std::nullopt) return "on the way back: " + *again;
    return std::nullopt;
  }
};

void check_values(const Comm& comm, const std::string& name, const CaseData& data) {
  std::optional<Error> wrong;
  if (auto mismatch = data.first_mismatch())
    wrong = Error(Errc::Internal,
                  detail::cat("bench coupling: case ", name, " delivered wrong values on rank ",
                              comm.rank(), ": ", *mismatch,
                              ". This is a bug in ferry, please report it with this command"),
                  comm.rank());
  detail::agree(comm, wrong);
}

// Builds one case with `build` (which returns its step), makes its first step and
// checks it; fills the row's setup time and heap. Returns the step.
std::function<void()> prepare(const Comm& comm, CouplingCase& row, CaseData& data,
                              std::int64_t field_bytes,
                              const std::function<std::function<void()>()>& build) {
  const std::optional<std::int64_t> heap_before = heap_in_use();
  const double start = MPI_Wtime();
  std::function<void()> step = build();
  const double setup = MPI_Wtime() - start;
  data.clear_destination();
  step();
  const std::optional<std::int64_t> heap_after = heap_in_use();
  row.setup_seconds = max_over_ranks(comm, setup);
  check_values(comm, row.name, data);

  // A rank that cannot measure makes the row unmeasured on every rank. What the
  // case allocated may be less than what it freed of earlier allocations: count 0.
  const bool measured = max_over_ranks(comm, heap_before && heap_after ? 0.0 : 1.0) == 0.0;
  const std::int64_t bytes = measured ? std::max<std::int64_t>(0, *heap_after - *heap_before) : 0;
  const double ratio =
      field_bytes > 0 ? static_cast<double>(bytes) / static_cast<double>(field_bytes) : 0.0;
  const std::int64_t bytes_max = spread_over_ranks(comm, bytes, true).max;
  const double ratio_max = max_over_ranks(comm, ratio);
  if (measured) {
    row.state_bytes_max = bytes_max;
    row.state_per_field_byte_max = ratio_max;
  }
  return step;
}

}  // namespace

CouplingBench::CouplingBench(MPI_Comm comm, const CouplingBenchConfig& config)
    : comm_(Comm::dup(comm)),
      run_(resolve_run(comm_, config)),
      layouts_(make_layouts(run_.scenario, run_.roles)),
      timers_directory_(config.timers_directory) {
  const std::int64_t points = layouts_.src.local_size() + layouts_.dst.local_size();
  field_bytes_ = points * run_.scenario.fields * kValueBytes;
  run_.field_bytes_max = spread_over_ranks(comm_, field_bytes_, true).max;
  FERRY_CHECK(config.bound_repeat >= 1, Errc::Arg, "the memcpy bound needs >= 1 copies; got ",
              config.bound_repeat);
}

std::vector<CouplingCase> CouplingBench::measure() {
  const int fields = run_.scenario.fields;
  // The same hot copy as bench exchange's bound: the larger side of the rank, once.
  const std::int64_t payload =
      std::max(layouts_.src.local_size(), layouts_.dst.local_size()) * fields * kValueBytes;
  memcpy_bound_ = time_payload_copy(comm_, static_cast<std::size_t>(payload), run_.bound_repeat);
  // Each case moves its own copy of the fields, allocated before any heap is measured.
  CaseData exchange_data(layouts_, fields, run_.pingpong);
  CaseData per_field_data(layouts_, fields, run_.pingpong);
  CaseData aggregated_data(layouts_, fields, run_.pingpong);
  ScratchDirectory scratch(comm_);

  // Open MPI sets up a connection at the first message to a peer: make it happen
  // here, so the first case measured does not pay for it.
  std::vector<int> hello(static_cast<std::size_t>(comm_.size()), 0), back(hello.size());
  FERRY_CALL_MPI(MPI_Alltoall(hello.data(), 1, MPI_INT, back.data(), 1, MPI_INT, comm_.get()));

  // A case's configuration file (written by rank 0, which alone reads it) and the
  // directory of its timer files, made before the coupler needs it at finalize.
  auto config_for = [&](const std::string& name, bool aggregated) {
    const bool timers = !timers_directory_.empty();
    const std::string output = timers ? timers_directory_ + "/" + name : scratch.path();
    const std::string path = scratch.path() + "/" + name + ".yaml";
    std::optional<Error> failure;
    if (comm_.rank() == 0) {
      std::error_code error;
      std::filesystem::create_directories(output, error);
      std::ofstream(path) << configuration(run_, aggregated, output, timers);
      if (error)
        failure = Error(Errc::Io, detail::cat("bench coupling: cannot create the timer "
                                              "directory \"", output, "\": ", error.message()));
    }
    detail::agree(comm_, failure);
    return path;
  };

  std::vector<CouplingCase> cases(3);
  cases[0].name = "exchange";
  cases[0].description = "a bare Exchange of all fields, execute per step";
  cases[1].name = "per_field";
  cases[1].description = detail::cat("the coupler, one exchange per field (", fields,
                                     " configuration entries), put and get per field");
  cases[2].name = "aggregated";
  cases[2].description =
      "the coupler, all fields in one configuration entry, put and get per field";

  std::unique_ptr<Exchange> exchange, exchange_back;
  std::unique_ptr<CoupledFields> per_field, aggregated;
  std::vector<std::function<void()>> steps;
  const std::vector<FieldSpec> specs(static_cast<std::size_t>(fields),
                                     FieldSpec{Datatype::Float64, 1});
  progress().stage("setting up the bare exchange");
  steps.push_back(prepare(comm_, cases[0], exchange_data, field_bytes_, [&] {
    exchange =
        std::make_unique<Exchange>(comm_.get(), layouts_.src, layouts_.dst, specs, run_.engine);
    if (run_.pingpong)
      exchange_back =
          std::make_unique<Exchange>(comm_.get(), layouts_.dst, layouts_.src, specs, run_.engine);
    return [&] {
      exchange->execute(exchange_data.data.src(), exchange_data.data.dst());
      if (exchange_back) exchange_back->execute(exchange_data.data.dst(), exchange_data.back->dst());
    };
  }));
  progress().stage("setting up the coupler, one entry per field");
  const std::string per_field_config = config_for(cases[1].name, false);
  steps.push_back(prepare(comm_, cases[1], per_field_data, field_bytes_, [&] {
    per_field = std::make_unique<CoupledFields>(comm_, per_field_config, run_, layouts_,
                                                per_field_data.data, per_field_data.back.get());
    return [&] { per_field->step(); };
  }));
  progress().stage("setting up the coupler, all fields in one entry");
  const std::string aggregated_config = config_for(cases[2].name, true);
  steps.push_back(prepare(comm_, cases[2], aggregated_data, field_bytes_, [&] {
    aggregated = std::make_unique<CoupledFields>(comm_, aggregated_config, run_, layouts_,
                                                 aggregated_data.data, aggregated_data.back.get());
    return [&] { aggregated->step(); };
  }));

  progress().stage(detail::cat("timing ", run_.steps, " steps of the three cases"));
  const std::vector<Summary> times = time_in_rotation(comm_, run_.steps, steps);
  for (std::size_t k = 0; k < cases.size(); ++k) cases[k].step = times[k];
  per_field->finalize();
  aggregated->finalize();
  return cases;
}

}  // namespace ferry::bench
