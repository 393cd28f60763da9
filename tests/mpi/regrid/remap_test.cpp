// Remap with CDO-made weights: equal to `cdo remap` within 2 ulp, conservative remapping
// exact for a constant and conserving the area integral, and bfb mode giving the same
// bits as a serial reference on every rank count, engine, layout and map_on choice.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ferry/remap.hpp"
#include "ferry/weights.hpp"
#include "regrid_test_files.hpp"
#include "test_support.hpp"

using ferry::Datatype;
using ferry::FieldSpec;
using ferry::Layout;
using ferry::MapOn;
using ferry::Remap;
using ferry::RemapMode;
using ferry::RemapOptions;
using ferry::Weights;
using regrid_test::data_path;
using ferry_test::rank_of;
using ferry_test::size_of;

namespace {

// CDO's missing value, which `cdo remap` writes where a row has no links.
constexpr double kCdoMissing = -9e33;

const auto* const kRequireData = testing::AddGlobalTestEnvironment(new regrid_test::RequireCdoData);

RemapOptions options_for(MapOn map_on, RemapMode mode, double fill = 0) {
  RemapOptions o;
  o.map_on = map_on;
  o.mode = mode;
  o.fill_value = fill;
  o.engine = ferry_test::engine();
  o.engine_options = ferry_test::engine_options();
  return o;
}

// Values of a whole field at the ids a layout holds, `components` per point.
template <class T>
std::vector<T> at_ids(const std::vector<double>& whole, const Layout& layout, int components) {
  std::vector<T> local;
  for (std::int64_t id : layout.ids())
    for (int c = 0; c < components; ++c)
      local.push_back(static_cast<T>(whole[static_cast<std::size_t>(id * components + c)]));
  return local;
}

const char* name_of(MapOn m) { return m == MapOn::Src ? "src" : "dst"; }

// ---------------------------------------------------------------- (a) against cdo remap

struct CdoCase {
  const char* weights;
  const char* field;
  const char* reference;
};

const CdoCase kCdoCases[] = {
    {"w_con.nc", "src.nc", "ref_con.nc"},
    {"w_ycon.nc", "src.nc", "ref_ycon.nc"},
    {"w_bil.nc", "src.nc", "ref_bil.nc"},
    {"w_dis.nc", "src.nc", "ref_dis.nc"},
    {"w_nn.nc", "src.nc", "ref_nn.nc"},
    {"w_con_masked.nc", "src_masked.nc", "ref_con_masked.nc"},
    {"w_con_back.nc", "src_n16.nc", "ref_con_back.nc"},
};

TEST(RemapCdo, EqualsCdoRemapWithin2Ulp) {
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  for (const CdoCase& c : kCdoCases) {
    const Weights w = Weights::read(MPI_COMM_WORLD, data_path(c.weights));
    const std::vector<double> field = regrid_test::read_all(data_path(c.field), "f");
    const std::vector<double> reference = regrid_test::read_all(data_path(c.reference), "f");
    ASSERT_EQ(static_cast<std::int64_t>(reference.size()), w.dst_size());
    const Layout src = Layout::random(w.src_size(), p, me, 11);
    const Layout dst = Layout::random(w.dst_size(), p, me, 12);
    const std::vector<double> x = at_ids<double>(field, src, 1);
    for (MapOn map_on : {MapOn::Dst, MapOn::Src}) {
      SCOPED_TRACE(std::string(c.weights) + " map_on " + name_of(map_on));
      Remap remap(MPI_COMM_WORLD, w, src, dst, {{Datatype::Float64, 1}},
                  options_for(map_on, RemapMode::Bfb, kCdoMissing));
      std::vector<double> y(static_cast<std::size_t>(dst.local_size()));
      const double* in = x.data();
      double* out = y.data();
      remap.apply(&in, &out);
      for (std::size_t i = 0; i < y.size(); ++i) {
        const double want = reference[static_cast<std::size_t>(dst.ids()[i])];
        ASSERT_LE(regrid_test::ulps(y[i], want), 2)
            << "point " << dst.ids()[i] << ": ferry " << y[i] << ", cdo " << want;
      }
    }
  }
}

// ------------------------------------------- (b) first-order conservative remapping

TEST(RemapCdo, ConservativeIsExactForAConstantAndConservesTheIntegral) {
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  for (const char* file : {"w_con.nc", "w_con_back.nc"}) {
    SCOPED_TRACE(file);
    const Weights w = Weights::read(MPI_COMM_WORLD, data_path(file));
    const Layout src = Layout::random(w.src_size(), p, me, 21);
    const Layout dst = Layout::random(w.dst_size(), p, me, 22);
    Remap remap(MPI_COMM_WORLD, w, src, dst, {{Datatype::Float64, 1}},
                options_for(MapOn::Dst, RemapMode::Bfb));
    const std::vector<double> x(static_cast<std::size_t>(src.local_size()), 1.0);
    std::vector<double> y(static_cast<std::size_t>(dst.local_size()));
    const double* in = x.data();
    double* out = y.data();
    remap.apply(&in, &out);
    for (std::size_t i = 0; i < y.size(); ++i)
      ASSERT_NEAR(y[i], 1.0, 1e-14) << "destination point " << dst.ids()[i];

    // Areas and covered fractions from the weight file, delivered at the layouts' points:
    // the weights conserve the integral over the covered part of each cell.
    const ferry::GridPointData& a = remap.src_points();
    const ferry::GridPointData& b = remap.dst_points();
    ASSERT_TRUE(a.area && a.frac && b.area && b.frac);
    // Summed in long double, so the test's own sums add no error near 1e-14.
    long double sums[2] = {0, 0};
    for (std::size_t i = 0; i < x.size(); ++i)
      sums[0] += static_cast<long double>((*a.area)[i] * (*a.frac)[i]) * x[i];
    for (std::size_t i = 0; i < y.size(); ++i)
      sums[1] += static_cast<long double>((*b.area)[i] * (*b.frac)[i]) * y[i];
    long double total[2] = {0, 0};
    MPI_Allreduce(sums, total, 2, MPI_LONG_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_NEAR(static_cast<double>(total[1] / total[0]), 1.0, 1e-14)
        << "source integral " << static_cast<double>(total[0]) << ", destination integral "
        << static_cast<double>(total[1]);
    EXPECT_NEAR(static_cast<double>(total[0]), 4 * M_PI, 1e-12);  // square radians of the sphere
  }
}

// ---------------------------------------------------- (c) bit-for-bit reproducibility

// Which ranks hold the source and destination points, and how.
enum class Placement {
  Random,      // both layouts dealt at random over all ranks
  Disjoint,    // source on the first half of the ranks, destination on the rest
  Duplicates,  // destination points asked for by two ranks (one rank twice when alone)
};

const char* name_of(Placement p) {
  return p == Placement::Random ? "random" : p == Placement::Disjoint ? "disjoint" : "duplicates";
}

std::pair<Layout, Layout> layouts_for(Placement placement, const Weights& w, int p, int me) {
  if (placement == Placement::Disjoint && p > 1) {
    const int ns = (p + 1) / 2;
    const Layout src =
        me < ns ? Layout::random(w.src_size(), ns, me, 31) : Layout::none(w.src_size());
    const Layout dst = me >= ns ? Layout::random(w.dst_size(), p - ns, me - ns, 32)
                                : Layout::none(w.dst_size());
    return {src, dst};
  }
  const Layout src = Layout::random(w.src_size(), p, me, 33);
  Layout dst = Layout::random(w.dst_size(), p, me, 34);
  if (placement == Placement::Duplicates) {
    std::vector<std::int64_t> ids = dst.ids();
    const Layout next = Layout::random(w.dst_size(), p, (me + 1) % p, 34);
    for (std::int64_t id : next.ids())
      if (id % 5 == 0) ids.push_back(id);
    dst = Layout::points(w.dst_size(), ids);
  }
  return {src, dst};
}

// The value of test field f at source point gid, component c, in round r.
double value_of(std::int64_t gid, int f, int c, int round) {
  return 2 + std::sin(0.37 * static_cast<double>(gid) + f + 0.5 * c + round);
}

// Applies the weights to two fields (float64 x 3 components, float32) on the given
// communicator and compares with the serial reference: same bits (bfb) or within
// round-off (sum).
void check_against_serial(MPI_Comm comm, const std::string& file, Placement placement,
                          MapOn map_on, RemapMode mode) {
  SCOPED_TRACE(file + " " + name_of(placement) + " map_on " + name_of(map_on) +
               (mode == RemapMode::Bfb ? " bfb" : " sum"));
  const int p = size_of(comm);
  const int me = rank_of(comm);
  const Weights w = Weights::read(comm, data_path(file));
  const regrid_test::SerialMatrix m = regrid_test::read_scrip(data_path(file));
  const auto [src, dst] = layouts_for(placement, w, p, me);
  const std::vector<FieldSpec> fields{{Datatype::Float64, 3}, {Datatype::Float32, 1}};
  const double fill = -1;
  Remap remap(comm, w, src, dst, fields, options_for(map_on, mode, fill));

  for (int round = 0; round < 2; ++round) {
    std::vector<double> whole[2];
    for (int f = 0; f < 2; ++f)
      for (std::int64_t gid = 0; gid < m.src_size; ++gid)
        for (int c = 0; c < fields[static_cast<std::size_t>(f)].components; ++c) {
          const double v = value_of(gid, f, c, round);
          whole[f].push_back(f == 1 ? static_cast<double>(static_cast<float>(v)) : v);
        }
    const std::vector<double> x0 = at_ids<double>(whole[0], src, 3);
    const std::vector<float> x1 = at_ids<float>(whole[1], src, 1);
    std::vector<double> y0(static_cast<std::size_t>(dst.local_size()) * 3);
    std::vector<float> y1(static_cast<std::size_t>(dst.local_size()));
    const void* in[2] = {x0.data(), x1.data()};
    void* out[2] = {y0.data(), y1.data()};
    remap.begin(in, out);
    remap.end();

    const std::vector<double> want0 = regrid_test::serial_remap(m, whole[0], 3, fill);
    const std::vector<double> want1 = regrid_test::serial_remap(m, whole[1], 1, fill);
    // Round-off bound for sum mode: a few ulp of the sum of |terms| of a row.
    std::vector<double> magnitude(static_cast<std::size_t>(m.dst_size), 0.0);
    for (std::size_t k = 0; k < m.row.size(); ++k)
      magnitude[static_cast<std::size_t>(m.row[k])] += std::fabs(m.weight[k]) * 3;
    for (std::size_t i = 0; i < dst.ids().size(); ++i) {
      const auto id = static_cast<std::size_t>(dst.ids()[i]);
      for (std::size_t c = 0; c < 3; ++c) {
        const double got = y0[i * 3 + c];
        const double want = want0[id * 3 + c];
        if (mode == RemapMode::Bfb)
          ASSERT_EQ(std::memcmp(&got, &want, sizeof got), 0)
              << "point " << id << " component " << c << ": " << got << " vs serial " << want
              << " (" << regrid_test::ulps(got, want) << " ulp)";
        else
          ASSERT_NEAR(got, want, 4e-15 * magnitude[id]) << "point " << id;
      }
      const float got1 = y1[i];
      const auto want1f = static_cast<float>(want1[id]);
      if (mode == RemapMode::Bfb)
        ASSERT_EQ(std::memcmp(&got1, &want1f, sizeof got1), 0) << "float32 point " << id;
      else
        ASSERT_NEAR(got1, want1f, 2e-7 * (magnitude[id] + 1)) << "float32 point " << id;
    }
  }
}

// A communicator with the ranks in reverse order: a hidden use of MPI_COMM_WORLD
// inside the library shows up as wrong values.
class Reversed {
 public:
  Reversed() {
    MPI_Comm_split(MPI_COMM_WORLD, 0, size_of(MPI_COMM_WORLD) - rank_of(MPI_COMM_WORLD), &comm_);
  }
  ~Reversed() { MPI_Comm_free(&comm_); }
  MPI_Comm get() const { return comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

TEST(RemapBfb, SameBitsAsSerialOnAnyDecomposition) {
  const Reversed comm;
  for (const char* file : {"w_con.nc", "w_bil.nc", "w_nn.nc", "w_con_masked.nc", "w_con_back.nc"})
    for (Placement placement : {Placement::Random, Placement::Disjoint, Placement::Duplicates})
      for (MapOn map_on : {MapOn::Dst, MapOn::Src})
        check_against_serial(comm.get(), file, placement, map_on, RemapMode::Bfb);
}

TEST(RemapSum, EqualsSerialWithinRoundOff) {
  for (const char* file : {"w_con.nc", "w_dis.nc", "w_con_back.nc"})
    for (Placement placement : {Placement::Random, Placement::Disjoint, Placement::Duplicates})
      for (MapOn map_on : {MapOn::Src, MapOn::Dst})
        check_against_serial(MPI_COMM_WORLD, file, placement, map_on, RemapMode::Sum);
}

// Masked destination points and rows without links keep the fill value.
TEST(RemapBfb, DestinationMaskKeepsTheFillValue) {
  const int p = size_of(MPI_COMM_WORLD);
  const int me = rank_of(MPI_COMM_WORLD);
  const Weights w = Weights::read(MPI_COMM_WORLD, data_path("w_con_masked.nc"));
  const regrid_test::SerialMatrix m = regrid_test::read_scrip(data_path("w_con_masked.nc"));
  const Layout src = Layout::block(w.src_size(), p, me);
  const Layout dst = Layout::round_robin(w.dst_size(), p, me);
  for (MapOn map_on : {MapOn::Dst, MapOn::Src}) {
    RemapOptions o = options_for(map_on, RemapMode::Bfb, 1e20);
    for (std::int64_t id : dst.ids()) o.dst_mask.push_back(id % 3 == 0 ? 1 : 0);
    Remap remap(MPI_COMM_WORLD, w, src, dst, {{Datatype::Float64, 1}}, o);
    std::vector<double> whole;
    for (std::int64_t gid = 0; gid < w.src_size(); ++gid) whole.push_back(value_of(gid, 0, 0, 0));
    const std::vector<double> x = at_ids<double>(whole, src, 1);
    std::vector<double> y(static_cast<std::size_t>(dst.local_size()), 0.0);
    const double* in = x.data();
    double* out = y.data();
    remap.apply(&in, &out);
    const std::vector<double> want = regrid_test::serial_remap(m, whole, 1, 1e20);
    std::int64_t filled = 0;
    for (std::size_t i = 0; i < y.size(); ++i) {
      const std::int64_t id = dst.ids()[i];
      EXPECT_EQ(y[i], id % 3 == 0 ? 1e20 : want[static_cast<std::size_t>(id)]) << "point " << id;
      filled += y[i] == 1e20 ? 1 : 0;
    }
    std::int64_t total = 0;
    MPI_Allreduce(&filled, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_GT(total, w.dst_size() / 3);  // the mask and the rows without links
  }
}

}  // namespace
