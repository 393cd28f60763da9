// Weights: SCRIP and ESMF files read in parallel into row blocks, written back bit for
// bit, and every kind of bad file refused with the same message on every rank.
#include <gtest/gtest.h>
#include <mpi.h>
#include <netcdf.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <regex>
#include <string>
#include <vector>

#include "ferry/error.hpp"
#include "ferry/weights.hpp"
#include "regrid_test_files.hpp"
#include "test_support.hpp"

using ferry::Errc;
using ferry::GridPointData;
using ferry::WeightLink;
using ferry::Weights;
using ferry_test::rank_of;
using ferry_test::size_of;

namespace {

// Scratch files of this test: regrid_weights_<stem>_np<ranks>.nc.
class ScratchFile : public regrid_test::ScratchFile {
 public:
  explicit ScratchFile(const std::string& stem) : regrid_test::ScratchFile("regrid_weights", stem) {}
};

// A small weight file to write, in SCRIP or ESMF names, possibly broken on purpose.
struct FileSpec {
  bool esmf = false;
  std::int64_t src_size = 6;
  std::int64_t dst_size = 4;
  std::vector<int> src;  // 1-based, as in the file
  std::vector<int> dst;
  std::vector<double> weight;
  bool with_weights = true;
  int dst_links = -1;             // != -1: dst_address on a dimension of this length
  int src_area_points = -1;       // != -1: a source area variable of this length
  std::string version;            // != "": a ferry_format_version attribute
};

// 20 links over 4 rows (5 each), every source point used; weight = 0.1 * link.
FileSpec good_spec() {
  FileSpec s;
  for (int k = 0; k < 20; ++k) {
    s.dst.push_back(k / 5 + 1);
    s.src.push_back(k % 6 + 1);
    s.weight.push_back(0.1 * (k + 1));
  }
  return s;
}

// Writes the file with NetCDF itself (one rank).
void write_file_serial(const std::string& path, const FileSpec& s) {
  const char* names[6] = {"src_grid_size", "dst_grid_size", "num_links",
                          "src_address",   "dst_address",   "remap_matrix"};
  const char* esmf[6] = {"n_a", "n_b", "n_s", "col", "row", "S"};
  const char* const* n = s.esmf ? esmf : names;
  int nc = -1, d_src = -1, d_dst = -1, d_links = -1, d_other = -1;
  int v_src = -1, v_dst = -1, v_w = -1, v_area = -1;
  REGRID_TEST_NC(nc_create(path.c_str(), NC_NETCDF4 | NC_CLOBBER, &nc));
  REGRID_TEST_NC(nc_def_dim(nc, n[0], static_cast<std::size_t>(s.src_size), &d_src));
  REGRID_TEST_NC(nc_def_dim(nc, n[1], static_cast<std::size_t>(s.dst_size), &d_dst));
  REGRID_TEST_NC(nc_def_dim(nc, n[2], s.src.size(), &d_links));
  int d_dst_links = d_links;
  if (s.dst_links != -1) {
    REGRID_TEST_NC(nc_def_dim(nc, "other_links", static_cast<std::size_t>(s.dst_links), &d_other));
    d_dst_links = d_other;
  }
  REGRID_TEST_NC(nc_def_var(nc, n[3], NC_INT, 1, &d_links, &v_src));
  REGRID_TEST_NC(nc_def_var(nc, n[4], NC_INT, 1, &d_dst_links, &v_dst));
  if (s.with_weights) REGRID_TEST_NC(nc_def_var(nc, n[5], NC_DOUBLE, 1, &d_links, &v_w));
  if (s.src_area_points != -1) {
    int d_area = d_src;
    if (s.src_area_points != s.src_size)
      REGRID_TEST_NC(
          nc_def_dim(nc, "area_points", static_cast<std::size_t>(s.src_area_points), &d_area));
    const char* area = s.esmf ? "area_a" : "src_grid_area";
    REGRID_TEST_NC(nc_def_var(nc, area, NC_DOUBLE, 1, &d_area, &v_area));
  }
  if (!s.version.empty())
    REGRID_TEST_NC(nc_put_att_text(nc, NC_GLOBAL, "ferry_format_version", s.version.size(),
                                   s.version.c_str()));
  REGRID_TEST_NC(nc_enddef(nc));
  REGRID_TEST_NC(nc_put_var_int(nc, v_src, s.src.data()));
  std::vector<int> dst = s.dst;
  dst.resize(s.dst_links != -1 ? static_cast<std::size_t>(s.dst_links) : s.src.size(), 1);
  REGRID_TEST_NC(nc_put_var_int(nc, v_dst, dst.data()));
  if (s.with_weights) REGRID_TEST_NC(nc_put_var_double(nc, v_w, s.weight.data()));
  if (v_area != -1) {
    std::vector<double> area(static_cast<std::size_t>(s.src_area_points), 0.5);
    REGRID_TEST_NC(nc_put_var_double(nc, v_area, area.data()));
  }
  REGRID_TEST_NC(nc_close(nc));
}

// Rank 0 writes the file; every rank waits for it.
void write_file(const std::string& path, const FileSpec& s) {
  if (rank_of(MPI_COMM_WORLD) == 0) write_file_serial(path, s);
  MPI_Barrier(MPI_COMM_WORLD);
}

// The links of the rows this rank holds equal those of the file, in file order.
void expect_rows_of(const Weights& w, const FileSpec& s) {
  ASSERT_EQ(w.src_size(), s.src_size);
  ASSERT_EQ(w.dst_size(), s.dst_size);
  EXPECT_EQ(w.global_links(), static_cast<std::int64_t>(s.src.size()));
  const ferry::Layout block = ferry::Layout::block(s.dst_size, size_of(MPI_COMM_WORLD),
                                                   rank_of(MPI_COMM_WORLD));
  ASSERT_EQ(w.row_count(), block.local_size());
  for (std::int64_t i = 0; i < w.row_count(); ++i) {
    const std::int64_t row = w.first_row() + i;
    EXPECT_EQ(row, block.ids()[static_cast<std::size_t>(i)]);
    std::vector<std::int64_t> cols;
    std::vector<double> values;
    for (std::size_t k = 0; k < s.src.size(); ++k)
      if (s.dst[k] - 1 == row) {
        cols.push_back(s.src[k] - 1);
        values.push_back(s.weight[k]);
      }
    const auto b = static_cast<std::size_t>(w.row_start()[static_cast<std::size_t>(i)]);
    const auto e = static_cast<std::size_t>(w.row_start()[static_cast<std::size_t>(i) + 1]);
    EXPECT_EQ(std::vector<std::int64_t>(w.cols().begin() + b, w.cols().begin() + e), cols)
        << "row " << row;
    EXPECT_EQ(std::vector<double>(w.values().begin() + b, w.values().begin() + e), values)
        << "row " << row;
  }
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  // memcmp takes no null pointer, not even for 0 bytes (an empty vector's data()).
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

template <class T>
bool same_bits(const std::optional<std::vector<T>>& a, const std::optional<std::vector<T>>& b) {
  return a.has_value() == b.has_value() && (!a || same_bits(*a, *b));
}

void expect_same(const Weights& a, const Weights& b) {
  EXPECT_EQ(a.src_size(), b.src_size());
  EXPECT_EQ(a.dst_size(), b.dst_size());
  EXPECT_EQ(a.global_links(), b.global_links());
  EXPECT_EQ(a.first_row(), b.first_row());
  EXPECT_EQ(a.row_start(), b.row_start());
  EXPECT_EQ(a.cols(), b.cols());
  EXPECT_TRUE(same_bits(a.values(), b.values()));
  for (auto [pa, pb] : {std::pair{&a.src_points(), &b.src_points()},
                        std::pair{&a.dst_points(), &b.dst_points()}}) {
    EXPECT_TRUE(same_bits(pa->area, pb->area));
    EXPECT_TRUE(same_bits(pa->frac, pb->frac));
    EXPECT_TRUE(same_bits(pa->mask, pb->mask));
  }
}

void expect_read_error(const FileSpec& spec, Errc code, const std::string& pattern) {
  ScratchFile file("bad");
  write_file(file.path(), spec);
  ferry_test::expect_error([&] { Weights::read(MPI_COMM_WORLD, file.path()); }, code, pattern);
}

TEST(WeightsRead, ScripRowsLandOnTheirOwners) {
  ScratchFile file("scrip");
  const FileSpec spec = good_spec();
  write_file(file.path(), spec);
  const Weights w = Weights::read(MPI_COMM_WORLD, file.path());
  expect_rows_of(w, spec);
  EXPECT_EQ(w.parts(), size_of(MPI_COMM_WORLD));
  EXPECT_FALSE(w.src_points().area.has_value());
}

TEST(WeightsRead, EsmfReadsLikeScrip) {
  ScratchFile scrip("same_scrip");
  ScratchFile esmf("same_esmf");
  FileSpec spec = good_spec();
  spec.src_area_points = 6;
  write_file(scrip.path(), spec);
  spec.esmf = true;
  write_file(esmf.path(), spec);
  const Weights a = Weights::read(MPI_COMM_WORLD, scrip.path());
  const Weights b = Weights::read(MPI_COMM_WORLD, esmf.path());
  expect_rows_of(b, spec);
  expect_same(a, b);
  ASSERT_TRUE(b.src_points().area.has_value());
  EXPECT_EQ(b.src_points().area->size(),
            static_cast<std::size_t>(ferry::Layout::block(6, size_of(MPI_COMM_WORLD),
                                                          rank_of(MPI_COMM_WORLD)).local_size()));
}

// Rows in the file out of order: each row keeps its links in file order.
TEST(WeightsRead, UnsortedFileKeepsLinkOrderWithinRows) {
  ScratchFile file("unsorted");
  FileSpec spec = good_spec();
  for (std::size_t k = 0; k < spec.dst.size(); ++k) spec.dst[k] = static_cast<int>(4 - k % 4);
  write_file(file.path(), spec);
  expect_rows_of(Weights::read(MPI_COMM_WORLD, file.path()), spec);
}

TEST(WeightsReadErrors, SourceAddressOutOfRange) {
  FileSpec spec = good_spec();
  spec.src[16] = 700;
  expect_read_error(spec, Errc::ArgRange,
                    "Weights::read: \".*\": link 17 of 20 \\(src_address 700, dst_address 4, "
                    "remap_matrix 1.7\\): src_address is outside 1..6, the source grid size");
}

TEST(WeightsReadErrors, DestinationAddressOutOfRangeInEsmf) {
  FileSpec spec = good_spec();
  spec.esmf = true;
  spec.dst[2] = 0;
  spec.dst[19] = 9;  // a later bad link on another rank is not the one reported
  expect_read_error(spec, Errc::ArgRange,
                    "link 3 of 20 \\(col 3, row 0, S 0.3\\): row is outside 1..4, the "
                    "destination grid size");
}

// $NWGTOPT ignore_bad_index and ignore_bad_index_silently: the links whose address
// lies outside its grid are left out, the others read as from a file without them;
// Drop prints one warning over all ranks (from the rank that read the first such
// link), DropQuietly none. Refuse is the default (the two tests above).
TEST(WeightsRead, BadAddressesDroppedWithOneWarningUnlessQuietly) {
  FileSpec spec = good_spec();
  spec.src[2] = 700;
  spec.dst[16] = 9;
  FileSpec kept = spec;
  for (const std::size_t k : {std::size_t{16}, std::size_t{2}}) {
    kept.src.erase(kept.src.begin() + static_cast<std::ptrdiff_t>(k));
    kept.dst.erase(kept.dst.begin() + static_cast<std::ptrdiff_t>(k));
    kept.weight.erase(kept.weight.begin() + static_cast<std::ptrdiff_t>(k));
  }
  ScratchFile file("dropped");
  write_file(file.path(), spec);
  for (const auto bad : {ferry::BadWeightIndex::Drop, ferry::BadWeightIndex::DropQuietly}) {
    testing::internal::CaptureStderr();
    const Weights w = Weights::read(MPI_COMM_WORLD, file.path(), bad);
    const std::string said = testing::internal::GetCapturedStderr();
    expect_rows_of(w, kept);
    const std::regex warning(
        "Weights::read: \".*\": dropped 2 of 20 links whose address lies outside its grid "
        "\\(their weights are lost\\); the first is link 3 of 20 \\(src_address 700, "
        "dst_address 1, remap_matrix 0.3\\): src_address is outside 1..6, the source grid "
        "size. Check that the file is complete and was made for these grids\n");
    int mine = std::regex_search(said, warning) ? 1 : 0;
    EXPECT_EQ(said.empty() ? 0 : 1, mine) << said;
    int warnings = 0;
    MPI_Allreduce(&mine, &warnings, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_EQ(warnings, bad == ferry::BadWeightIndex::Drop ? 1 : 0);
  }
}

TEST(WeightsReadErrors, NanWeight) {
  FileSpec spec = good_spec();
  spec.weight[4] = std::numeric_limits<double>::quiet_NaN();
  expect_read_error(spec, Errc::Arg, "link 5 of 20 \\(src_address 5, dst_address 1, "
                                     "remap_matrix -?nan\\): the weight is not a finite number");
}

TEST(WeightsReadErrors, InfiniteWeight) {
  FileSpec spec = good_spec();
  spec.weight[19] = std::numeric_limits<double>::infinity();
  expect_read_error(spec, Errc::Arg, "link 20 of 20 .*remap_matrix inf\\): the weight is not");
}

TEST(WeightsReadErrors, LinkVariablesOfDifferentLengths) {
  FileSpec spec = good_spec();
  spec.dst_links = 19;
  expect_read_error(spec, Errc::Io,
                    "dst_address has 19 links, src_address has 20 and the dimension num_links "
                    "is 20. Every link variable holds one value per link");
}

TEST(WeightsReadErrors, MissingWeightVariable) {
  FileSpec spec = good_spec();
  spec.with_weights = false;
  expect_read_error(spec, Errc::Io,
                    "is a SCRIP weight file without the variable \"remap_matrix\"; it needs "
                    "src_address, dst_address and remap_matrix");
}

TEST(WeightsReadErrors, AreaOfWrongLength) {
  FileSpec spec = good_spec();
  spec.src_area_points = 5;
  expect_read_error(spec, Errc::Io,
                    "variable \"src_grid_area\" has 5 values, expected one value per grid "
                    "point \\(6\\)");
}

TEST(WeightsReadErrors, OtherFerryFileVersion) {
  FileSpec spec = good_spec();
  spec.version = "ferry-fields-1";
  expect_read_error(spec, Errc::Io, "has format version \"ferry-fields-1\"; ferry reads weight "
                                    "files of version \"ferry-weights-1\"");
}

// A NetCDF file with one variable "sst" and nothing of a weight file.
void write_field_file(const std::string& path) {
  int nc = -1, dim = -1, var = -1;
  REGRID_TEST_NC(nc_create(path.c_str(), NC_NETCDF4 | NC_CLOBBER, &nc));
  REGRID_TEST_NC(nc_def_dim(nc, "x", 3, &dim));
  REGRID_TEST_NC(nc_def_var(nc, "sst", NC_DOUBLE, 1, &dim, &var));
  REGRID_TEST_NC(nc_close(nc));
}

TEST(WeightsReadErrors, NotAWeightFile) {
  ScratchFile file("not_weights");
  if (rank_of(MPI_COMM_WORLD) == 0) write_field_file(file.path());
  MPI_Barrier(MPI_COMM_WORLD);
  ferry_test::expect_error([&] { Weights::read(MPI_COMM_WORLD, file.path()); }, Errc::Io,
                           "has neither the variables of a SCRIP weight file .* it holds sst");
}

TEST(WeightsReadErrors, MissingFile) {
  ferry_test::expect_error([] { Weights::read(MPI_COMM_WORLD, "no_such_weights.nc"); }, Errc::Io,
                           "Weights::read: cannot open \"no_such_weights.nc\"");
}

// A random matrix built from links dealt to every rank: write then read, same bits.
TEST(WeightsWrite, FromLinksRoundTrip) {
  const int me = rank_of(MPI_COMM_WORLD);
  const int p = size_of(MPI_COMM_WORLD);
  std::vector<WeightLink> links;
  for (std::int64_t k = me; k < 500; k += p)  // each rank holds every p-th link
    links.push_back({(k * 37) % 97, (k * 11) % 53, std::sin(0.7 * static_cast<double>(k)) / 3,
                     k});
  const Weights w = Weights::from_links(MPI_COMM_WORLD, 53, 97, links);
  EXPECT_EQ(w.global_links(), 500);
  ScratchFile file("round_trip");
  w.write_scrip(MPI_COMM_WORLD, file.path());
  expect_same(w, Weights::read(MPI_COMM_WORLD, file.path()));
  // The rows are sorted by destination; within a row the links keep their order.
  const regrid_test::SerialMatrix m = regrid_test::read_scrip(file.path());
  for (std::size_t k = 1; k < m.row.size(); ++k) ASSERT_LE(m.row[k - 1], m.row[k]);
}

TEST(WeightsWrite, EmptyMatrixRoundTrip) {
  const Weights w = Weights::from_links(MPI_COMM_WORLD, 5, 3, {});
  ScratchFile file("empty");
  w.write_scrip(MPI_COMM_WORLD, file.path());
  const Weights back = Weights::read(MPI_COMM_WORLD, file.path());
  expect_same(w, back);
  EXPECT_EQ(back.global_links(), 0);
}

TEST(WeightsFromLinksErrors, RowOutOfRange) {
  std::vector<WeightLink> links;
  if (rank_of(MPI_COMM_WORLD) == size_of(MPI_COMM_WORLD) - 1) links.push_back({4, 0, 1.0, 0});
  ferry_test::expect_error([&] { Weights::from_links(MPI_COMM_WORLD, 3, 4, links); },
                           Errc::ArgRange,
                           "Weights::from_links: link 0 on rank \\d+ \\(row 4, col 0, weight 1, "
                           "order 0\\): the row is outside 0..3");
}

TEST(WeightsFromLinksErrors, SameOrderTwiceInARow) {
  std::vector<WeightLink> links;
  if (rank_of(MPI_COMM_WORLD) == 0) links = {{2, 0, 0.5, 7}, {2, 1, 0.5, 7}};
  ferry_test::expect_error([&] { Weights::from_links(MPI_COMM_WORLD, 3, 4, links); }, Errc::Arg,
                           "two links of destination row 2 have order 7 \\(source points 0 "
                           "and 1\\)");
}

// Files made by CDO (the regrid_data fixture) load unchanged, in both formats, and
// write back to the same matrix and point data.
class CdoWeights : public testing::Test {
 protected:
  void SetUp() override {
    if (!std::ifstream(regrid_test::data_path("ready")).good())
      GTEST_SKIP() << "no CDO-made weight files (is cdo installed?)";
  }
};

// The CDO file rewritten with ESMF's names (as ESMF_RegridWeightGen writes them).
void write_as_esmf_serial(const std::string& scrip, const std::string& esmf) {
  const regrid_test::SerialMatrix m = regrid_test::read_scrip(scrip);
  int nc = -1, d_a = -1, d_b = -1, d_s = -1, v = -1;
  REGRID_TEST_NC(nc_create(esmf.c_str(), NC_NETCDF4 | NC_CLOBBER, &nc));
  REGRID_TEST_NC(nc_def_dim(nc, "n_a", static_cast<std::size_t>(m.src_size), &d_a));
  REGRID_TEST_NC(nc_def_dim(nc, "n_b", static_cast<std::size_t>(m.dst_size), &d_b));
  REGRID_TEST_NC(nc_def_dim(nc, "n_s", m.row.size(), &d_s));
  REGRID_TEST_NC(nc_put_att_text(nc, NC_GLOBAL, "conventions", 8, "NCAR-CSM"));
  auto put = [&](const char* name, int dim, nc_type type, const std::vector<double>& values) {
    REGRID_TEST_NC(nc_redef(nc));
    REGRID_TEST_NC(nc_def_var(nc, name, type, 1, &dim, &v));
    REGRID_TEST_NC(nc_enddef(nc));
    REGRID_TEST_NC(nc_put_var_double(nc, v, values.data()));
  };
  std::vector<double> col, row;
  for (std::size_t k = 0; k < m.row.size(); ++k) {
    col.push_back(static_cast<double>(m.col[k] + 1));
    row.push_back(static_cast<double>(m.row[k] + 1));
  }
  put("col", d_s, NC_INT, col);
  put("row", d_s, NC_INT, row);
  put("S", d_s, NC_DOUBLE, m.weight);
  put("area_a", d_a, NC_DOUBLE, regrid_test::read_all(scrip, "src_grid_area"));
  put("area_b", d_b, NC_DOUBLE, regrid_test::read_all(scrip, "dst_grid_area"));
  put("frac_a", d_a, NC_DOUBLE, regrid_test::read_all(scrip, "src_grid_frac"));
  put("frac_b", d_b, NC_DOUBLE, regrid_test::read_all(scrip, "dst_grid_frac"));
  put("mask_a", d_a, NC_INT, regrid_test::read_all(scrip, "src_grid_imask"));
  put("mask_b", d_b, NC_INT, regrid_test::read_all(scrip, "dst_grid_imask"));
  REGRID_TEST_NC(nc_close(nc));
}

void write_as_esmf(const std::string& scrip, const std::string& esmf) {
  if (rank_of(MPI_COMM_WORLD) == 0) write_as_esmf_serial(scrip, esmf);
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST_F(CdoWeights, EveryMethodReadsAndWritesBack) {
  for (const char* method : {"con", "ycon", "bil", "dis", "nn", "con_masked", "con_back"}) {
    SCOPED_TRACE(method);
    const std::string path = regrid_test::data_path(std::string("w_") + method + ".nc");
    const Weights w = Weights::read(MPI_COMM_WORLD, path);
    const regrid_test::SerialMatrix m = regrid_test::read_scrip(path);
    EXPECT_EQ(w.global_links(), static_cast<std::int64_t>(m.row.size()));
    EXPECT_EQ(w.src_size(), m.src_size);
    EXPECT_TRUE(w.src_points().mask.has_value());  // CDO writes src_grid_imask
    EXPECT_FALSE(w.method().empty());
    ScratchFile file(std::string("cdo_") + method);
    w.write_scrip(MPI_COMM_WORLD, file.path());
    expect_same(w, Weights::read(MPI_COMM_WORLD, file.path()));
  }
}

TEST_F(CdoWeights, EsmfNamesReadLikeScrip) {
  const std::string scrip = regrid_test::data_path("w_con.nc");
  ScratchFile esmf("cdo_esmf");
  write_as_esmf(scrip, esmf.path());
  const Weights a = Weights::read(MPI_COMM_WORLD, scrip);
  const Weights b = Weights::read(MPI_COMM_WORLD, esmf.path());
  expect_same(a, b);
  EXPECT_TRUE(b.src_points().area.has_value());
  EXPECT_TRUE(b.dst_points().frac.has_value());
}

}  // namespace
