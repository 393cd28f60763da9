// The coupler's put/get semantics, each checked against values computed here:
// periods, transforms, lags with restart, bundles, aggregated fields, partitions on
// rank subsets, coupling inside one component.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "coupling_fixture.hpp"
#include "ferry/coupler.hpp"
#include "test_support.hpp"

using ferry::Coupler;
using ferry::Datatype;
using ferry::FieldDirection;
using ferry::FieldId;
using ferry::Layout;
using namespace ferry_test;

namespace {

constexpr std::int64_t kNx = 24, kNy = 10, kN = kNx * kNy;

std::string header(const std::string& dir, double start, double length) {
  return "version: 1\nrun:\n  start: " + std::to_string(start) + "\n  length: " +
         std::to_string(length) + "\noutput:\n  directory: " + dir +
         "\n  timers: false\nwatchdog:\n  timeout: 30\nexchanges:\n";
}

// The engine of every entry: the one under test (--engine; "auto" is the coupler's
// default, whose fields wait in the link's copies; p2p's wait in the engine).
std::string engine_line() { return "    engine: " + ferry_test::engine() + "\n"; }

std::string exchange(const std::string& name, const std::string& src, const std::string& dst,
                     double period, const std::string& extra = "") {
  return "  - name: " + name + "\n    source: {component: atm, " + src +
         "}\n    target: {component: ocn, " + dst + "}\n    period: " + std::to_string(period) +
         "\n" + engine_line() + extra;
}

// atm holds the grid in 2-D blocks, ocn dealt round-robin.
struct Grids {
  ferry::PartitionId atm, ocn;
  Layout atm_layout, ocn_layout;
};

Grids define_grids(Coupler& c, const TwoComponents& who) {
  Grids g;
  if (who.atm) {
    g.atm_layout = Layout::box(kNx, kNy, 1, who.atm_size, who.atm_rank);
    g.atm = c.def_partition(c.def_grid("atm", "agrid", kNx, kNy), "blocks", g.atm_layout);
  }
  if (who.ocn) {
    g.ocn_layout = Layout::round_robin(kN, who.ocn_size, who.ocn_rank);
    g.ocn = c.def_partition(c.def_grid("ocn", "ogrid", kNx, kNy), "cyclic", g.ocn_layout);
  }
  return g;
}

std::vector<double> values(const Layout& layout, double t, int bundle = 1, int member = 0) {
  std::vector<double> v;
  for (auto id : layout.ids())
    for (int b = 0; b < bundle; ++b) v.push_back(value_at(id, t, member + b));
  return v;
}

class CouplerTest : public testing::Test {
 protected:
  std::string dir_ = scratch_directory();
  TwoComponents who_;
};

TEST_F(CouplerTest, InstantExchangeAtCouplingTimesOnly) {
  const auto path = write_config(dir_, "c.yaml", header(dir_, 0, 1000) +
                                                     exchange("t", "field: t_atm", "field: t_ocn", 200));
  Coupler c(MPI_COMM_WORLD, who_.names(), path);
  Grids g = define_grids(c, who_);
  FieldId out, in;
  if (who_.atm) out = c.def_field(g.atm, "t_atm", FieldDirection::Out, Datatype::Float64);
  if (who_.ocn) in = c.def_field(g.ocn, "t_ocn", FieldDirection::In, Datatype::Float64);
  c.enddef();
  for (double t = 0; t < 1000; t += 100) {
    const bool coupling = static_cast<int>(t) % 200 == 0;
    if (who_.atm) {
      const auto v = values(g.atm_layout, t);
      EXPECT_EQ(c.put(out, t, v.data()), coupling ? ferry::kStatusSent : ferry::kStatusNothing) << t;
    }
    if (who_.ocn) {
      std::vector<double> got(static_cast<std::size_t>(g.ocn_layout.local_size()), -1.0);
      EXPECT_EQ(c.get(in, t, got.data()), coupling ? ferry::kStatusReceived : ferry::kStatusNothing) << t;
      EXPECT_EQ(got, coupling ? values(g.ocn_layout, t) : std::vector<double>(got.size(), -1.0)) << t;
    }
  }
  c.finalize();
}

TEST_F(CouplerTest, TimeTransformsOverEachPeriod) {
  std::string yaml = header(dir_, 0, 1200);
  const std::vector<std::string> kinds{"average", "accumulate", "min", "max"};
  for (const auto& k : kinds)
    yaml += exchange(k, "field: a_" + k, "field: o_" + k, 300, "    transform: " + k + "\n");
  Coupler c(MPI_COMM_WORLD, who_.names(), write_config(dir_, "c.yaml", yaml));
  Grids g = define_grids(c, who_);
  std::map<std::string, FieldId> out, in;
  for (const auto& k : kinds) {
    if (who_.atm) out[k] = c.def_field(g.atm, "a_" + k, FieldDirection::Out, Datatype::Float64);
    if (who_.ocn) in[k] = c.def_field(g.ocn, "o_" + k, FieldDirection::In, Datatype::Float64);
  }
  c.enddef();
  // Not monotonic in time, so min and max differ from first and last.
  auto put_value = [](std::int64_t id, double t) {
    const int step = static_cast<int>(t / 100);
    return static_cast<double>(id) + (step % 3 == 1 ? 7.0 : step);
  };
  // Expected: the puts of (c - 300, c], and only the put at 0 for c = 0.
  auto expected = [&](const std::string& k, std::int64_t id, double c0) {
    std::vector<double> window;
    for (double t = std::max(0.0, c0 - 200); t <= c0; t += 100) window.push_back(put_value(id, t));
    double sum = 0;
    for (double v : window) sum += v;
    if (k == "average") return sum / static_cast<double>(window.size());
    if (k == "accumulate") return sum;
    if (k == "min") return *std::min_element(window.begin(), window.end());
    return *std::max_element(window.begin(), window.end());
  };
  for (double t = 0; t < 1200; t += 100) {
    for (const auto& k : kinds) {
      if (who_.atm) {
        std::vector<double> v;
        for (auto id : g.atm_layout.ids()) v.push_back(put_value(id, t));
        const int status = c.put(out[k], t, v.data());
        EXPECT_EQ(status, static_cast<int>(t) % 300 == 0 ? ferry::kStatusSent : ferry::kStatusTransformed);
      }
      if (who_.ocn && static_cast<int>(t) % 300 == 0) {
        std::vector<double> got(static_cast<std::size_t>(g.ocn_layout.local_size()));
        EXPECT_EQ(c.get(in[k], t, got.data()), ferry::kStatusReceived);
        for (std::size_t i = 0; i < got.size(); ++i)
          ASSERT_EQ(got[i], expected(k, g.ocn_layout.ids()[i], t)) << k << " at " << t;
      }
    }
  }
  c.finalize();
}

TEST_F(CouplerTest, LagFromInitialPutThenFromRestart) {
  // Run 1 has no restart file: the source puts the first lagged value at start - lag.
  // Its last put (target 600, past the run) goes to the restart file read by run 2.
  const std::string entry = exchange("lagged", "field: l_atm", "field: l_ocn", 200, "    lag: 100\n");
  for (int run = 0; run < 2; ++run) {
    const double start = 600.0 * run;
    Coupler c(MPI_COMM_WORLD, who_.names(),
              write_config(dir_, "run.yaml", header(dir_, start, 600) + entry));
    Grids g = define_grids(c, who_);
    FieldId out, in;
    if (who_.atm) out = c.def_field(g.atm, "l_atm", FieldDirection::Out, Datatype::Float64);
    if (who_.ocn) in = c.def_field(g.ocn, "l_ocn", FieldDirection::In, Datatype::Float64);
    c.enddef();
    if (who_.atm && run == 0) {
      const auto v = values(g.atm_layout, start - 100);
      EXPECT_EQ(c.put(out, start - 100, v.data()), ferry::kStatusSent);
    }
    for (double t = start; t < start + 600; t += 100) {
      if (who_.ocn && static_cast<int>(t) % 200 == 0) {
        std::vector<double> got(static_cast<std::size_t>(g.ocn_layout.local_size()));
        const int status = c.get(in, t, got.data());
        const bool restart = t == start;  // put before the run: initial put or restart file
        EXPECT_EQ(status, ferry::kStatusReceived | (restart ? ferry::kStatusFromRestart : 0)) << t;
        EXPECT_EQ(got, values(g.ocn_layout, t - 100)) << "run " << run << " time " << t;
      }
      if (who_.atm) {
        const auto v = values(g.atm_layout, t);
        c.put(out, t, v.data());
      }
    }
    c.finalize();
  }
}

TEST_F(CouplerTest, BundlesAndAggregatedFields) {
  const auto path = write_config(
      dir_, "c.yaml",
      header(dir_, 0, 400) + exchange("pair", "fields: [u, v]", "fields: [u_in, v_in]", 100) +
          exchange("levels", "field: temp3d", "field: temp3d_in", 200));
  Coupler c(MPI_COMM_WORLD, who_.names(), path);
  Grids g = define_grids(c, who_);
  FieldId u, v, levels, u_in, v_in, levels_in;
  if (who_.atm) {
    u = c.def_field(g.atm, "u", FieldDirection::Out, Datatype::Float64);
    v = c.def_field(g.atm, "v", FieldDirection::Out, Datatype::Float64);
    levels = c.def_field(g.atm, "temp3d", FieldDirection::Out, Datatype::Float64, 3);
  }
  if (who_.ocn) {
    u_in = c.def_field(g.ocn, "u_in", FieldDirection::In, Datatype::Float64);
    v_in = c.def_field(g.ocn, "v_in", FieldDirection::In, Datatype::Float64);
    levels_in = c.def_field(g.ocn, "temp3d_in", FieldDirection::In, Datatype::Float64, 3);
  }
  c.enddef();
  for (double t = 0; t < 400; t += 100) {
    if (who_.atm) {
      const auto a = values(g.atm_layout, t, 1, 0), b = values(g.atm_layout, t, 1, 1);
      const auto l = values(g.atm_layout, t, 3, 2);
      c.put(u, t, a.data());
      c.put(v, t, b.data());
      c.put(levels, t, l.data());
    }
    if (who_.ocn) {
      const auto n = static_cast<std::size_t>(g.ocn_layout.local_size());
      std::vector<double> a(n), b(n), l(3 * n, -1.0);
      // Fields of one exchange may be got in any order; the first get receives both.
      EXPECT_EQ(c.get(v_in, t, b.data()), ferry::kStatusReceived);
      EXPECT_EQ(c.get(u_in, t, a.data()), ferry::kStatusReceived);
      EXPECT_EQ(a, values(g.ocn_layout, t, 1, 0));
      EXPECT_EQ(b, values(g.ocn_layout, t, 1, 1));
      c.get(levels_in, t, l.data());
      if (static_cast<int>(t) % 200 == 0) EXPECT_EQ(l, values(g.ocn_layout, t, 3, 2));
    }
  }
  c.finalize();
}

// source_factor and source_offset scale what the source sends, after the time
// transform (the OASIS BLASOLD); target_factor and target_offset what the target
// receives (BLASNEW); both in double precision, then in the field's type.
TEST_F(CouplerTest, ScalingOfTheValuesSentAndReceived) {
  const auto path = write_config(
      dir_, "c.yaml",
      header(dir_, 0, 600) +
          exchange("d", "field: d_atm", "field: d_ocn", 200,
                   "    source_factor: 0.1\n    source_offset: 273.15\n    target_factor: 3\n") +
          exchange("f", "field: f_atm", "field: f_ocn", 200,
                   "    transform: accumulate\n    source_factor: 2\n    source_offset: 1.5\n"
                   "    target_factor: 0.5\n    target_offset: -3\n"));
  Coupler c(MPI_COMM_WORLD, who_.names(), path);
  Grids g = define_grids(c, who_);
  FieldId d, f, d_in, f_in;
  if (who_.atm) {
    d = c.def_field(g.atm, "d_atm", FieldDirection::Out, Datatype::Float64);
    f = c.def_field(g.atm, "f_atm", FieldDirection::Out, Datatype::Float32);
  }
  if (who_.ocn) {
    d_in = c.def_field(g.ocn, "d_ocn", FieldDirection::In, Datatype::Float64);
    f_in = c.def_field(g.ocn, "f_ocn", FieldDirection::In, Datatype::Float32);
  }
  c.enddef();
  for (double t = 0; t < 600; t += 100) {
    if (who_.atm) {
      const auto v = values(g.atm_layout, t);
      const std::vector<float> v32(v.begin(), v.end());  // integers: exact
      c.put(d, t, v.data());
      c.put(f, t, v32.data());
    }
    if (who_.ocn && static_cast<int>(t) % 200 == 0) {
      const auto n = static_cast<std::size_t>(g.ocn_layout.local_size());
      std::vector<double> got(n, -1.0);
      std::vector<float> got32(n, -1.0F);
      EXPECT_EQ(c.get(d_in, t, got.data()), ferry::kStatusReceived);
      EXPECT_EQ(c.get(f_in, t, got32.data()), ferry::kStatusReceived);
      for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t id = g.ocn_layout.ids()[i];
        ASSERT_EQ(got[i], (value_at(id, t) * 0.1 + 273.15) * 3) << id << " at " << t;
        // The sum of the puts of (t - 200, t] (at 0, the put at 0), scaled once.
        double sum = static_cast<double>(static_cast<float>(value_at(id, t)));
        if (t > 0) sum += static_cast<double>(static_cast<float>(value_at(id, t - 100)));
        const auto sent = static_cast<float>(sum * 2 + 1.5);
        ASSERT_EQ(got32[i], static_cast<float>(static_cast<double>(sent) * 0.5 - 3)) << id << " at " << t;
      }
    }
  }
  c.finalize();
}

