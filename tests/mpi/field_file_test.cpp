// FieldFile: restart files read back bit for bit on another decomposition, output
// files grow by one time slice per append, and every error reaches every rank with
// the same code and message.
#include <gtest/gtest.h>
#include <mpi.h>
#include <netcdf.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "coupling/field_file.hpp"
#include "ferry/error.hpp"
#include "test_support.hpp"

using ferry::Comm;
using ferry::Datatype;
using ferry::Errc;
using ferry::Layout;
using ferry::coupling::FieldFile;
using ferry::coupling::FieldRecord;
using ferry_test::rank_of;
using ferry_test::size_of;

namespace {

// File names carry the rank count, so the ctest entries of this test can run at once.
std::string file_name(const std::string& stem) {
  return "field_file_" + stem + "_np" + std::to_string(size_of(MPI_COMM_WORLD)) + ".nc";
}

// Removes the file when the test ends, after every rank is done with it.
class ScratchFile {
 public:
  explicit ScratchFile(const std::string& stem) : path_(file_name(stem)) {}
  ~ScratchFile() {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank_of(MPI_COMM_WORLD) == 0) std::remove(path_.c_str());
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The bits of field `key` at (gid, c): a hash, so the float types see NaNs with
// payloads, infinities, -0 and subnormals, all of which must survive the round trip.
std::uint64_t bits_of(int key, std::int64_t gid, int c) {
  std::uint64_t z = (static_cast<std::uint64_t>(key) << 48) ^
                    (static_cast<std::uint64_t>(gid) << 4) ^ static_cast<std::uint64_t>(c);
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// The values a rank holds of field `key` on `ids`: the first bytes of bits_of per value.
std::vector<unsigned char> values_of(int key, const std::vector<std::int64_t>& ids,
                                     const FieldRecord& record) {
  const std::size_t size = ferry::datatype_size(record.type);
  std::vector<unsigned char> values(ids.size() * static_cast<std::size_t>(record.components) *
                                    size);
  std::size_t k = 0;
  for (std::int64_t gid : ids) {
    for (int c = 0; c < record.components; ++c, ++k) {
      const std::uint64_t bits = bits_of(key, gid, c);
      std::memcpy(values.data() + k * size, &bits, size);
    }
  }
  return values;
}

// Expects the bytes to be equal, naming the first value that differs.
void expect_same_bytes(const std::vector<unsigned char>& got,
                       const std::vector<unsigned char>& want, std::size_t value_size,
                       const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  const auto diff = std::mismatch(got.begin(), got.end(), want.begin());
  EXPECT_TRUE(diff.first == got.end())
      << what << ": value " << (diff.first - got.begin()) / static_cast<long>(value_size)
      << " differs";
}

FieldRecord record(const std::string& name, std::int64_t size, int components, Datatype type,
                   double time) {
  FieldRecord r;
  r.name = name;
  r.grid = "ocean";
  r.global_size = size;
  r.components = components;
  r.type = type;
  r.time = time;
  return r;
}

// Writes one float64 field on block layouts; the file the error tests read.
void write_sst(const std::string& path, double time) {
  const int p = size_of(MPI_COMM_WORLD), r = rank_of(MPI_COMM_WORLD);
  const FieldRecord sst = record("sst", 40, 1, Datatype::Float64, time);
  const Layout layout = Layout::block(40, p, r);
  const std::vector<unsigned char> values = values_of(0, layout.ids(), sst);
  FieldFile::write(Comm::view(MPI_COMM_WORLD), path, {sst}, {&layout}, {values.data()});
}

// Rank 0 writes a NetCDF file with field "sst" and, if `version` is not empty, that format version.
void write_foreign_file(const std::string& path, const std::string& version) {
  if (rank_of(MPI_COMM_WORLD) == 0) {
    int id = 0, dim = 0, var = 0;
    ASSERT_EQ(nc_create(path.c_str(), NC_NETCDF4 | NC_CLOBBER, &id), NC_NOERR);
    if (!version.empty())
      nc_put_att_text(id, NC_GLOBAL, "ferry_format_version", version.size(), version.data());
    nc_def_dim(id, "sst_points", 40, &dim);
    nc_def_var(id, "sst", NC_DOUBLE, 1, &dim, &var);
    ASSERT_EQ(nc_close(id), NC_NOERR);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

const Datatype kTypes[] = {Datatype::Float64, Datatype::Float32, Datatype::Int32,
                           Datatype::Int64};

TEST(FieldFile, RestartOnAnotherDecompositionIsBitIdentical) {
  const int p = size_of(MPI_COMM_WORLD), r = rank_of(MPI_COMM_WORLD);
  ScratchFile file("restart");

  // Every type with 1 and 3 components; the two fields of a type have one size.
  std::vector<FieldRecord> records;
  for (Datatype type : kTypes) {
    for (int components : {1, 3}) {
      const int key = static_cast<int>(records.size());
      FieldRecord rec = record("f" + std::to_string(key), 61 + key / 2, components, type, 86400);
      rec.grid = components == 1 ? "ocean_t" : "ocean_levels";
      rec.numbers = {{"accumulated", key}, {"weight", 0.25}};
      records.push_back(rec);
    }
  }
  // The writers are all ranks but the last, the readers all but the first, each in
  // its own random decomposition. The two fields of a type share one layout object
  // (one exchange for both) for float64 and float32 on every rank, for int32 on
  // rank 0 only (so they must not share), and never for int64.
  const bool writer = p == 1 || r < p - 1, reader = p <= 2 || r > 0;
  const int writers = std::max(p - 1, 1), readers = p <= 2 ? p : p - 1;
  std::vector<Layout> owned;
  owned.reserve(2 * records.size());
  std::vector<const Layout*> write_layouts, read_layouts;
  for (std::size_t f = 0; f < records.size(); ++f) {
    const std::int64_t n = records[f].global_size;
    const Datatype type = records[f].type;
    const bool share = records[f].components == 3 &&
                       (type == Datatype::Float64 || type == Datatype::Float32 ||
                        (type == Datatype::Int32 && r == 0));
    if (share) {
      write_layouts.push_back(write_layouts.back());
      read_layouts.push_back(read_layouts.back());
      continue;
    }
    owned.push_back(writer ? Layout::random(n, writers, r, 11) : Layout::none(n));
    write_layouts.push_back(&owned.back());
    owned.push_back(reader ? Layout::random(n, readers, p <= 2 ? r : r - 1, 23)
                           : Layout::none(n));
    read_layouts.push_back(&owned.back());
  }
  std::vector<std::vector<unsigned char>> written;
  std::vector<const void*> data;
  for (std::size_t f = 0; f < records.size(); ++f) {
    written.push_back(values_of(static_cast<int>(f), write_layouts[f]->ids(), records[f]));
    data.push_back(written.back().data());
  }
  FieldFile::write(Comm::view(MPI_COMM_WORLD), file.path(), records, write_layouts, data);

  // Each field alone, then all of them in one call.
  std::vector<FieldRecord> expected = records;
  std::vector<std::vector<unsigned char>> want, got_together;
  std::vector<void*> together;
  for (std::size_t f = 0; f < records.size(); ++f) {
    expected[f].numbers.clear();  // numbers are returned, not compared
    want.push_back(values_of(static_cast<int>(f), read_layouts[f]->ids(), records[f]));
    std::vector<unsigned char> got(want[f].size(), 0);
    const FieldRecord stored = FieldFile::read(Comm::view(MPI_COMM_WORLD), file.path(),
                                               expected[f], *read_layouts[f], got.data());
    expect_same_bytes(got, want[f], ferry::datatype_size(records[f].type), records[f].name);
    EXPECT_EQ(stored.numbers, records[f].numbers) << records[f].name;
    EXPECT_EQ(stored.grid, records[f].grid);
    EXPECT_EQ(stored.time, 86400);
    got_together.emplace_back(want[f].size(), 0);
    together.push_back(got_together.back().data());
  }
  const std::vector<FieldRecord> stored = FieldFile::read(
      Comm::view(MPI_COMM_WORLD), file.path(), expected, read_layouts, together);
  ASSERT_EQ(stored.size(), records.size());
  for (std::size_t f = 0; f < records.size(); ++f) {
    expect_same_bytes(got_together[f], want[f], ferry::datatype_size(records[f].type),
                      records[f].name + " read with the others");
    EXPECT_EQ(stored[f].numbers, records[f].numbers) << records[f].name;
  }
}

// A FieldOutput keeps its exchanges from record to record (and builds them again for
// other layout objects): its file holds the same bytes as FieldFile::append's.
TEST(FieldFile, FieldOutputWritesWhatAppendWrites) {
  const int p = size_of(MPI_COMM_WORLD);
  const int r = rank_of(MPI_COMM_WORLD);
  ScratchFile kept("output_kept");
  ScratchFile each("output_each");
  const Comm world = Comm::view(MPI_COMM_WORLD);
  ferry::coupling::FieldOutput output(world, kept.path());
  std::vector<FieldRecord> records = {record("sst", 41, 1, Datatype::Float64, 0),
                                      record("wind", 41, 2, Datatype::Float32, 0)};
  const Layout first = Layout::random(41, p, r, 7);
  const Layout second = Layout::random(41, p, r, 8);
  for (int slice = 0; slice < 4; ++slice) {
    const Layout& layout = slice < 2 ? first : second;  // other layouts from the third record
    std::vector<std::vector<unsigned char>> values;
    std::vector<const void*> data;
    for (std::size_t f = 0; f < records.size(); ++f) {
      records[f].time = 600.0 * slice;
      values.push_back(values_of(10 * slice + static_cast<int>(f), layout.ids(), records[f]));
    }
    for (const auto& v : values) data.push_back(v.data());
    const std::vector<const Layout*> layouts = {&layout, &layout};
    output.append(records, layouts, data);
    FieldFile::append(world, each.path(), records, layouts, data);
  }
  if (r == 0) {
    int a = 0, b = 0;
    ASSERT_EQ(nc_open(kept.path().c_str(), NC_NOWRITE, &a), NC_NOERR);
    ASSERT_EQ(nc_open(each.path().c_str(), NC_NOWRITE, &b), NC_NOERR);
    for (const char* name : {"time", "sst", "wind"}) {
      int va = 0, vb = 0;
      ASSERT_EQ(nc_inq_varid(a, name, &va), NC_NOERR);
      ASSERT_EQ(nc_inq_varid(b, name, &vb), NC_NOERR);
      std::vector<unsigned char> got(4 * 41 * 2 * 8), want(got.size());
      ASSERT_EQ(nc_get_var(a, va, got.data()), NC_NOERR);
      ASSERT_EQ(nc_get_var(b, vb, want.data()), NC_NOERR);
      EXPECT_TRUE(got == want) << name;
    }
    nc_close(a);
    nc_close(b);
  }
}

TEST(FieldFile, AppendGrowsOneTimeSlicePerCall) {
  // On a communicator in reversed rank order: nothing may assume MPI_COMM_WORLD.
  const int p = size_of(MPI_COMM_WORLD);
  MPI_Comm reversed = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, 0, p - 1 - rank_of(MPI_COMM_WORLD), &reversed);
  const int r = rank_of(reversed);
  ScratchFile file("output");

  std::vector<FieldRecord> records = {record("sst", 50, 1, Datatype::Float64, 0),
                                      record("wind", 37, 3, Datatype::Float32, 0)};
  records[1].grid = "atmos";
  const double times[] = {0, 3600, 7200};
  for (int slice = 0; slice < 3; ++slice) {
    std::vector<Layout> owned;
    std::vector<std::vector<unsigned char>> values;
    for (FieldRecord& rec : records) {
      rec.time = times[slice];
      owned.push_back(Layout::random(rec.global_size, p, r, 100 + slice));
    }
    std::vector<const Layout*> layouts;
    std::vector<const void*> data;
    for (std::size_t f = 0; f < records.size(); ++f) {
      values.push_back(values_of(10 * slice + static_cast<int>(f), owned[f].ids(), records[f]));
      layouts.push_back(&owned[f]);
      data.push_back(values.back().data());
    }
    FieldFile::append(Comm::view(reversed), file.path(), records, layouts, data);
  }

  // The test may read whole small files: rank 0 checks everything with NetCDF itself.
  if (rank_of(MPI_COMM_WORLD) == 0) {
    int id = 0, var = 0;
    ASSERT_EQ(nc_open(file.path().c_str(), NC_NOWRITE, &id), NC_NOERR);
    char version[64] = {};
    ASSERT_EQ(nc_get_att_text(id, NC_GLOBAL, "ferry_format_version", version), NC_NOERR);
    EXPECT_STREQ(version, "ferry-fields-1");
    double stored_times[3] = {};
    const std::size_t start0[] = {0};
    const std::size_t count3[] = {3};
    ASSERT_EQ(nc_inq_varid(id, "time", &var), NC_NOERR);
    ASSERT_EQ(nc_get_vara_double(id, var, start0, count3, stored_times), NC_NOERR);
    EXPECT_EQ(std::vector<double>(stored_times, stored_times + 3),
              std::vector<double>(times, times + 3));
    for (std::size_t f = 0; f < records.size(); ++f) {
      const FieldRecord& rec = records[f];
      ASSERT_EQ(nc_inq_varid(id, rec.name.c_str(), &var), NC_NOERR);
      int ndims = 0;
      nc_inq_varndims(id, var, &ndims);
      EXPECT_EQ(ndims, rec.components > 1 ? 3 : 2) << rec.name;
      std::vector<std::int64_t> all(static_cast<std::size_t>(rec.global_size));
      for (std::int64_t i = 0; i < rec.global_size; ++i) all[static_cast<std::size_t>(i)] = i;
      for (int slice = 0; slice < 3; ++slice) {
        const std::vector<unsigned char> want =
            values_of(10 * slice + static_cast<int>(f), all, rec);
        std::vector<unsigned char> got(want.size());
        const std::size_t start[] = {static_cast<std::size_t>(slice), 0, 0};
        const std::size_t count[] = {1, static_cast<std::size_t>(rec.global_size),
                                     static_cast<std::size_t>(rec.components)};
        ASSERT_EQ(nc_get_vara(id, var, start, count, got.data()), NC_NOERR);
        expect_same_bytes(got, want, ferry::datatype_size(rec.type),
                          rec.name + " slice " + std::to_string(slice));
      }
      char grid[64] = {};
      nc_get_att_text(id, var, "grid", grid);
      EXPECT_EQ(std::string(grid), rec.grid);
    }
    nc_close(id);
  }

  // A fourth slice must fit the file: later time, same fields, same grids.
  const Layout sst_layout = Layout::block(50, p, r);
  const std::vector<unsigned char> sst_values = values_of(0, sst_layout.ids(), records[0]);
  const Layout wind_layout = Layout::block(37, p, r);
  const std::vector<unsigned char> wind_values = values_of(1, wind_layout.ids(), records[1]);
  auto append = [&](const std::vector<FieldRecord>& recs) {
    std::vector<const Layout*> layouts = {&sst_layout, &wind_layout};
    std::vector<const void*> data = {sst_values.data(), wind_values.data()};
    layouts.resize(recs.size());
    data.resize(recs.size());
    FieldFile::append(Comm::view(reversed), file.path(), recs, layouts, data);
  };
  ferry_test::expect_same_error_everywhere([&] { append(records); }, Errc::Arg,
                    "^FieldFile::append: output file \".*\" ends at time 7200 s; cannot append "
                    "time 7200 s after it");
  std::vector<FieldRecord> later = records;
  for (FieldRecord& rec : later) rec.time = 10800;
  ferry_test::expect_same_error_everywhere([&] { append({later[0]}); }, Errc::Arg,
                    "holds fields \"sst\", \"wind\"; this call appends \"sst\"");
  std::vector<FieldRecord> regridded = later;
  regridded[1].grid = "atmos_fine";
  ferry_test::expect_same_error_everywhere([&] { append(regridded); }, Errc::Arg,
                    "holds field \"wind\" on grid \"atmos\", expected grid \"atmos_fine\"");
  std::vector<FieldRecord> mixed = later;
  mixed[1].time = 14400;
  ferry_test::expect_same_error_everywhere([&] { append(mixed); }, Errc::Arg,
                    "field \"wind\" is for time 14400 s and field \"sst\" for 10800 s");

  // A first append that fails leaves no file behind to confuse the next one.
  ScratchFile fresh("fresh");
  FieldRecord bad = later[0];
  bad.name = "bad/name";
  ferry_test::expect_same_error_everywhere(
      [&] {
        FieldFile::append(Comm::view(reversed), fresh.path(), {bad}, {&sst_layout},
                          {sst_values.data()});
      },
      Errc::Arg, "^FieldFile::append: defining dimension \"bad/name_points\"");
  std::FILE* left = std::fopen(fresh.path().c_str(), "r");
  EXPECT_EQ(left, nullptr) << "the failed output file was left behind";
  if (left) std::fclose(left);
  MPI_Comm_free(&reversed);
}

TEST(FieldFile, ReadErrorsAreTheSameOnEveryRank) {
  const int p = size_of(MPI_COMM_WORLD), r = rank_of(MPI_COMM_WORLD);
  ScratchFile restart("errors");
  write_sst(restart.path(), 86400);
  const FieldRecord sst = record("sst", 40, 1, Datatype::Float64, 86400);

  auto read = [&](const std::string& path, const FieldRecord& expected) {
    const Layout layout = Layout::round_robin(expected.global_size, p, r);
    std::vector<unsigned char> values(static_cast<std::size_t>(layout.local_size()) *
                                      static_cast<std::size_t>(expected.components) *
                                      ferry::datatype_size(expected.type));
    FieldFile::read(Comm::view(MPI_COMM_WORLD), path, expected, layout, values.data());
  };
  const std::string quoted = "restart file \"" + restart.path() + "\"";

  ferry_test::expect_same_error_everywhere([&] { read(file_name("missing"), sst); }, Errc::Io,
                    "^FieldFile::read: cannot open \"field_file_missing_np[0-9]+\\.nc\": No such "
                    "file or directory\\. Check the path");
  FieldRecord other = sst;
  other.name = "ice";
  ferry_test::expect_same_error_everywhere([&] { read(restart.path(), other); }, Errc::Io,
                    quoted + " has no field \"ice\" \\(expected float64 x 1 on grid \"ocean\" \\(40 points\\) for time 86400 s\\); it holds \"sst\"");
  other = sst;
  other.grid = "ice";
  ferry_test::expect_same_error_everywhere([&] { read(restart.path(), other); }, Errc::Arg,
                    quoted + " holds field \"sst\" on grid \"ocean\", expected grid \"ice\"");
  other = sst;
  other.global_size = 41;
  ferry_test::expect_same_error_everywhere([&] { read(restart.path(), other); }, Errc::Arg,
                    "holds field \"sst\" with 40 points, expected 41");
  other = sst;
  other.components = 2;
  ferry_test::expect_same_error_everywhere([&] { read(restart.path(), other); }, Errc::Arg,
                    "holds field \"sst\" with components = 1, expected 2");
  other = sst;
  other.type = Datatype::Float32;
  ferry_test::expect_same_error_everywhere([&] { read(restart.path(), other); }, Errc::Arg,
                    "holds field \"sst\" as float64 values, expected float32");
  other = sst;
  other.time = 0;
  ferry_test::expect_same_error_everywhere([&] { read(restart.path(), other); }, Errc::Arg,
                    "^FieldFile::read: " + quoted +
                        " holds field \"sst\" for time 86400 s, expected 0 s\\. Delete the file "
                        "or start the run at 86400$");

  ScratchFile foreign("foreign");
  write_foreign_file(foreign.path(), "ferry-fields-0");
  ferry_test::expect_same_error_everywhere([&] { read(foreign.path(), sst); }, Errc::Io,
                    "has format version \"ferry-fields-0\", this ferry \\(.*\\) reads "
                    "\"ferry-fields-1\" only");
  write_foreign_file(foreign.path(), "");
  ferry_test::expect_same_error_everywhere([&] { read(foreign.path(), sst); }, Errc::Io,
                    "has no global attribute ferry_format_version");
  if (r == 0) {
    std::FILE* text = std::fopen(foreign.path().c_str(), "w");
    std::fputs("not NetCDF\n", text);
    std::fclose(text);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  ferry_test::expect_same_error_everywhere([&] { read(foreign.path(), sst); }, Errc::Io, "cannot open .*NetCDF");

  // An output file is not a restart.
  ScratchFile output("series");
  const Layout layout = Layout::block(40, p, r);
  const std::vector<unsigned char> values = values_of(0, layout.ids(), sst);
  FieldFile::append(Comm::view(MPI_COMM_WORLD), output.path(), {sst}, {&layout}, {values.data()});
  ferry_test::expect_same_error_everywhere([&] { read(output.path(), sst); }, Errc::Io,
                    "field \"sst\" is a time series written by FieldFile::append");
}

TEST(FieldFile, WriteErrorsAreTheSameOnEveryRankAndKeepTheOldFile) {
  const int p = size_of(MPI_COMM_WORLD), r = rank_of(MPI_COMM_WORLD);
  const FieldRecord sst = record("sst", 40, 1, Datatype::Float64, 3600);
  const Layout block = Layout::block(40, p, r);
  const std::vector<unsigned char> values = values_of(0, block.ids(), sst);
  auto write = [&](const std::string& path, const std::vector<FieldRecord>& records,
                   const Layout& layout) {
    std::vector<const Layout*> layouts(records.size(), &layout);
    std::vector<const void*> data(records.size(), values.data());
    FieldFile::write(Comm::view(MPI_COMM_WORLD), path, records, layouts, data);
  };

  // Rank 0 cannot create the file: the others must not wait for their turn.
  ferry_test::expect_same_error_everywhere([&] { write("no_such_directory/restart.nc", {sst}, block); }, Errc::Io,
                    "^FieldFile::write: cannot create "
                    "\"no_such_directory/restart\\.nc\\.partial\"");

  // Only the last rank's layout is wrong.
  const Layout wrong = r == p - 1 ? Layout::block(41, p, r) : block;
  ferry_test::expect_same_error_everywhere([&] { write(file_name("unused"), {sst}, wrong); }, Errc::ArgSize,
                    "field \"sst\" has global_size 40 but its layout on rank " +
                        std::to_string(p - 1) + " has 41 points");

  if (p > 1) {
    FieldRecord drifted = sst;
    if (r == 0) drifted.time = 0;
    ferry_test::expect_same_error_everywhere([&] { write(file_name("unused"), {drifted}, block); }, Errc::Arg,
                      "the field records differ between ranks");
  }

  // Ids nobody holds: the plan's error, naming the field.
  std::vector<std::int64_t> even;
  for (std::int64_t id : block.ids())
    if (id % 2 == 0) even.push_back(id);
  const Layout holes = Layout::points(40, even);
  ferry_test::expect_same_error_everywhere([&] { write(file_name("unused"), {sst}, holes); }, Errc::Missing,
                    "^FieldFile::write: field \"sst\" \\(to be written, every point must be "
                    "held by exactly one rank\\): Plan::build: 20 destination id\\(s\\)");

  FieldRecord reserved = sst;
  reserved.numbers["time"] = 1;
  ferry_test::expect_same_error_everywhere([&] { write(file_name("unused"), {reserved}, block); }, Errc::Arg,
                    "field \"sst\" has an extra number named \"time\"");

  // A write that fails half-way leaves the previous restart untouched.
  ScratchFile restart("kept");
  write(restart.path(), {sst}, block);
  FieldRecord bad = sst;
  bad.name = "bad/name";
  FieldRecord later = sst;
  later.time = 7200;
  ferry_test::expect_same_error_everywhere([&] { write(restart.path(), {later, bad}, block); }, Errc::Arg,
                    "defining dimension \"bad/name_points\" in .* Name fields and numbers");
  std::vector<unsigned char> got(values.size());
  const FieldRecord stored =
      FieldFile::read(Comm::view(MPI_COMM_WORLD), restart.path(), sst, block, got.data());
  EXPECT_EQ(stored.time, 3600);
  EXPECT_EQ(got, values);
  std::FILE* partial = std::fopen((restart.path() + ".partial").c_str(), "r");
  EXPECT_EQ(partial, nullptr) << "the partial file was left behind";
  if (partial) std::fclose(partial);
}

}  // namespace
