// Shared pieces of the coupler tests: a scratch directory agreed by all ranks, the
// configuration written there, the two components of a run, expected values.
#pragma once

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "ferry/coupler.hpp"

namespace ferry_test {

inline int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
inline int world_size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

/// A fresh directory made by rank 0 and known to every rank.
inline std::string scratch_directory() {
  char path[256] = "/tmp/ferry_coupling_XXXXXX";
  if (world_rank() == 0 && mkdtemp(path) == nullptr) path[0] = '\0';
  MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
  return path;
}

/// Writes `yaml` (rank 0) to <dir>/<name> and returns the path.
inline std::string write_config(const std::string& dir, const std::string& name,
                                const std::string& yaml) {
  const std::string path = dir + "/" + name;
  if (world_rank() == 0) std::ofstream(path) << yaml;
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

/// Two components: "atm" on the first half of the ranks, "ocn" on the rest; a single
/// rank runs both, one after the other.
struct TwoComponents {
  bool atm = false, ocn = false;
  int atm_rank = -1, ocn_rank = -1;  // rank inside the component
  int atm_size = 1, ocn_size = 1;
  TwoComponents() {
    const int p = world_size(), r = world_rank();
    atm_size = p == 1 ? 1 : (p + 1) / 2;
    ocn_size = p == 1 ? 1 : p - atm_size;
    atm = p == 1 || r < atm_size;
    ocn = p == 1 || r >= atm_size;
    if (atm) atm_rank = p == 1 ? 0 : r;
    if (ocn) ocn_rank = p == 1 ? 0 : r - atm_size;
  }
  std::vector<std::string> names() const {
    std::vector<std::string> n;
    if (atm) n.push_back("atm");
    if (ocn) n.push_back("ocn");
    return n;
  }
};

/// The value a source puts at global id `gid` and time `t` (exact in double).
inline double value_at(std::int64_t gid, double t, int component = 0) {
  return static_cast<double>(gid) * 1000.0 + t / 100.0 + component * 0.125;
}

}  // namespace ferry_test
