// `ferry bench regrid`: an atmosphere-ocean ping-pong through 5-nearest-neighbour
// weights, in the spirit of OASIS's T799-ORCA025 benchmark, sized for one node.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <memory>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "bench_regrid_grids.hpp"
#include "bench_scrip_grid.hpp"
#include "command.hpp"
#include "ferry/comm.hpp"
#include "ferry/config.hpp"
#include "ferry/engine.hpp"
#include "ferry/global_sum.hpp"
#include "ferry/grid_file.hpp"
#include "ferry/online_weights.hpp"
#include "ferry/remap.hpp"
#include "heap_usage.hpp"
#include "regrid/weight_file.hpp"
#include "progress.hpp"
#include "statistics.hpp"
#include "text_table.hpp"
#include "timing.hpp"
#include "util/mpi_library.hpp"

namespace ferry::cli {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kRadiansPerDegree = 3.14159265358979323846 / 180;

// A line "Name:   123 kB" of /proc/self/status in bytes; 0 where there is none.
double process_status_bytes(const std::string& name) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.compare(0, name.size() + 1, name + ":") == 0)
      return std::stod(line.substr(name.size() + 1)) * 1024;
  return 0;
}

// Max and mean over ranks of a per-rank amount, in MiB.
std::string mib_spread(const Comm& comm, double bytes) {
  const bench::Spread s = bench::spread_over_ranks(comm, static_cast<std::int64_t>(bytes), true);
  return bench::fixed(static_cast<double>(s.max) / kMiB, 1) + " / " + bench::fixed(s.mean / kMiB, 1);
}

// A fingerprint of a field's bits over all ranks: equal fingerprints, equal fields.
std::uint64_t fingerprint(const Comm& comm, const std::vector<double>& values) {
  std::uint64_t hash = 1469598103934665603ULL ^ static_cast<std::uint64_t>(comm.rank());
  for (double v : values) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    hash = (hash ^ bits) * 1099511628211ULL;
  }
  std::uint64_t all = 0;
  MPI_Allreduce(&hash, &all, 1, MPI_UINT64_T, MPI_BXOR, comm.get());
  return all;
}

struct Variant {
  std::string engine;
  MapOn map_on;
  RemapMode mode;
};

std::string variant_name(const Variant& v) {
  return v.engine + (v.map_on == MapOn::Src ? " src " : " dst ") +
         (v.mode == RemapMode::Bfb ? "bfb" : "sum");
}

std::vector<Variant> variants_for(const std::string& engine) {
  std::vector<std::string> engines = engine_names();
  if (engine != "all") {
    if (std::find(engines.begin(), engines.end(), engine) == engines.end())
      throw UsageError("--engine: unknown engine \"" + engine +
                       "\"; see ferry info for this build's engines, or give all");
    engines = {engine};
  }
  std::vector<Variant> variants;
  for (const std::string& name : engines)
    for (const auto& [map_on, mode] : {std::pair{MapOn::Dst, RemapMode::Bfb},
                                       std::pair{MapOn::Src, RemapMode::Bfb},
                                       std::pair{MapOn::Src, RemapMode::Sum}})
      variants.push_back({name, map_on, mode});
  return variants;
}

// The weights both ways and how they were obtained.
struct BenchWeights {
  Weights to_ocean;
  Weights to_atmosphere;
  std::string how;  // report lines
};

std::string weight_path(const std::string& dir, const char* stem, int k) {
  return dir + "/" + stem + "_nn" + std::to_string(k) + ".nc";
}