// Scaling multiplies real values: an integer field is refused at enddef on every rank.
TEST_F(CouplerTest, IntegerFieldsAreNotScaled) {
  const auto path = write_config(dir_, "c.yaml",
                                 header(dir_, 0, 600) + exchange("n", "field: n_atm", "field: n_ocn",
                                                                 200, "    target_offset: 1\n"));
  expect_same_error_everywhere(
      [&] {
        Coupler c(MPI_COMM_WORLD, who_.names(), path);
        Grids g = define_grids(c, who_);
        if (who_.atm) c.def_field(g.atm, "n_atm", FieldDirection::Out, Datatype::Int32);
        if (who_.ocn) c.def_field(g.ocn, "n_ocn", FieldDirection::In, Datatype::Int32);
        c.enddef();
      },
      ferry::Errc::Arg,
      "exchange \"n\": field \"n_atm\" is int32; source_factor, source_offset, target_factor "
      "and target_offset \\(BLASOLD, BLASNEW\\) scale real values, so scaled fields are float64 "
      "or float32");
}

TEST_F(CouplerTest, TargetPartitionOnASubsetOfRanks) {
  // Only the first ocn rank holds the target partition (the whole grid, e.g. for I/O).
  const auto path = write_config(dir_, "c.yaml", header(dir_, 0, 300) +
                                                     exchange("gather", "field: g_atm", "field: g_ocn", 100));
  Coupler c(MPI_COMM_WORLD, who_.names(), path);
  FieldId out, in;
  Layout atm_layout, all;
  ferry::PartitionId atm_part, io_part;
  if (who_.atm) {
    atm_layout = Layout::block(kN, who_.atm_size, who_.atm_rank);
    atm_part = c.def_partition(c.def_grid("atm", "agrid", kN), "blocks", atm_layout);
    out = c.def_field(atm_part, "g_atm", FieldDirection::Out, Datatype::Float64);
  }
  if (who_.ocn && who_.ocn_rank == 0) {
    all = Layout::block(kN, 1, 0);
    io_part = c.def_partition(c.def_grid("ocn", "ogrid", kN), "io", all);
    in = c.def_field(io_part, "g_ocn", FieldDirection::In, Datatype::Float64);
  }
  c.enddef();
  for (double t = 0; t < 300; t += 100) {
    if (who_.atm) c.put(out, t, values(atm_layout, t).data());
    if (who_.ocn && who_.ocn_rank == 0) {
      std::vector<double> got(kN);
      c.get(in, t, got.data());
      EXPECT_EQ(got, values(all, t));
    }
  }
  c.finalize();
}

