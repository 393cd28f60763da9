// Weight files are the same files whatever the number of ranks that write them and
// however they are written: the same weights computed and written on all ranks
// (random layouts, every rank writing its rows, rank after rank or collectively with
// PnetCDF) and on rank 0 alone give byte-identical SCRIP and ESMF files, also when
// some ranks hold no rows.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ferry/config.hpp"
#include "ferry/online_weights.hpp"
#include "polygon_grids.hpp"
#include "regrid/weight_file.hpp"
#include "test_support.hpp"

namespace {

using ferry::Layout;
using ferry::regrid::detail::WeightWriter;
using ferry_test::rank_of;
using ferry_test::size_of;

std::vector<char> bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The writers of this build: rank after rank always, collectively with PnetCDF.
std::vector<WeightWriter> writers() {
  if (FERRY_HAVE_PNETCDF) return {WeightWriter::RankOrder, WeightWriter::Collective};
  return {WeightWriter::RankOrder};
}

// `w` written on `comm` as <stem>_scrip.nc and <stem>_esmf.nc by `writer`.
void write(const ferry::Weights& w, MPI_Comm comm, const std::string& stem, WeightWriter writer) {
  using namespace ferry::regrid::detail;
  write_weight_file(w, comm, stem + "_scrip.nc", kScrip, "test", writer);
  write_weight_file(w, comm, stem + "_esmf.nc", kEsmf, "test", writer);
}

// Conservative weights (with areas, fractions and masks) made on `comm`, each rank
// giving the cells of a random layout.
ferry::Weights conservative_on(MPI_Comm comm) {
  const int p = size_of(comm), me = rank_of(comm);
  regrid_test::PolygonGrid src = regrid_test::rotated_grid(36, 18, 10, 40);
  const regrid_test::PolygonGrid dst = regrid_test::geodesic_grid(6);
  for (std::int64_t i = 0; i < src.size(); ++i) src.mask.push_back(i % 13 == 4 ? 0 : 1);
  ferry::ConservativeOptions options;
  options.order = 2;
  return ferry::conservative_weights(
      comm, regrid_test::share(src, Layout::random(src.size(), p, me, 17)),
      regrid_test::share(dst, Layout::random(dst.size(), p, me, 23), true), options);
}

// Two rows over 5 source points, given by rank 0: on 3 or more ranks, ranks 2.. hold
// no rows and write nothing.
ferry::Weights two_rows_on(MPI_Comm comm) {
  std::vector<ferry::WeightLink> links;
  if (rank_of(comm) == 0) links = {{0, 4, 0.25, 0}, {0, 1, 0.75, 1}, {1, 2, 1.0, 0}};
  return ferry::Weights::from_links(comm, 5, 2, links);
}

// The files `make` gives written on every rank (by each writer) and on rank 0 alone
// (rank after rank) have the same bytes.
void expect_same_files(const std::string& name, ferry::Weights (*make)(MPI_Comm)) {
  const std::string stem = name + "_np" + std::to_string(size_of(MPI_COMM_WORLD));
  const ferry::Weights all = make(MPI_COMM_WORLD);
  for (WeightWriter writer : writers())
    write(all, MPI_COMM_WORLD, stem + "_all" + std::to_string(static_cast<int>(writer)), writer);
  if (rank_of(MPI_COMM_WORLD) == 0) {
    write(make(MPI_COMM_SELF), MPI_COMM_SELF, stem + "_one", WeightWriter::RankOrder);
    for (const char* format : {"_scrip.nc", "_esmf.nc"}) {
      const std::vector<char> one = bytes_of(stem + "_one" + format);
      EXPECT_FALSE(one.empty()) << format;
      for (WeightWriter writer : writers()) {
        const std::string path = stem + "_all" + std::to_string(static_cast<int>(writer)) + format;
        const std::vector<char> bytes = bytes_of(path);
        EXPECT_TRUE(bytes == one) << path << ": " << bytes.size() << " bytes from "
                                  << size_of(MPI_COMM_WORLD) << " ranks, " << one.size()
                                  << " from one";
        std::remove(path.c_str());
      }
      std::remove((stem + "_one" + format).c_str());
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(WeightFileRanks, TheFilesOfAllRanksAreTheFilesOfOne) {
  expect_same_files("weight_file_ranks", conservative_on);
}

TEST(WeightFileRanks, RanksWithoutRowsWriteNothing) {
  expect_same_files("weight_file_empty_ranks", two_rows_on);
}

}  // namespace