// Reads both files; the peak memory growth is meaningful in a fresh process.
BenchWeights read_weights(const Comm& comm, const std::string& dir, int k) {
  const double peak_before = process_status_bytes("VmHWM");
  const double start = MPI_Wtime();
  BenchWeights w{Weights::read(comm.get(), weight_path(dir, "atm_to_ocean", k)),
                 Weights::read(comm.get(), weight_path(dir, "ocean_to_atm", k)), ""};
  const double seconds = bench::max_over_ranks(comm, MPI_Wtime() - start);
  const double peak_growth = process_status_bytes("VmHWM") - peak_before;
  const auto bytes = static_cast<double>(
      std::filesystem::file_size(weight_path(dir, "atm_to_ocean", k)) +
      std::filesystem::file_size(weight_path(dir, "ocean_to_atm", k)));
  w.how = "weights read from " + dir + " (" + bench::fixed(bytes / kMiB, 1) + " MiB in 2 files) in " +
          bench::fixed(seconds, 3) + " s; peak memory growth during the read per rank (max / mean): " +
          mib_spread(comm, peak_growth) + " MiB; file size / ranks: " +
          bench::fixed(bytes / comm.size() / kMiB, 1) + " MiB\n";
  return w;
}

BenchWeights online_weights(const Comm& comm, const GridPoints& atm, const GridPoints& ocean,
                            int k, const std::string& dir) {
  NearestNeighbourOptions options;
  options.neighbours = k;
  const auto heap_before = bench::heap_in_use();
  double start = MPI_Wtime();
  Weights to_ocean = nearest_neighbour_weights(comm.get(), atm, ocean, options);
  const double to_ocean_s = bench::max_over_ranks(comm, MPI_Wtime() - start);
  start = MPI_Wtime();
  Weights to_atmosphere = nearest_neighbour_weights(comm.get(), ocean, atm, options);
  const double to_atmosphere_s = bench::max_over_ranks(comm, MPI_Wtime() - start);
  const auto heap_after = bench::heap_in_use();
  std::ostringstream how;
  how << "weights computed online: atmosphere -> ocean " << bench::fixed(to_ocean_s, 3) << " s ("
      << to_ocean.global_links() << " links), ocean -> atmosphere "
      << bench::fixed(to_atmosphere_s, 3) << " s (" << to_atmosphere.global_links()
      << " links); held per rank (max / mean): "
      << mib_spread(comm, heap_before && heap_after ? static_cast<double>(*heap_after - *heap_before) : 0)
      << " MiB\n";
  if (!dir.empty()) {
    start = MPI_Wtime();
    to_ocean.write_scrip(comm.get(), weight_path(dir, "atm_to_ocean", k));
    to_atmosphere.write_scrip(comm.get(), weight_path(dir, "ocean_to_atm", k));
    how << "written to " << dir << " in "
        << bench::fixed(bench::max_over_ranks(comm, MPI_Wtime() - start), 3) << " s\n";
  }
  return {std::move(to_ocean), std::move(to_atmosphere), how.str()};
}

// Global sums of the ocean field times cell area, per method, against lsum8.
std::string time_sums(const Comm& comm, const GridPoints& ocean, const std::vector<double>& field,
                      int repeat) {
  std::vector<double> terms(field.size());
  for (std::size_t i = 0; i < terms.size(); ++i)
    terms[i] = ocean.mask[i] ? field[i] * std::cos(ocean.lat[i] * kRadiansPerDegree) : 0;
  const std::vector<SumMethod> methods = {SumMethod::Lsum8, SumMethod::Lsum16, SumMethod::Ddpdd,
                                          SumMethod::Reprosum, SumMethod::Gather};
  std::vector<std::function<void()>> steps;
  for (SumMethod m : methods)
    steps.emplace_back([&, m] {
      global_sums(comm.get(), m, 1, terms.size(), terms.data(), ocean.layout.ids().data());
    });
  for (const auto& step : steps) step();  // warm-up
  const std::vector<bench::Summary> times = bench::time_in_rotation(comm, repeat, steps);
  bench::TextTable table({"global sum", "median us", "min us", "max us", "x lsum8"});
  for (std::size_t m = 0; m < methods.size(); ++m)
    table.add_row({sum_method_name(methods[m]), bench::fixed(times[m].median * 1e6, 1),
                   bench::fixed(times[m].min * 1e6, 1), bench::fixed(times[m].max * 1e6, 1),
                   bench::fixed(times[m].median / times[0].median, 2)});
  return table.str();
}