// A component whose first rank (of 2 or more) holds no point: atm in blocks over the
// others, ocn dealt round-robin over them (so every source sends to every target).
bool holds_points(int size, int rank) { return size == 1 || rank > 0; }

Layout blocks_but_first(int size, int rank) {
  return size == 1 ? Layout::block(kN, 1, 0)
                   : rank == 0 ? Layout::points(kN, {}) : Layout::block(kN, size - 1, rank - 1);
}

Layout round_robin_but_first(int size, int rank) {
  return size == 1 ? Layout::round_robin(kN, 1, 0)
                   : rank == 0 ? Layout::points(kN, {})
                               : Layout::round_robin(kN, size - 1, rank - 1);
}

TEST_F(CouplerTest, MembersHoldingNoPointSkipTheirPutsAndGets) {
  // OASIS lets a rank whose partition holds no point skip its puts and gets: the
  // first rank of each component (of 2 or more) holds none and never calls them, for
  // an entry of one field and a grouped entry of two.
  // Adaptive times its candidates on every rank, so it cannot serve such partitions.
  if (ferry_test::engine() == "auto") GTEST_SKIP() << "adaptive needs every member";
  if (world_size() < 3) GTEST_SKIP() << "needs 3 or more ranks";
  const auto path = write_config(
      dir_, "c.yaml",
      header(dir_, 0, 500) + exchange("one", "field: a1", "field: o1", 100) +
          exchange("two", "fields: [a2, a3]", "fields: [o2, o3]", 100));
  Coupler c(MPI_COMM_WORLD, who_.names(), path);
  Layout atm_layout, ocn_layout;
  std::vector<FieldId> out, in;
  if (who_.atm) {
    atm_layout = blocks_but_first(who_.atm_size, who_.atm_rank);
    const auto p = c.def_partition(c.def_grid("atm", "agrid", kN), "blocks", atm_layout);
    for (const char* name : {"a1", "a2", "a3"})
      out.push_back(c.def_field(p, name, FieldDirection::Out, Datatype::Float64));
  }
  if (who_.ocn) {
    ocn_layout = round_robin_but_first(who_.ocn_size, who_.ocn_rank);
    const auto p = c.def_partition(c.def_grid("ocn", "ogrid", kN), "cyclic", ocn_layout);
    for (const char* name : {"o1", "o2", "o3"})
      in.push_back(c.def_field(p, name, FieldDirection::In, Datatype::Float64));
  }
  c.enddef();
  for (double t = 0; t < 500; t += 100) {
    if (who_.atm && holds_points(who_.atm_size, who_.atm_rank))
      for (int f = 0; f < 3; ++f)
        c.put(out[f], t, values(atm_layout, t, 1, f).data());
    if (who_.ocn && holds_points(who_.ocn_size, who_.ocn_rank))
      for (int f = 0; f < 3; ++f) {
        std::vector<double> got(static_cast<std::size_t>(ocn_layout.local_size()), -1.0);
        EXPECT_EQ(c.get(in[f], t, got.data()), ferry::kStatusReceived) << f << " at " << t;
        EXPECT_EQ(got, values(ocn_layout, t, 1, f)) << f << " at " << t;
      }
  }
  c.finalize();
}

