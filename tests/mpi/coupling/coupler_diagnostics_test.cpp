// Mistakes in using the coupler are caught before they turn into hangs, with the
// same error on every rank that makes them.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "coupling_fixture.hpp"
#include "ferry/coupler.hpp"
#include "test_support.hpp"

using ferry::Coupler;
using ferry::Datatype;
using ferry::Errc;
using ferry::FieldDirection;
using ferry::FieldId;
using ferry::Layout;
using namespace ferry_test;

namespace {

constexpr std::int64_t kN = 100;

std::string config(const std::string& dir, const std::string& target_field, double timeout = 30) {
  return "version: 1\nrun: {start: 0, length: 1000}\noutput: {directory: " + dir +
         ", timers: false}\nwatchdog: {timeout: " + std::to_string(timeout) +
         "}\nexchanges:\n  - name: x\n    source: {component: atm, field: out}\n    target: "
         "{component: ocn, field: " + target_field + "}\n    period: 200\n";
}

// A run with one field atm -> ocn; `target_field` names the field ocn declares.
struct CoupledRun {
  TwoComponents who;
  std::unique_ptr<Coupler> c;
  Layout atm, ocn;
  FieldId out, in;
  CoupledRun(const std::string& dir, const std::string& configured_target, double timeout = 30) {
    c = std::make_unique<Coupler>(MPI_COMM_WORLD, who.names(),
                                  write_config(dir, "c.yaml", config(dir, configured_target, timeout)));
    if (who.atm) {
      atm = Layout::block(kN, who.atm_size, who.atm_rank);
      out = c->def_field(c->def_partition(c->def_grid("atm", "g", kN), "p", atm), "out",
                         FieldDirection::Out, Datatype::Float64);
    }
    if (who.ocn) {
      ocn = Layout::round_robin(kN, who.ocn_size, who.ocn_rank);
      in = c->def_field(c->def_partition(c->def_grid("ocn", "g", kN), "p", ocn), "in",
                        FieldDirection::In, Datatype::Float64);
    }
  }
};

TEST(CouplerDiagnostics, FieldDeclaredByOneSideOnly) {
  CoupledRun run(scratch_directory(), "in_missing");
  expect_error([&] { run.c->enddef(); }, Errc::Arg,
               "exchange \"x\": component \"ocn\" does not declare the target field \"in_missing\" on any rank");
}

TEST(CouplerDiagnostics, TimeGoingBackwardsAndSkippedPeriods) {
  CoupledRun run(scratch_directory(), "in");
  run.c->enddef();
  std::vector<double> data(static_cast<std::size_t>(std::max(run.atm.local_size(), run.ocn.local_size())));
  if (run.who.atm) {
    run.c->put(run.out, 0, data.data());
    run.c->put(run.out, 100, data.data());
    expect_error([&] { run.c->put(run.out, 50, data.data()); }, Errc::Arg,
                 "put\\(\"out\"\\): time 50 s comes before the previous put at 100 s");
    expect_error([&] { run.c->put(run.out, 400, data.data()); }, Errc::State,
                 "skips the coupling time 200 s of exchange \"x\"");
  }
  if (run.who.ocn) {
    run.c->get(run.in, 0, data.data());
    expect_error([&] { run.c->get(run.in, 400, data.data()); }, Errc::State,
                 "get\\(\"in\"\\) at 400 s skips the coupling time 200 s");
  }
  // Every rank is done checking before any destroys its coupler unfinalized, which
  // tells the others that this rank gave up.
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(CouplerDiagnostics, UndeclaredFieldAndWrongDirection) {
  CoupledRun run(scratch_directory(), "in");
  run.c->enddef();
  double x = 0;
  expect_error([&] { run.c->put(FieldId{42}, 0, &x); }, Errc::Arg,
               "field id 42 was not returned by def_field on this rank");
  if (run.who.atm)
    expect_error([&] { run.c->get(run.out, 0, &x); }, Errc::Arg, "field \"out\" was declared Out; use put");
  MPI_Barrier(MPI_COMM_WORLD);  // as above
}

TEST(CouplerDiagnostics, WatchdogEndsAGetThatWouldHang) {
  // atm puts its first value late, after ocn's watchdog (1 s) has given up waiting;
  // ocn told every rank, so atm's put stops at once, naming ocn's failure.
  CoupledRun run(scratch_directory(), "in", 1.0);
  run.c->enddef();
  std::vector<double> data(static_cast<std::size_t>(std::max(run.atm.local_size(), run.ocn.local_size())));
  const std::string waited =
      "get for exchange \"x\" at time 0 s has waited 1 s for component \"atm\" to put it";
  const int p = size_of(MPI_COMM_WORLD);
  if (run.who.ocn && !run.who.atm) {
    expect_error([&] { run.c->get(run.in, 0, data.data()); }, Errc::State, waited);
    // Now (not on a timer, which a loaded machine would stretch) atm may put.
    for (int r = 0; r < run.who.atm_size; ++r) MPI_Send(nullptr, 0, MPI_BYTE, r, 0, MPI_COMM_WORLD);
  }
  if (run.who.atm && !run.who.ocn) {
    for (int r = run.who.atm_size; r < p; ++r)
      MPI_Recv(nullptr, 0, MPI_BYTE, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    expect_error([&] { run.c->put(run.out, 0, data.data()); }, Errc::State,
                 "stopped because component \"ocn\" \\(rank [0-9]+ of the run\\) failed in "
                 "Coupler::get: " + waited);
    expect_error([&] { run.c->finalize(); }, Errc::State,
                 "Coupler::finalize: the coupler failed earlier on this rank");
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(CouplerDiagnostics, BadConfigurationFailsOnEveryRank) {
  const std::string dir = scratch_directory();
  const auto path = write_config(dir, "bad.yaml", "version: 1\nrun: {start: 0, lenght: 10}\nexchanges: []\n");
  TwoComponents who;
  expect_error([&] { Coupler(MPI_COMM_WORLD, who.names(), path); }, Errc::Arg,
               "bad.yaml:2:[0-9]+: .*lenght.*did you mean \"length\"");
}

}  // namespace