// This rank's block of an nx x ny lon-lat grid seen from a pole at (pole_lon,
// pole_lat): a curvilinear ocean with great-circle cells (no rank builds the whole
// grid), with its cell centres (for grid files). pole_lat 90 gives the regular
// lon-lat grid, cells with parallels.
struct RotatedCells {
  GridCells cells;
  std::vector<double> centre_lon;
  std::vector<double> centre_lat;
};

RotatedCells rotated_cells(const Comm& comm, std::int64_t nx, std::int64_t ny, double pole_lon,
                           double pole_lat) {
  RotatedCells g;
  GridCells& cells = g.cells;
  cells.layout = Layout::block(nx * ny, comm.size(), comm.rank());
  const double t = (90 - pole_lat) * kRadiansPerDegree;
  const double r = pole_lon * kRadiansPerDegree;
  auto rotated = [&](double lon, double lat, std::vector<double>& to_lon,
                     std::vector<double>& to_lat) {
    const double x = std::cos(lat * kRadiansPerDegree) * std::cos(lon * kRadiansPerDegree);
    const double y = std::cos(lat * kRadiansPerDegree) * std::sin(lon * kRadiansPerDegree);
    const double z = std::sin(lat * kRadiansPerDegree);
    const double qx = x * std::cos(t) + z * std::sin(t);
    const double qz = -x * std::sin(t) + z * std::cos(t);
    const double vx = qx * std::cos(r) - y * std::sin(r);
    const double vy = qx * std::sin(r) + y * std::cos(r);
    const bool regular = pole_lat == 90;
    to_lon.push_back(regular ? lon : std::atan2(vy, vx) / kRadiansPerDegree);
    to_lat.push_back(regular ? lat : std::atan2(qz, std::hypot(vx, vy)) / kRadiansPerDegree);
  };
  auto corner = [&](double lon, double lat) {
    rotated(lon, lat, cells.corner_lon, cells.corner_lat);
  };
  for (std::int64_t id : cells.layout.ids()) {
    const double w = static_cast<double>(id % nx) * 360.0 / static_cast<double>(nx);
    const double e = w + 360.0 / static_cast<double>(nx);
    const double s = -90 + static_cast<double>(id / nx) * 180.0 / static_cast<double>(ny);
    const double n = s + 180.0 / static_cast<double>(ny);
    corner(w, s);
    corner(e, s);
    corner(e, n);
    corner(w, n);
    rotated((w + e) / 2, (s + n) / 2, g.centre_lon, g.centre_lat);
  }
  return g;
}

// --grid rotated --dir DIR: both grids as SCRIP grid files (ocean.nc, atmosphere.nc),
// the atmosphere also as a CDO grid description (atmosphere.txt: a lon-lat grid, so
// that CDO clips its cells with parallels, as ferry does), and ferry's weights
// (weights.nc), for CDO and YAC to compute theirs on the same cells.
void write_synthetic_files(const Comm& comm, const std::string& dir, const RotatedCells& ocean,
                           std::int64_t ocean_nx, std::int64_t ocean_ny,
                           const RotatedCells& atm, std::int64_t atm_nx, std::int64_t atm_ny,
                           const Weights& weights) {
  write_scrip_grid(comm, dir + "/ocean.nc", ocean.cells, ocean.centre_lon, ocean.centre_lat,
                   ocean_nx, ocean_ny);
  write_scrip_grid(comm, dir + "/atmosphere.nc", atm.cells, atm.centre_lon, atm.centre_lat,
                   atm_nx, atm_ny);
  weights.write_scrip(comm.get(), dir + "/weights.nc");
  if (comm.rank() != 0) return;
  std::ofstream description(dir + "/atmosphere.txt");
  description << std::setprecision(17) << "gridtype = lonlat\nxsize = " << atm_nx
              << "\nysize = " << atm_ny << "\nxfirst = " << 180.0 / static_cast<double>(atm_nx)
              << "\nxinc = " << 360.0 / static_cast<double>(atm_nx)
              << "\nyfirst = " << -90 + 90.0 / static_cast<double>(atm_ny)
              << "\nyinc = " << 180.0 / static_cast<double>(atm_ny) << "\n";
}