TEST_F(CouplerTest, MembersHoldingNoPointSkipPutsOfEntriesThatWriteFiles) {
  // As above, for entries whose source writes files: a lag and an average sharing a
  // restart file, both with output files. The ranks that hold points write them; the
  // second run starts from the restart file the first one wrote, to the last bit.
  if (ferry_test::engine() == "auto") GTEST_SKIP() << "adaptive needs every member";
  const std::string files = "    restart: shared_restart.nc\n    output: true\n";
  const std::string entries =
      exchange("lagged", "field: a1", "field: o1", 100, "    lag: 100\n" + files) +
      exchange("averaged", "field: a2", "field: o2", 200, "    transform: average\n" + files);
  const bool atm_holds = who_.atm && holds_points(who_.atm_size, who_.atm_rank);
  const bool ocn_holds = who_.ocn && holds_points(who_.ocn_size, who_.ocn_rank);
  for (int run = 0; run < 2; ++run) {
    const double start = 400.0 * run;
    Coupler c(MPI_COMM_WORLD, who_.names(),
              write_config(dir_, "run.yaml", header(dir_, start, 400) + entries));
    Layout atm_layout, ocn_layout;
    FieldId a1, a2, o1, o2;
    if (who_.atm) {
      atm_layout = blocks_but_first(who_.atm_size, who_.atm_rank);
      const auto p = c.def_partition(c.def_grid("atm", "agrid", kN), "blocks", atm_layout);
      a1 = c.def_field(p, "a1", FieldDirection::Out, Datatype::Float64);
      a2 = c.def_field(p, "a2", FieldDirection::Out, Datatype::Float64);
    }
    if (who_.ocn) {
      ocn_layout = round_robin_but_first(who_.ocn_size, who_.ocn_rank);
      const auto p = c.def_partition(c.def_grid("ocn", "ogrid", kN), "cyclic", ocn_layout);
      o1 = c.def_field(p, "o1", FieldDirection::In, Datatype::Float64);
      o2 = c.def_field(p, "o2", FieldDirection::In, Datatype::Float64);
    }
    c.enddef();
    // Without a restart file, the lagged entry's first value is a put at start - lag.
    if (atm_holds && run == 0) c.put(a1, -100, values(atm_layout, -100).data());
    const auto n = static_cast<std::size_t>(ocn_layout.local_size());
    for (double t = start; t < start + 400; t += 100) {
      if (ocn_holds) {
        std::vector<double> got(n, -1.0);
        const int status = c.get(o1, t, got.data());
        EXPECT_EQ(status & ferry::kStatusFromRestart, t == start ? ferry::kStatusFromRestart : 0) << t;
        EXPECT_EQ(got, values(ocn_layout, t - 100)) << "run " << run << ", lagged at " << t;
      }
      if (atm_holds) {
        c.put(a1, t, values(atm_layout, t).data());
        c.put(a2, t, values(atm_layout, t).data());
      }
      if (ocn_holds && static_cast<int>(t) % 200 == 0) {
        // The puts of (t - 200, t]; the second run's first period began in the first.
        std::vector<double> got(n, -1.0), mean = values(ocn_layout, t);
        if (t > 0) {
          const auto before = values(ocn_layout, t - 100);
          for (std::size_t i = 0; i < n; ++i) mean[i] = (before[i] + mean[i]) / 2;
        }
        EXPECT_NE(c.get(o2, t, got.data()) & ferry::kStatusReceived, 0) << t;
        EXPECT_EQ(got, mean) << "run " << run << ", averaged at " << t;
      }
    }
    c.finalize();
  }
}

