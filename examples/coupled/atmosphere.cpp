// The demo's atmosphere (C++) on a Gaussian grid (CDO's n24, 96 x 48): every 30 minutes
// it reads the latest sea surface temperature (regridded from the ocean's grid), and
// puts heat and freshwater fluxes (one bundle field) and the 2-m temperature. Everything it puts is a function of time and of what it received, so a
// run restarted from ferry's restart files continues exactly.
//
//   mpiexec -n 2 atmosphere CONFIG : -n 1 ocean CONFIG : -n 1 python3 analysis.py CONFIG
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "ferry/ferry.hpp"

namespace {

constexpr std::int64_t kNx = 96, kNy = 48;  // Gaussian grid n24
constexpr double kStep = 1800;              // seconds
constexpr double kPi = 3.14159265358979323846;

// The Gaussian latitudes in degrees, north to south as CDO orders them: the roots of
// the Legendre polynomial P_ny, by Newton's method.
std::vector<double> gaussian_latitudes(std::int64_t ny) {
  std::vector<double> lat;
  const double n = static_cast<double>(ny);
  for (std::int64_t k = 0; k < ny; ++k) {
    double x = std::cos(kPi * (static_cast<double>(k) + 0.75) / (n + 0.5)), dx = 1;
    for (int iteration = 0; iteration < 100 && std::abs(dx) > 1e-15; ++iteration) {
      double p0 = 1, p1 = x;
      for (std::int64_t m = 2; m <= ny; ++m) {
        const double p2 = ((2.0 * m - 1) * x * p1 - (m - 1.0) * p0) / static_cast<double>(m);
        p0 = p1;
        p1 = p2;
      }
      dx = p1 / (n * (x * p1 - p0) / (x * x - 1));
      x -= dx;
    }
    lat.push_back(std::asin(x) * 180 / kPi);
  }
  return lat;
}

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
    const auto part = coupler.def_partition(coupler.def_grid("atmosphere", "gaussian", kNx, kNy),
                                            "rows", layout);
    // Centres in degrees, for the fluxes' weights computed online (coupled.yaml).
    const std::vector<double> latitudes = gaussian_latitudes(kNy);
    std::vector<double> lon, lat;
    for (const std::int64_t id : layout.ids()) {
      lon.push_back(360.0 / kNx * static_cast<double>(id % kNx));
      lat.push_back(latitudes[static_cast<std::size_t>(id / kNx)]);
    }
    coupler.set_coordinates(part, lon.data(), lat.data());
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
        flux[2 * i] = 0.1 * (sst[i] - 285.0) + 2.0 * std::sin(day + lon[i] * kPi / 180);
        flux[2 * i + 1] = 1e-3 * std::cos(lat[i] * kPi / 180);
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
