// The demo's atmosphere (C++): every 30 minutes it reads the latest sea surface
// temperature, and puts heat and freshwater fluxes (one bundle field) and the 2-m
// temperature. Everything it puts is a function of time and of what it received, so a
// run restarted from ferry's restart files continues exactly.
//
//   mpiexec -n 2 atmosphere CONFIG : -n 1 ocean CONFIG : -n 1 python3 analysis.py CONFIG
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "ferry/ferry.hpp"

namespace {

constexpr std::int64_t kNx = 72, kNy = 36;  // 5-degree longitude-latitude grid
constexpr double kStep = 1800;              // seconds
constexpr double kPi = 3.14159265358979323846;

double lon_of(std::int64_t id) { return 2.5 + 5.0 * static_cast<double>(id % kNx); }
double lat_of(std::int64_t id) { return -87.5 + 5.0 * static_cast<double>(id / kNx); }

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  try {
    if (argc < 4) throw ferry::Error(ferry::Errc::Arg, "usage: atmosphere CONFIG START LENGTH");
    const double start = std::atof(argv[2]), length = std::atof(argv[3]);
    ferry::Coupler coupler(MPI_COMM_WORLD, {"atmosphere"}, argv[1]);
    int rank = 0, size = 1;
    MPI_Comm_rank(coupler.local_comm("atmosphere"), &rank);
    MPI_Comm_size(coupler.local_comm("atmosphere"), &size);

    const auto layout = ferry::Layout::box(kNx, kNy, 1, size, rank);  // latitude rows
    const auto part = coupler.def_partition(coupler.def_grid("atmosphere", "lonlat", kNx, kNy),
                                            "rows", layout);
    const auto sst_in = coupler.def_field(part, "sst_in", ferry::FieldDirection::In,
                                          ferry::Datatype::Float64);
    const auto fluxes = coupler.def_field(part, "fluxes", ferry::FieldDirection::Out,
                                          ferry::Datatype::Float64, 2);
    const auto t2m = coupler.def_field(part, "t2m", ferry::FieldDirection::Out,
                                       ferry::Datatype::Float64);
    coupler.enddef();

    const std::size_t n = layout.ids().size();
    std::vector<double> sst(n, 285.0), flux(2 * n), air(n);
    for (double t = start; t < start + length; t += kStep) {
      coupler.get(sst_in, t, sst.data());
      const double day = 2 * kPi * t / 86400;
      for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t id = layout.ids()[i];
        flux[2 * i] = 0.1 * (sst[i] - 285.0) + 2.0 * std::sin(day + lon_of(id) * kPi / 180);
        flux[2 * i + 1] = 1e-3 * std::cos(lat_of(id) * kPi / 180);
        air[i] = sst[i] - 3.0 + std::sin(day);
      }
      coupler.put(fluxes, t, flux.data());
      coupler.put(t2m, t, air.data());
    }
    coupler.finalize();
  } catch (const ferry::Error& e) {
    std::fprintf(stderr, "atmosphere: %s\n", e.what());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