TEST_F(CouplerTest, CouplingInsideOneComponentOnOverlappingRanks) {
  // Physics on every rank, I/O on rank 0 only: rank 0 puts and gets the same exchange.
  const auto path = write_config(
      dir_, "c.yaml",
      "version: 1\nrun: {start: 0, length: 300}\noutput: {directory: " + dir_ +
          ", timers: false}\nexchanges:\n  - name: phys_to_io\n    source: {component: model, "
          "field: state}\n    target: {component: model, field: state_io}\n    period: 100\n");
  Coupler c(MPI_COMM_WORLD, {"model"}, path);
  const auto grid = c.def_grid("model", "mesh", kN);
  const Layout phys = Layout::round_robin(kN, world_size(), world_rank());
  const FieldId state = c.def_field(c.def_partition(grid, "phys", phys), "state",
                                    FieldDirection::Out, Datatype::Float64);
  Layout io;
  FieldId state_io;
  if (world_rank() == 0) {
    io = Layout::block(kN, 1, 0);
    state_io = c.def_field(c.def_partition(grid, "io", io), "state_io", FieldDirection::In,
                           Datatype::Float64);
  }
  c.enddef();
  for (double t = 0; t < 300; t += 100) {
    c.put(state, t, values(phys, t).data());
    if (world_rank() == 0) {
      std::vector<double> got(kN);
      EXPECT_EQ(c.get(state_io, t, got.data()), ferry::kStatusReceived);
      EXPECT_EQ(got, values(io, t));
    }
  }
  c.finalize();
}