// --write: the weights written as SCRIP files in DIR by each writer of this build
// (rank after rank through NetCDF-C; collectively through PnetCDF), `repeat` times
// each in rotation, the slowest rank's time; the files must be the same bytes.
void time_writers(const Comm& comm, const Weights& w, const std::string& dir, int repeat) {
  using regrid::detail::WeightWriter;
  std::vector<std::pair<std::string, WeightWriter>> writers{{"rank after rank", WeightWriter::RankOrder}};
  if (FERRY_HAVE_PNETCDF) writers.emplace_back("collective (PnetCDF)", WeightWriter::Collective);
  std::vector<std::function<void()>> steps;
  for (std::size_t i = 0; i < writers.size(); ++i)
    steps.emplace_back([&, i] {
      regrid::detail::write_weight_file(w, comm.get(), dir + "/weights_" + std::to_string(i) + ".nc",
                                        regrid::detail::kScrip, "bench regrid", writers[i].second);
    });
  for (const auto& step : steps) step();  // warm-up
  const std::vector<bench::Summary> times = bench::time_in_rotation(comm, repeat, steps);
  if (comm.rank() != 0) return;
  const auto bytes = std::filesystem::file_size(dir + "/weights_0.nc");
  std::cout << "writing the SCRIP weights (" << w.global_links() << " links, "
            << bench::fixed(static_cast<double>(bytes) / (1 << 20), 1) << " MiB) on "
            << comm.size() << " rank(s), " << repeat << " runs each in rotation:\n";
  const auto bytes_of = [&](std::size_t i) {
    std::ifstream in(dir + "/weights_" + std::to_string(i) + ".nc", std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  const std::string first = bytes_of(0);
  for (std::size_t i = 0; i < writers.size(); ++i)
    std::cout << "  " << writers[i].first << ": median " << bench::fixed(times[i].median, 3)
              << " s, min " << bench::fixed(times[i].min, 3) << " s, max "
              << bench::fixed(times[i].max, 3) << " s"
              << (i == 0 ? "" : ", " + bench::fixed(times[0].median / times[i].median, 2) +
                                    " x faster than rank after rank" +
                                    (bytes_of(i) == first ? ", the same bytes" : ", OTHER BYTES"))
              << "\n";
  std::cout << std::flush;
}

// "first-order" or "second-order", as the reports name conservative weights.
std::string order_name(const ConservativeOptions& options) {
  return options.order == 2 ? "second-order" : "first-order";
}

// --grid rotated: conservative weights from a rotated-pole curvilinear ocean to a
// regular lon-lat atmosphere, both made by blocks on the ranks.
int run_synthetic(const Context& context, std::int64_t ocean_nx, std::int64_t ocean_ny,
                  std::int64_t atm_nx, std::int64_t atm_ny, int repeat,
                  const ConservativeOptions& options, const std::string& dir, int write_repeat) {
  const Comm comm = Comm::view(context.comm);
  const double before = process_status_bytes("VmHWM");
  const RotatedCells ocean = rotated_cells(comm, ocean_nx, ocean_ny, -40, 50);
  const RotatedCells atm = rotated_cells(comm, atm_nx, atm_ny, 0, 90);
  std::int64_t links = 0;
  auto compute = [&] {
    links = conservative_weights(comm.get(), ocean.cells, atm.cells, options).global_links();
  };
  compute();  // warm-up
  const std::clock_t cpu_start = std::clock();
  const bench::Summary t = bench::time_in_rotation(comm, repeat, {compute}).front();
  // Processor time of all ranks per run: on a loaded machine, the work itself.
  double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC / repeat;
  MPI_Allreduce(MPI_IN_PLACE, &cpu, 1, MPI_DOUBLE, MPI_SUM, comm.get());
  const std::string memory = mib_spread(comm, process_status_bytes("VmHWM") - before);
  if (!dir.empty()) {
    const Weights weights = conservative_weights(comm.get(), ocean.cells, atm.cells, options);
    write_synthetic_files(comm, dir, ocean, ocean_nx, ocean_ny, atm, atm_nx, atm_ny, weights);
    if (write_repeat > 0) time_writers(comm, weights, dir, write_repeat);
  }
  if (context.rank != 0) return 0;
  std::cout << "ferry bench regrid --grid rotated: " << order_name(options)
            << " conservative weights, ocean "
            << ocean_nx << " x " << ocean_ny << " rotated-pole cells (great circles) -> "
            << "atmosphere " << atm_nx << " x " << atm_ny << " lon-lat cells, on "
            << context.size << " rank(s), " << repeat << " runs\n"
            << detail::mpi_library_version() << "\nlinks " << links << ", median "
            << bench::fixed(t.median, 3) << " s, min " << bench::fixed(t.min, 3) << " s, max "
            << bench::fixed(t.max, 3) << " s (slowest rank), processor time "
            << bench::fixed(cpu, 3) << " s per run (all ranks)\npeak resident memory growth per "
            << "rank (max / mean): " << memory << " MiB\n"
            << std::flush;
  return 0;
}

// --grid DIR: conservative weights between the OASIS example grids of DIR (grids.nc,
// masks.nc, areas.nc), every rank a block of each, timed in rotation.
int run_conservative(const Context& context, const std::string& dir,
                     const std::vector<std::string>& pairs, int repeat,
                     const ConservativeOptions& options, const std::string& out_dir) {
  const Comm comm = Comm::view(context.comm);
  const double before = process_status_bytes("VmHWM");
  auto grid = [&](const std::string& name) {
    return read_grid(comm.get(), {dir + "/grids.nc", GridFormat::Oasis, name, dir + "/masks.nc",
                                  dir + "/areas.nc"});
  };
  bench::TextTable table({"source -> target", "links", "median s", "min s", "max s"});
  for (const std::string& pair : pairs) {
    const std::size_t arrow = pair.find(':');
    if (arrow == std::string::npos)
      throw UsageError("--pairs takes SOURCE:TARGET grid names, as in torc:lmdz; got " + pair);
    const Grid src = grid(pair.substr(0, arrow));
    const Grid dst = grid(pair.substr(arrow + 1));
    std::int64_t links = 0;
    auto compute = [&] {
      links = conservative_weights(comm.get(), src.cells, dst.cells, options).global_links();
    };
    compute();  // warm-up
    const bench::Summary t = bench::time_in_rotation(comm, repeat, {compute}).front();
    if (!out_dir.empty())
      conservative_weights(comm.get(), src.cells, dst.cells, options)
          .write_scrip(comm.get(), out_dir + "/" + pair.substr(0, arrow) + "_" +
                                       pair.substr(arrow + 1) + "_order" +
                                       std::to_string(options.order) + ".nc");
    table.add_row({pair.substr(0, arrow) + " -> " + pair.substr(arrow + 1), std::to_string(links),
                   bench::fixed(t.median, 4), bench::fixed(t.min, 4), bench::fixed(t.max, 4)});
  }
  const std::string memory = mib_spread(comm, process_status_bytes("VmHWM") - before);
  if (context.rank != 0) return 0;
  std::cout << "ferry bench regrid --grid: " << order_name(options)
            << " conservative weights on " << context.size
            << " rank(s), " << repeat << " runs per pair (slowest rank's time)\n"
            << detail::mpi_library_version() << "\n"
            << table.str() << "\npeak resident memory growth per rank (max / mean): " << memory
            << " MiB\n"
            << std::flush;
  return 0;
}

struct RegridOptions {
  std::string grid;  // "", "rotated" or a directory of OASIS grid files
  std::string pairs = "torc:lmdz,lmdz:torc";
  int atm_n = 340;
  int ocean_nx = 0;  // 0: the mode's default
  int ocean_ny = 0;
  int atm_nx = 1440;
  int atm_ny = 720;
  int k = 5;
  int repeat = 0;
  int order = 1;  // --grid: conservative weights of first or second order
  std::string engine = "all";
  std::string source = "online";
  std::string dir;
  int write = 0;  // --grid rotated --dir: time writing the weights, this many runs per writer
};

int run_neighbours(const RegridOptions& o, const Context& context) {
  const int ocean_nx = o.ocean_nx > 0 ? o.ocean_nx : 1152;
  const int ocean_ny = o.ocean_ny > 0 ? o.ocean_ny : 608;
  const int repeat = o.repeat > 0 ? o.repeat : 100;
  const int atm_n = o.atm_n;
  const int k = o.k;
  const std::string& engine = o.engine;
  const std::string& source = o.source;
  const std::string& dir = o.dir;
  if (context.size % 2 != 0)
    throw UsageError("bench regrid runs the atmosphere on the first half of the ranks and the "
                     "ocean on the second: give an even number of ranks; got " +
                     std::to_string(context.size));
  if (source == "files" && dir.empty())
    throw UsageError("--weights files reads the files a run with --dir wrote: give --dir");
  const std::vector<Variant> variants = variants_for(engine);

  const Comm comm = Comm::view(context.comm);
  const int half = context.size / 2;
  const bool on_atm = context.rank < half;
  const int part = on_atm ? context.rank : context.rank - half;
  BenchWeights weights;
  if (source == "files") {
    bench::progress().stage("reading the weights from " + dir);
    weights = read_weights(comm, dir, k);
  }
  const BenchGrid atm_grid = BenchGrid::octahedral(atm_n);
  const BenchGrid ocean_grid = BenchGrid::ocean(ocean_nx, ocean_ny);
  const GridPoints atm = atm_grid.points(on_atm ? Layout::block(atm_grid.size(), half, part)
                                                : Layout::none(atm_grid.size()));
  const GridPoints ocean = ocean_grid.points(on_atm ? Layout::none(ocean_grid.size())
                                                    : Layout::block(ocean_grid.size(), half, part));
  if (source == "online") {
    bench::progress().stage("computing the weights online, " + std::to_string(k) +
                            " neighbours each way");
    weights = online_weights(comm, atm, ocean, k, dir);
  }

  std::vector<double> atm_field(atm.lon.size());
  for (std::size_t i = 0; i < atm_field.size(); ++i)
    atm_field[i] = 280 + 20 * std::cos(atm.lat[i] * kRadiansPerDegree) +
                   std::sin(2 * atm.lon[i] * kRadiansPerDegree);
  std::vector<double> ocean_field(ocean.lon.size());
  std::vector<double> atm_back(atm.lon.size());

  bench::TextTable table({"engine map_on mode", "setup s", "ping-pong ms", "min ms", "max ms",
                          "bytes/rank max", "bits"});
  std::uint64_t bfb_bits = 0;
  bool bfb_same = true;
  for (const Variant& v : variants) {
    bench::progress().stage("setting up and timing " + variant_name(v));
    RemapOptions options;
    options.map_on = v.map_on;
    options.mode = v.mode;
    options.engine = v.engine;
    options.fill_value = 0;
    const double start = MPI_Wtime();
    Remap to_ocean(comm.get(), weights.to_ocean, atm.layout, ocean.layout,
                   {{Datatype::Float64, 1}}, options);
    Remap to_atmosphere(comm.get(), weights.to_atmosphere, ocean.layout, atm.layout,
                        {{Datatype::Float64, 1}}, options);
    const double setup = bench::max_over_ranks(comm, MPI_Wtime() - start);
    auto ping_pong = [&] {
      const double* a = atm_field.data();
      double* o = ocean_field.data();
      to_ocean.apply(&a, &o);
      const double* oc = ocean_field.data();
      double* b = atm_back.data();
      to_atmosphere.apply(&oc, &b);
    };
    ping_pong();  // warm-up (and the adaptive engine's first look)
    const bench::Summary t = bench::time_in_rotation(comm, repeat, {ping_pong}).front();
    const bench::Spread bytes = bench::spread_over_ranks(
        comm, to_ocean.traffic().bytes + to_atmosphere.traffic().bytes, true);
    const std::uint64_t bits = fingerprint(comm, atm_back);
    std::string same = "-";
    if (v.mode == RemapMode::Bfb) {
      if (bfb_bits == 0) bfb_bits = bits;
      same = bits == bfb_bits ? "same" : "DIFFER";
      bfb_same = bfb_same && bits == bfb_bits;
    }
    table.add_row({variant_name(v), bench::fixed(setup, 3), bench::fixed(t.median * 1e3, 3),
                   bench::fixed(t.min * 1e3, 3), bench::fixed(t.max * 1e3, 3),
                   std::to_string(bytes.max), same});
  }
  bench::progress().stage("timing the global sums");
  const std::string sums = time_sums(comm, ocean, ocean_field, repeat);
  const std::string memory = mib_spread(comm, process_status_bytes("VmHWM"));
  std::int64_t wet = std::count(ocean.mask.begin(), ocean.mask.end(), 1);
  MPI_Allreduce(MPI_IN_PLACE, &wet, 1, MPI_INT64_T, MPI_SUM, comm.get());

  if (context.rank != 0) return bfb_same ? 0 : 1;
  std::cout << "ferry bench regrid: atmosphere " << atm_grid.name() << " (" << atm_grid.size()
            << " points) on " << half << " ranks <-> ocean " << ocean_grid.name() << " ("
            << ocean_grid.size() << " points, " << wet << " wet) on " << half << " ranks; " << k
            << " neighbours, inverse distance; " << repeat << " ping-pongs per row\n"
            << detail::mpi_library_version() << "\n"
            << weights.how << "\n"
            << table.str() << "\n(one ping-pong = atmosphere -> ocean + ocean -> atmosphere, "
               "slowest rank; bits: the returned atmosphere field against the first bfb row)\n\n"
            << sums << "\npeak resident memory per rank (max / mean): " << memory << " MiB\n"
            << (bfb_same ? "bfb rows: the same bits on every engine and map_on\n"
                         : "error: bfb rows returned different bits; this is a bug in ferry\n")
            << std::flush;
  return bfb_same ? 0 : 1;
}

int run(const RegridOptions& o, const Context& context) {
  ConservativeOptions options;
  options.order = o.order;
  if (o.grid == "rotated")
    return run_synthetic(context, o.ocean_nx > 0 ? o.ocean_nx : 1440,
                         o.ocean_ny > 0 ? o.ocean_ny : 1021, o.atm_nx, o.atm_ny,
                         o.repeat > 0 ? o.repeat : 3, options, o.dir, o.dir.empty() ? 0 : o.write);
  if (!o.grid.empty()) {
    std::vector<std::string> pairs;
    std::istringstream list(o.pairs);
    for (std::string pair; std::getline(list, pair, ',');) pairs.push_back(pair);
    return run_conservative(context, o.grid, pairs, o.repeat > 0 ? o.repeat : 10, options,
                            o.dir);
  }
  return run_neighbours(o, context);
}

Action declare_bench_regrid(CLI::App& app) {
  auto o = std::make_shared<RegridOptions>();
  app.add_option("--grid", o->grid);
  app.add_option("--pairs", o->pairs);
  add_int_option(app, "--atm-nx", o->atm_nx, 4, 1 << 20);
  add_int_option(app, "--atm-ny", o->atm_ny, 2, 1 << 20);
  add_int_option(app, "--atm-n", o->atm_n, 2, 8000);
  add_int_option(app, "--ocean-nx", o->ocean_nx, 4, 1 << 20);
  add_int_option(app, "--ocean-ny", o->ocean_ny, 2, 1 << 20);
  add_int_option(app, "--neighbours", o->k, 1, 64);
  add_int_option(app, "--repeat", o->repeat, 1, 1 << 20);
  add_int_option(app, "--order", o->order, 1, 2);
  add_int_option(app, "--write", o->write, 1, 1000);
  app.add_option("--engine", o->engine);
  app.add_option("--weights", o->source)->check(CLI::IsMember({"online", "files"}));
  app.add_option("--dir", o->dir);
  return [o](const Context& context) { return run(*o, context); };
}

}  // namespace

Command bench_regrid_command() {
  return {
      "bench regrid", "time a regridding ping-pong atmosphere <-> ocean per engine and mode",
      "usage: mpiexec -n P ferry bench regrid [options]\n"
      "\n"
      "The first P/2 ranks hold an octahedral reduced atmosphere grid, the other P/2 an\n"
      "ocean longitude-latitude grid with continents masked, both in blocks. Weights\n"
      "both ways are k-nearest-neighbour, inverse distance, computed online in parallel\n"
      "(or read from files written by an earlier run). Then per engine and per\n"
      "map_on/mode (dst bfb, src bfb, src sum): --repeat ping-pongs (atmosphere ->\n"
      "ocean -> atmosphere), each the slowest rank's time; then the global sum methods\n"
      "on the ocean field, timed against lsum8; then the peak memory per rank.\n"
      "\n"
      "  --atm-n N          atmosphere O-N grid, 4 N (N + 9) points (default 340:\n"
      "                     474640 points)\n"
      "  --ocean-nx NX      ocean longitudes (default 1152)\n"
      "  --ocean-ny NY      ocean latitudes, 78 S to 90 N (default 608: 700416 points)\n"
      "  --neighbours K     nearest neighbours (default 5)\n"
      "  --repeat R         ping-pongs per row and sums per method (default 100)\n"
      "  --engine NAME|all  an engine of this build (see ferry info) or all (default)\n"
      "  --weights online|files\n"
      "                     compute the weights (default) or read them from --dir\n"
      "  --dir DIR          online: also write the weights there as SCRIP files;\n"
      "                     files: read them from there (run in a fresh process to see\n"
      "                     the reading's peak memory)\n"
      "\n"
      "mpiexec -n P ferry bench regrid --grid DIR [--pairs torc:lmdz,...] [--repeat R]\n"
      "  [--order 1|2]\n"
      "instead times conservative weights (first order, or second with --order 2)\n"
      "between the OASIS grids of DIR\n"
      "(grids.nc, masks.nc, areas.nc; read by blocks on all P ranks), source:target\n"
      "pairs by name (default torc:lmdz,lmdz:torc), R runs each (default 10); with\n"
      "--dir DIR it also writes the weights of each pair there (SRC_DST_orderK.nc).\n"
      "mpiexec -n P ferry bench regrid --grid rotated [--ocean-nx NX --ocean-ny NY\n"
      "  --atm-nx NX --atm-ny NY] [--repeat R] [--order 1|2] times them from a rotated-pole\n"
      "curvilinear\n"
      "ocean (default 1440 x 1021) to a regular lon-lat atmosphere (default 1440 x 720),\n"
      "both made by blocks on the ranks, R runs (default 3); with --dir DIR it then\n"
      "writes both grids there as SCRIP grid files (ocean.nc, atmosphere.nc), the\n"
      "atmosphere as a CDO grid description (atmosphere.txt) and the weights\n"
      "(weights.nc), for other tools to compute theirs on the same cells; with\n"
      "--write W it also times writing the weights as SCRIP files there, W runs by\n"
      "each writer of this build in rotation (rank after rank through NetCDF-C,\n"
      "collectively through PnetCDF when built with it).\n",
      declare_bench_regrid};
}

}  // namespace ferry::cli
