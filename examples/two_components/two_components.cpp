// Two toy components on one mpiexec: an "atmosphere" on the first half of the
// ranks holds a 96 x 72 grid in 2-D blocks, an "ocean" on the other half holds
// it in latitude bands. Every engine of this build moves three fields (a double,
// a 2-component float wind, an int32 flag) both ways; every value is checked.
//
//   mpiexec -n 4 two_components
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "ferry/ferry.hpp"

namespace {

constexpr std::int64_t kNx = 96, kNy = 72;

struct Fields {
  std::vector<double> temperature;
  std::vector<float> wind;  // 2 components per point
  std::vector<std::int32_t> flag;
  explicit Fields(std::int64_t points)
      : temperature(static_cast<std::size_t>(points)),
        wind(static_cast<std::size_t>(points) * 2),
        flag(static_cast<std::size_t>(points)) {}
  std::vector<const void*> in() const { return {temperature.data(), wind.data(), flag.data()}; }
  std::vector<void*> out() { return {temperature.data(), wind.data(), flag.data()}; }
};

// What each field holds at a global id, on the side that sends it.
double temperature_of(std::int64_t id) { return 273.15 + 0.001 * static_cast<double>(id); }
float wind_of(std::int64_t id, int c) { return static_cast<float>(id % 1000) + 0.5f * static_cast<float>(c); }
std::int32_t flag_of(std::int64_t id) { return static_cast<std::int32_t>(id % 7); }

void fill(Fields& f, const ferry::Layout& layout) {
  for (std::size_t i = 0; i < layout.ids().size(); ++i) {
    const std::int64_t id = layout.ids()[i];
    f.temperature[i] = temperature_of(id);
    f.wind[2 * i] = wind_of(id, 0);
    f.wind[2 * i + 1] = wind_of(id, 1);
    f.flag[i] = flag_of(id);
  }
}

// Number of wrong values on this rank.
long count_wrong(const Fields& f, const ferry::Layout& layout) {
  long wrong = 0;
  for (std::size_t i = 0; i < layout.ids().size(); ++i) {
    const std::int64_t id = layout.ids()[i];
    wrong += f.temperature[i] != temperature_of(id);
    wrong += f.wind[2 * i] != wind_of(id, 0) || f.wind[2 * i + 1] != wind_of(id, 1);
    wrong += f.flag[i] != flag_of(id);
  }
  return wrong;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int atm_ranks = std::max(1, size / 2);
  const int ocn_ranks = size > 1 ? size - atm_ranks : 1;
  const bool atm = rank < atm_ranks;
  const bool ocn = size == 1 || rank >= atm_ranks;

  // Each component describes its own decomposition; Layout::none marks "not mine".
  int px = 1;
  for (int d = 1; d * d <= atm_ranks; ++d)
    if (atm_ranks % d == 0) px = d;
  const ferry::Layout atm_layout =
      atm ? ferry::Layout::box(kNx, kNy, px, atm_ranks / px, rank) : ferry::Layout::none(kNx * kNy);
  const ferry::Layout ocn_layout =
      ocn ? ferry::Layout::orange(kNx, kNy, ocn_ranks, size == 1 ? 0 : rank - atm_ranks)
          : ferry::Layout::none(kNx * kNy);
  const std::vector<ferry::FieldSpec> specs{{ferry::Datatype::Float64, 1},
                                            {ferry::Datatype::Float32, 2},
                                            {ferry::Datatype::Int32, 1}};

  if (rank == 0)
    std::printf("ferry %s: atmosphere on %d rank(s) (2-D blocks), ocean on %d rank(s) "
                "(latitude bands), %lld points, 3 fields\n\n%-10s %10s %12s %12s %8s\n",
                FERRY_VERSION_STRING, atm_ranks, ocn_ranks, static_cast<long long>(kNx * kNy),
                "engine", "setup ms", "atm->ocn us", "ocn->atm us", "check");
  int status = 0;
  try {
    for (const std::string& engine : ferry::engine_names()) {
      ferry::Exchange to_ocean(MPI_COMM_WORLD, atm_layout, ocn_layout, specs, engine);
      ferry::Exchange to_atmosphere(MPI_COMM_WORLD, ocn_layout, atm_layout, specs, engine);
      Fields atm_fields(atm_layout.local_size()), ocn_fields(ocn_layout.local_size());
      fill(atm_fields, atm_layout);
      const int steps = 20;
      double t_down = 0, t_up = 0;
      long wrong = 0;
      for (int step = 0; step < steps; ++step) {
        double t0 = MPI_Wtime();
        to_ocean.execute(atm_fields.in().data(), ocn_fields.out().data());
        double t1 = MPI_Wtime();
        wrong += count_wrong(ocn_fields, ocn_layout);
        std::fill(atm_fields.temperature.begin(), atm_fields.temperature.end(), 0.0);
        double t2 = MPI_Wtime();
        to_atmosphere.execute(ocn_fields.in().data(), atm_fields.out().data());
        double t3 = MPI_Wtime();
        wrong += count_wrong(atm_fields, atm_layout);
        t_down += t1 - t0;
        t_up += t3 - t2;
      }
      long wrong_total = 0;
      double setup = std::max(to_ocean.setup_seconds(), to_atmosphere.setup_seconds());
      double times[3] = {setup, t_down / steps, t_up / steps}, worst[3];
      MPI_Allreduce(&wrong, &wrong_total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
      MPI_Allreduce(times, worst, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      if (wrong_total != 0) status = 1;
      if (rank == 0)
        std::printf("%-10s %10.2f %12.1f %12.1f %8s\n", engine.c_str(), worst[0] * 1e3,
                    worst[1] * 1e6, worst[2] * 1e6, wrong_total == 0 ? "exact" : "WRONG");
      // Collective: frees what only every rank together can (rma's windows); the
      // destructors never wait for another rank.
      to_ocean.close();
      to_atmosphere.close();
    }
  } catch (const ferry::Error& e) {
    std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
    status = 1;
  }
  if (rank == 0) std::printf("\n%s\n", status == 0 ? "every value arrived exactly" : "FAILED");
  MPI_Finalize();
  return status;
}