TEST_F(CouplerTest, AggregatedFieldsInsideOneComponentWithLagAndAverage) {
  // Rank 0 puts and gets both fields of one entry, and holds its own points on both
  // sides: they wait between put and send, and between receive and get.
  const auto path = write_config(
      dir_, "c.yaml",
      "version: 1\nrun: {start: 0, length: 600}\noutput: {directory: " + dir_ +
          ", timers: false}\nexchanges:\n  - name: phys_to_io\n    source: {component: model, "
          "fields: [u, v]}\n    target: {component: model, fields: [u_io, v_io]}\n    period: 200\n"
          "    lag: 100\n    transform: average\n" + engine_line());
  Coupler c(MPI_COMM_WORLD, {"model"}, path);
  const auto grid = c.def_grid("model", "mesh", kN);
  const Layout phys = Layout::round_robin(kN, world_size(), world_rank());
  const auto phys_part = c.def_partition(grid, "phys", phys);
  const FieldId u = c.def_field(phys_part, "u", FieldDirection::Out, Datatype::Float64);
  const FieldId v = c.def_field(phys_part, "v", FieldDirection::Out, Datatype::Float64, 2);
  Layout io;
  FieldId u_io, v_io;
  if (world_rank() == 0) {
    io = Layout::block(kN, 1, 0);
    const auto io_part = c.def_partition(grid, "io", io);
    u_io = c.def_field(io_part, "u_io", FieldDirection::In, Datatype::Float64);
    v_io = c.def_field(io_part, "v_io", FieldDirection::In, Datatype::Float64, 2);
  }
  c.enddef();
  // The average of the puts at t - 100 and t (coupling puts at 100, 300, ...), and the
  // put at start - lag = -100 alone for the first target.
  auto average = [](const Layout& layout, double t, int bundle, int member) {
    const auto a = values(layout, t, bundle, member);
    if (t < 0) return a;
    const auto b = values(layout, t - 100, bundle, member);
    std::vector<double> mean(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) mean[i] = (a[i] + b[i]) / 2;
    return mean;
  };
  c.put(u, -100, values(phys, -100).data());
  c.put(v, -100, values(phys, -100, 2, 1).data());
  for (double t = 0; t < 600; t += 100) {
    if (world_rank() == 0 && static_cast<int>(t) % 200 == 0) {
      std::vector<double> got_u(kN), got_v(2 * kN);
      // Fields of the entry in reverse order: the first get receives both.
      EXPECT_EQ(c.get(v_io, t, got_v.data()) & ferry::kStatusReceived, ferry::kStatusReceived);
      EXPECT_EQ(c.get(u_io, t, got_u.data()) & ferry::kStatusReceived, ferry::kStatusReceived);
      EXPECT_EQ(got_u, average(io, t - 100, 1, 0)) << "at " << t;
      EXPECT_EQ(got_v, average(io, t - 100, 2, 1)) << "at " << t;
    }
    c.put(u, t, values(phys, t).data());
    c.put(v, t, values(phys, t, 2, 1).data());
  }
  c.finalize();
}

}  // namespace
