// Weight files are the same files whatever the number of ranks that write them: the
// same weights computed and written on all ranks (random layouts, every rank writing
// its rows) and on rank 0 alone give byte-identical SCRIP and ESMF files.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ferry/online_weights.hpp"
#include "polygon_grids.hpp"
#include "test_support.hpp"

namespace {

using ferry::Layout;
using ferry_test::rank_of;
using ferry_test::size_of;

std::vector<char> bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Conservative weights (with areas, fractions and masks) made and written on `comm`,
// each rank giving the cells of a random layout.
void write_on(MPI_Comm comm, const std::string& stem) {
  const int p = size_of(comm), me = rank_of(comm);
  regrid_test::PolygonGrid src = regrid_test::rotated_grid(36, 18, 10, 40);
  const regrid_test::PolygonGrid dst = regrid_test::geodesic_grid(6);
  for (std::int64_t i = 0; i < src.size(); ++i) src.mask.push_back(i % 13 == 4 ? 0 : 1);
  ferry::ConservativeOptions options;
  options.order = 2;
  const ferry::Weights w = ferry::conservative_weights(
      comm, regrid_test::share(src, Layout::random(src.size(), p, me, 17)),
      regrid_test::share(dst, Layout::random(dst.size(), p, me, 23), true), options);
  w.write_scrip(comm, stem + "_scrip.nc");
  w.write_esmf(comm, stem + "_esmf.nc");
}

TEST(WeightFileRanks, TheFilesOfAllRanksAreTheFilesOfOne) {
  const std::string stem = "weight_file_ranks_np" + std::to_string(size_of(MPI_COMM_WORLD));
  write_on(MPI_COMM_WORLD, stem + "_all");
  if (rank_of(MPI_COMM_WORLD) == 0) {
    write_on(MPI_COMM_SELF, stem + "_one");
    for (const char* format : {"_scrip.nc", "_esmf.nc"}) {
      const std::vector<char> all = bytes_of(stem + "_all" + format);
      const std::vector<char> one = bytes_of(stem + "_one" + format);
      EXPECT_FALSE(all.empty()) << format;
      EXPECT_TRUE(all == one) << format << ": " << all.size() << " bytes from "
                              << size_of(MPI_COMM_WORLD) << " ranks, " << one.size()
                              << " from one";
      std::remove((stem + "_all" + format).c_str());
      std::remove((stem + "_one" + format).c_str());
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace
