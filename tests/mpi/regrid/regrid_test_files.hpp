// Helpers of the regrid tests: serial NetCDF access to whole (small) files, a serial
// reference remapping, and the location of the files made by make_test_data.sh.
#pragma once

#include <gtest/gtest.h>
#include <mpi.h>
#include <netcdf.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace regrid_test {

/// A file made by make_test_data.sh (CTest fixture regrid_data).
inline std::string data_path(const std::string& name) {
  return std::string(FERRY_REGRID_TEST_DATA) + "/" + name;
}

/// Ends the test program with exit code 77 (skipped) on every rank when the CDO-made
/// files are missing: cdo is not installed, or the fixture did not run.
class RequireCdoData : public testing::Environment {
 public:
  void SetUp() override {
    if (std::ifstream(data_path("ready")).good()) return;
    if (ferry_test::rank_of(MPI_COMM_WORLD) == 0)
      std::fprintf(stderr,
                   "regrid test data missing (is cdo installed? run ctest -R regrid.data)\n");
    MPI_Finalize();
    std::exit(77);
  }
};

/// A file in the working directory, named "<test>_<stem>_np<ranks>.nc" so the ctest
/// entries of a test (one per rank count) can run at once; removed when the test
/// ends, after every rank is done with it.
class ScratchFile {
 public:
  ScratchFile(const std::string& test, const std::string& stem)
      : path_(test + "_" + stem + "_np" +
              std::to_string(ferry_test::size_of(MPI_COMM_WORLD)) + ".nc") {}
  ~ScratchFile() {
    MPI_Barrier(MPI_COMM_WORLD);
    if (ferry_test::rank_of(MPI_COMM_WORLD) == 0) std::remove(path_.c_str());
  }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// Aborts the test on a NetCDF error, naming the call.
#define REGRID_TEST_NC(call)                                                         \
  do {                                                                               \
    const int regrid_test_status_ = (call);                                          \
    ASSERT_EQ(regrid_test_status_, NC_NOERR) << #call << ": " << nc_strerror(regrid_test_status_); \
  } while (0)

/// Every value of a numeric variable, as double (small files only).
inline void read_all(const std::string& path, const std::string& name, std::vector<double>& out) {
  int nc = -1, var = -1, ndims = 0;
  REGRID_TEST_NC(nc_open(path.c_str(), NC_NOWRITE, &nc));
  REGRID_TEST_NC(nc_inq_varid(nc, name.c_str(), &var));
  REGRID_TEST_NC(nc_inq_varndims(nc, var, &ndims));
  std::vector<int> dims(static_cast<std::size_t>(ndims));
  REGRID_TEST_NC(nc_inq_vardimid(nc, var, dims.data()));
  std::size_t n = 1;
  for (int d : dims) {
    std::size_t len = 0;
    REGRID_TEST_NC(nc_inq_dimlen(nc, d, &len));
    n *= len;
  }
  out.resize(n);
  REGRID_TEST_NC(nc_get_var_double(nc, var, out.data()));
  REGRID_TEST_NC(nc_close(nc));
}

inline std::vector<double> read_all(const std::string& path, const std::string& name) {
  std::vector<double> out;
  read_all(path, name, out);
  return out;
}

/// A whole SCRIP weight file, links in file order (0-based addresses).
struct SerialMatrix {
  std::int64_t src_size = 0;
  std::int64_t dst_size = 0;
  std::vector<std::int64_t> row;
  std::vector<std::int64_t> col;
  std::vector<double> weight;
};

/// `column` picks one of the weights of each link (second order has 3: the value and
/// the latitude and longitude gradients).
inline SerialMatrix read_scrip(const std::string& path, std::size_t column = 0) {
  SerialMatrix m;
  const std::vector<double> src = read_all(path, "src_address");
  const std::vector<double> dst = read_all(path, "dst_address");
  const std::vector<double> w = read_all(path, "remap_matrix");
  const std::size_t columns = src.empty() ? 1 : w.size() / src.size();
  for (std::size_t k = 0; k < src.size(); ++k) {
    m.col.push_back(static_cast<std::int64_t>(src[k]) - 1);
    m.row.push_back(static_cast<std::int64_t>(dst[k]) - 1);
    m.weight.push_back(w[k * columns + column]);
  }
  int nc = -1, dim = -1;
  std::size_t len = 0;
  EXPECT_EQ(nc_open(path.c_str(), NC_NOWRITE, &nc), NC_NOERR);
  EXPECT_EQ(nc_inq_dimid(nc, "src_grid_size", &dim), NC_NOERR);
  EXPECT_EQ(nc_inq_dimlen(nc, dim, &len), NC_NOERR);
  m.src_size = static_cast<std::int64_t>(len);
  EXPECT_EQ(nc_inq_dimid(nc, "dst_grid_size", &dim), NC_NOERR);
  EXPECT_EQ(nc_inq_dimlen(nc, dim, &len), NC_NOERR);
  m.dst_size = static_cast<std::int64_t>(len);
  nc_close(nc);
  return m;
}

/// The serial reference: y[row] = sum of weight * x[col] over the row's links in file
/// order, from 0, in double; rows without links get `fill`. `components` values per point.
inline std::vector<double> serial_remap(const SerialMatrix& m, const std::vector<double>& x,
                                        int components, double fill) {
  const auto nc = static_cast<std::size_t>(components);
  std::vector<double> y(static_cast<std::size_t>(m.dst_size) * nc, 0.0);
  std::vector<char> touched(static_cast<std::size_t>(m.dst_size), 0);
  for (std::size_t k = 0; k < m.row.size(); ++k) {
    const auto r = static_cast<std::size_t>(m.row[k]);
    touched[r] = 1;
    for (std::size_t c = 0; c < nc; ++c)
      y[r * nc + c] += m.weight[k] * x[static_cast<std::size_t>(m.col[k]) * nc + c];
  }
  for (std::size_t r = 0; r < touched.size(); ++r)
    if (!touched[r])
      for (std::size_t c = 0; c < nc; ++c) y[r * nc + c] = fill;
  return y;
}

/// Distance in units in the last place between two doubles of the same sign.
inline std::int64_t ulps(double a, double b) {
  std::int64_t ia = 0, ib = 0;
  std::memcpy(&ia, &a, sizeof a);
  std::memcpy(&ib, &b, sizeof b);
  if ((ia < 0) != (ib < 0)) return a == b ? 0 : INT64_MAX;
  return ia > ib ? ia - ib : ib - ia;
}

}  // namespace regrid_test
