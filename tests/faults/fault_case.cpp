// One coupled run with one fault injected, chosen on the command line:
//
//   fault_case --case=<name> [--engine=<engine>] [--watchdog=<seconds>]
//              [--collective=<seconds>] [--on-error=finalize|exit]
//
// Component "atm" runs on every rank but the last, "ocn" on the last; atm puts field t
// every 600 s of a 3600 s run, ocn gets it and checks every value. Each rank prints
// one line "fault-case rank <r>: <what happened>" (the error it raised, or "ok") and
// then, after an error, calls MPI_Finalize and returns 1 (--on-error=finalize: the
// ordinary exit of a program that caught the error), or returns 1 at once
// (--on-error=exit: for a partner that never comes, or is dead). run_fault.py checks the lines,
// the time taken and the exit status.
#include <mpi.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "ferry/coupler.hpp"

namespace {

using ferry::Coupler;
using ferry::Datatype;
using ferry::FieldDirection;
using ferry::FieldId;
using ferry::Layout;

constexpr std::int64_t kPoints = 60;
constexpr double kPeriod = 600;

struct Options {
  std::string name;
  std::string engine = "auto";
  double watchdog = 3;
  double collective = 0;  // watchdog.collective_timeout; 0: twice the watchdog
  bool finalize_on_error = true;
};

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int world_size() {
  int s = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

void report(const std::string& what) {
  std::printf("fault-case rank %d: %s\n", world_rank(), what.c_str());
  std::fflush(stdout);
}

// A fresh directory made by rank 0 and known to every rank.
std::string scratch_directory() {
  char path[256] = "/tmp/ferry_faults_XXXXXX";
  if (world_rank() == 0 && mkdtemp(path) == nullptr) path[0] = '\0';
  MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
  return path;
}

// What one run of the case looks like: the configuration's pieces and what each side
// declares.
struct RunSpec {
  double start = 0;
  double length = 3600;
  std::string output_directory;
  std::string exchanges;  // the `exchanges:` entries, YAML
  std::int64_t atm_points = kPoints, ocn_points = kPoints;
  Datatype atm_type = Datatype::Float64, ocn_type = Datatype::Float64;
  int atm_bundle = 1;
  std::vector<std::string> atm_fields{"t"}, ocn_fields{"t_in"};
};

std::string exchange(const std::string& name, const std::string& from, const std::string& to,
                     double period, const std::string& engine, const std::string& extra = "") {
  return "  - name: " + name + "\n    source: {component: atm, field: " + from +
         "}\n    target: {component: ocn, field: " + to + "}\n    period: " +
         std::to_string(period) + "\n    engine: " + engine + "\n" + extra;
}

std::string write_config(const std::string& dir, const RunSpec& run, const Options& o) {
  const std::string path = dir + "/run.yaml";
  if (world_rank() == 0)
    std::ofstream(path) << "version: 1\nrun: {start: " << run.start << ", length: " << run.length
                        << "}\noutput: {directory: " << run.output_directory
                        << ", timers: false}\nwatchdog: {timeout: " << o.watchdog
                        << ", collective_timeout: "
                        << (o.collective > 0 ? o.collective : 2 * o.watchdog) << "}\nexchanges:\n"
                        << run.exchanges;
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

// The value of point `id` put at time t: exact in float64 and float32, and its
// average over two times exact too.
double value(std::int64_t id, double t) { return 4.0 * static_cast<double>(id) + t / kPeriod; }

// A coupled run on every rank: declares, then steps with `step(coupler, t)`.
class CoupledRun {
 public:
  CoupledRun(const RunSpec& spec, const std::string& config) : spec_(spec) {
    const int p = world_size();
    atm_ = world_rank() < p - 1 || p == 1;
    coupler_ = std::make_unique<Coupler>(MPI_COMM_WORLD,
                                         std::vector<std::string>{atm_ ? "atm" : "ocn"}, config);
    if (atm_) {
      layout_ = Layout::block(spec.atm_points, std::max(1, p - 1), world_rank());
      const auto part = coupler_->def_partition(coupler_->def_grid("atm", "g", spec.atm_points), "p",
                                                layout_);
      for (const auto& f : spec.atm_fields)
        fields_.push_back(
            coupler_->def_field(part, f, FieldDirection::Out, spec.atm_type, spec.atm_bundle));
    } else {
      layout_ = Layout::round_robin(spec.ocn_points, 1, 0);
      const auto part = coupler_->def_partition(coupler_->def_grid("ocn", "g", spec.ocn_points), "p",
                                                layout_);
      for (const auto& f : spec.ocn_fields)
        fields_.push_back(coupler_->def_field(part, f, FieldDirection::In, spec.ocn_type));
    }
  }

  Coupler& coupler() { return *coupler_; }
  bool atm() const { return atm_; }

  // atm: every field's values at t (or only the first field's); ocn: gets every field
  // at t into `got`.
  void put(double t, bool first_only = false) {
    std::vector<double> values;
    for (std::int64_t id : layout_.ids())
      for (int b = 0; b < spec_.atm_bundle; ++b) values.push_back(value(id, t));
    for (FieldId f : fields_) {
      coupler_->put(f, t, values.data());
      if (first_only) break;
    }
  }
  std::vector<std::vector<double>> get(double t) {
    std::vector<std::vector<double>> got;
    for (FieldId f : fields_) {
      got.emplace_back(static_cast<std::size_t>(layout_.local_size()));
      coupler_->get(f, t, got.back().data());
    }
    return got;
  }
  // ocn: Raises unless field `f` got `expected(id)` at every point, bit for bit.
  void check(const std::vector<double>& got, const std::function<double(std::int64_t)>& expected,
             const std::string& what) const {
    for (std::size_t i = 0; i < got.size(); ++i)
      if (got[i] != expected(layout_.ids()[i]))
        throw std::runtime_error(what + ": point " + std::to_string(layout_.ids()[i]) + " got " +
                                 std::to_string(got[i]) + ", expected " +
                                 std::to_string(expected(layout_.ids()[i])));
  }

  // Steps from start to the end of the run, atm putting and ocn getting (and checking:
  // the value put `lag` seconds before) field t; `fault(t)` runs first at every time.
  void step_all(const std::function<void(double)>& fault, double lag = 0) {
    for (double t = spec_.start; t < spec_.start + spec_.length; t += kPeriod) {
      fault(t);
      if (atm_) {
        put(t);
      } else {
        const auto got = get(t);
        check(got.front(), [&](std::int64_t id) { return value(id, t - lag); }, "t");
      }
    }
  }

 private:
  RunSpec spec_;
  bool atm_ = false;
  Layout layout_;
  std::unique_ptr<Coupler> coupler_;
  std::vector<FieldId> fields_;
};

RunSpec plain_run(const std::string& dir, const Options& o, const std::string& extra = "") {
  RunSpec spec;
  spec.output_directory = dir;
  spec.exchanges = exchange("sst", "t", "t_in", kPeriod, o.engine, extra);
  return spec;
}

// A whole run of `spec`, with `fault(run, t)` at every time; returns normally when the
// run finishes.
void run(const RunSpec& spec, const Options& o, const std::string& dir,
         const std::function<void(CoupledRun&, double)>& fault = {}) {
  CoupledRun r(spec, write_config(dir, spec, o));
  r.coupler().enddef();
  r.step_all([&](double t) {
    if (fault) fault(r, t);
  });
  r.coupler().finalize();
}

const int kFaulty = 1;  // the rank that fails (an atm rank on 3 ranks or more)

// ---- The cases ----

void throw_in_user_code(const Options& o, const std::string& dir) {
  run(plain_run(dir, o), o, dir, [&](CoupledRun&, double t) {
    if (world_rank() == kFaulty && t == 2 * kPeriod)
      throw std::runtime_error("injected failure on rank " + std::to_string(kFaulty));
  });
}

void return_early(const Options& o, const std::string& dir) {
  const RunSpec spec = plain_run(dir, o);
  CoupledRun r(spec, write_config(dir, spec, o));
  r.coupler().enddef();
  for (double t = 0; t < spec.length; t += kPeriod) {
    if (world_rank() == kFaulty && t == 2 * kPeriod) {
      report("left the run early, without finalize");
      return;  // the coupler is destroyed here
    }
    if (r.atm())
      r.put(t);
    else
      r.get(t);
  }
  r.coupler().finalize();
}

void skip_a_get(const Options& o, const std::string& dir) {
  run(plain_run(dir, o), o, dir, [&](CoupledRun& r, double t) {
    if (!r.atm() && t == 2 * kPeriod) r.get(t + kPeriod);  // skips t: raises
  });
}

void kill_a_rank(const Options& o, const std::string& dir) {
  run(plain_run(dir, o), o, dir, [&](CoupledRun&, double t) {
    if (world_rank() == kFaulty && t == 2 * kPeriod) std::raise(SIGKILL);
  });
}

void never_call_enddef(const Options& o, const std::string& dir) {
  const RunSpec spec = plain_run(dir, o);
  CoupledRun r(spec, write_config(dir, spec, o));
  if (!r.atm()) {
    // Stuck elsewhere (a partner that never comes); the job ends when the others give up.
    std::this_thread::sleep_for(std::chrono::seconds(60));
    throw std::runtime_error("still here after 60 s: the other ranks did not end the job");
  }
  r.coupler().enddef();
}

// Run 1 (a lag of one period) leaves t in the restart file; run 2 declares something else.
void mismatched_restart(const Options& o, const std::string& dir,
                        const std::function<void(RunSpec&)>& change) {
  RunSpec first = plain_run(dir, o, "    lag: 600\n");
  CoupledRun one(first, write_config(dir, first, o));
  one.coupler().enddef();
  if (one.atm()) one.put(-kPeriod);  // the first lagged value: start - lag
  one.step_all([](double) {}, kPeriod);
  one.coupler().finalize();

  RunSpec second = first;
  second.start = first.start + first.length;
  change(second);
  run(second, o, dir);
}

// Two exchanges keep their state in one restart file: t lagged by one period, u
// averaged over two periods. Run 2 gets t's value put at the end of run 1, and u's
// average of one put of run 1 and one of run 2: bit for bit.
void shared_restart(const Options& o, const std::string& dir) {
  RunSpec spec = plain_run(dir, o, "    lag: 600\n    restart: shared.nc\n");
  spec.exchanges += exchange("wind", "u", "u_in", 2 * kPeriod, o.engine,
                             "    transform: average\n    restart: shared.nc\n");
  spec.atm_fields = {"t", "u"};
  spec.ocn_fields = {"t_in", "u_in"};
  {
    CoupledRun one(spec, write_config(dir, spec, o));
    one.coupler().enddef();
    if (one.atm()) one.put(-kPeriod, true);  // t's first lagged value; u has no lag
    for (double t = 0; t < spec.length; t += kPeriod) {
      if (one.atm()) {
        one.put(t);
      } else {
        const auto got = one.get(t);
        one.check(got[0], [&](std::int64_t id) { return value(id, t - kPeriod); }, "t");
        // u: the average of the puts at t - 600 and t (just t at the start).
        if (static_cast<std::int64_t>(t / kPeriod) % 2 == 0)
          one.check(got[1], [&](std::int64_t id) {
            return t == 0 ? value(id, 0) : (value(id, t - kPeriod) + value(id, t)) / 2;
          }, "u");
      }
    }
    one.coupler().finalize();
  }
  RunSpec second = spec;
  second.start = spec.length;
  CoupledRun two(second, write_config(dir, second, o));
  two.coupler().enddef();
  const double t = second.start;
  if (two.atm()) {
    two.put(t);
  } else {
    const auto got = two.get(t);
    two.check(got[0], [&](std::int64_t id) { return value(id, t - kPeriod); }, "t from restart");
    two.check(got[1], [&](std::int64_t id) { return (value(id, t - kPeriod) + value(id, t)) / 2; },
              "u from restart");
  }
  for (double s = t + kPeriod; s < second.start + second.length; s += kPeriod)
    if (two.atm())
      two.put(s);
    else
      two.get(s);
  two.coupler().finalize();
  report("both fields restored bit for bit");
}

// output.directory does not exist: enddef creates it, output files go there.
void missing_output_directory(const Options& o, const std::string& dir) {
  RunSpec spec = plain_run(dir, o, "    output: true\n");
  spec.output_directory = dir + "/not/yet/there";
  run(spec, o, dir);
  MPI_Barrier(MPI_COMM_WORLD);
  if (!std::filesystem::exists(spec.output_directory + "/sst_target.nc"))
    throw std::runtime_error("no output file in " + spec.output_directory);
  report("output directory created at enddef");
}

// output.directory cannot be made: a file is where one of its parents should be.
void impossible_output_directory(const Options& o, const std::string& dir) {
  if (world_rank() == 0) std::ofstream(dir + "/a_file") << "not a directory\n";
  RunSpec spec = plain_run(dir, o);
  spec.output_directory = dir + "/a_file/output";
  run(spec, o, dir);
}

// The restart file's directory turns into a file during the run: finalize cannot write.
void restart_write_fails(const Options& o, const std::string& dir) {
  RunSpec spec = plain_run(dir, o, "    lag: 600\n");
  spec.output_directory = dir + "/out";
  CoupledRun r(spec, write_config(dir, spec, o));
  r.coupler().enddef();
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) {
    std::filesystem::remove_all(spec.output_directory);
    std::ofstream(spec.output_directory) << "not a directory\n";
  }
  if (r.atm()) r.put(-kPeriod);
  r.step_all([](double) {}, kPeriod);
  r.coupler().finalize();
}

const std::map<std::string, std::function<void(const Options&, const std::string&)>>& cases() {
  static const std::map<std::string, std::function<void(const Options&, const std::string&)>> all{
      {"throw", throw_in_user_code},
      {"return_early", return_early},
      {"skip_get", skip_a_get},
      {"sigkill", kill_a_rank},
      {"never_enddef", never_call_enddef},
      {"restart_size",
       [](const Options& o, const std::string& dir) {
         mismatched_restart(o, dir, [](RunSpec& s) { s.atm_points = s.ocn_points = kPoints + 4; });
       }},
      {"restart_field",
       [](const Options& o, const std::string& dir) {
         mismatched_restart(o, dir, [&](RunSpec& s) {
           s.atm_fields = {"t2"};
           s.exchanges = exchange("sst", "t2", "t_in", kPeriod, o.engine,
                                  "    lag: 600\n    restart: sst_restart.nc\n");
         });
       }},
      {"restart_time",
       [](const Options& o, const std::string& dir) {
         mismatched_restart(o, dir, [](RunSpec& s) { s.start = 1200; });
       }},
      {"restart_type",
       [](const Options& o, const std::string& dir) {
         mismatched_restart(o, dir, [](RunSpec& s) {
           s.atm_type = s.ocn_type = Datatype::Float32;
         });
       }},
      {"shared_restart", shared_restart},
      {"missing_output_directory", missing_output_directory},
      {"impossible_output_directory", impossible_output_directory},
      {"restart_write_fails", restart_write_fails},
      {"type_mismatch",
       [](const Options& o, const std::string& dir) {
         RunSpec s = plain_run(dir, o);
         s.ocn_type = Datatype::Float32;
         run(s, o, dir);
       }},
      // The first of two exchanges fails in its engine's set-up: every rank goes on to
      // the second one's and all raise the first one's error, naming it (the errors of
      // the links are agreed after the last one).
      {"engine_option_first_of_two",
       [](const Options& o, const std::string& dir) {
         RunSpec s;
         s.output_directory = dir;
         s.exchanges = exchange("sst", "t", "t_in", kPeriod, "rma",
                                "    engine_options: {shared_memory: maybe}\n") +
                       exchange("uo", "u", "u_in", kPeriod, o.engine);
         s.atm_fields = {"t", "u"};
         s.ocn_fields = {"t_in", "u_in"};
         run(s, o, dir);
       }},
      {"component_mismatch",
       [](const Options& o, const std::string& dir) {
         RunSpec s = plain_run(dir, o);
         s.atm_bundle = 2;
         run(s, o, dir);
       }},
  };
  return all;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = arg.substr(arg.find('=') + 1);
    if (arg.rfind("--case=", 0) == 0) o.name = value;
    else if (arg.rfind("--engine=", 0) == 0) o.engine = value;
    else if (arg.rfind("--watchdog=", 0) == 0) o.watchdog = std::stod(value);
    else if (arg.rfind("--collective=", 0) == 0) o.collective = std::stod(value);
    else if (arg.rfind("--on-error=", 0) == 0) o.finalize_on_error = value == "finalize";
    else throw std::invalid_argument("unknown argument " + arg);
  }
  if (cases().count(o.name) == 0) throw std::invalid_argument("unknown case \"" + o.name + "\"");
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Options options;
  try {
    options = parse(argc, argv);
    const std::string dir = scratch_directory();
    cases().at(options.name)(options, dir);
  } catch (const std::exception& e) {
    report(e.what());
    if (options.finalize_on_error) MPI_Finalize();
    return 1;
  }
  report("ok");
  MPI_Finalize();
  return 0;
}
