#include "halo_bench.hpp"

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

#include "ferry/geodesic_mesh.hpp"
#include "field_data.hpp"
#include "payload_copy.hpp"
#include "progress.hpp"
#include "timing.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::bench {

namespace {

constexpr std::uint64_t kSeed = 1;

void check_config(const HaloBenchConfig& config) {
  FERRY_CHECK(config.cells >= 12, Errc::Arg, "bench halo: --cells must be >= 12; got ",
              config.cells, " (the coarsest geodesic mesh has 12 cells)");
  FERRY_CHECK(config.levels >= 1, Errc::Arg, "bench halo: --levels must be >= 1; got ",
              config.levels);
  FERRY_CHECK(config.depth >= 1, Errc::Arg, "bench halo: --depth must be >= 1; got ",
              config.depth);
  FERRY_CHECK(config.repeat >= 1, Errc::Arg, "bench halo: --repeat must be >= 1; got ",
              config.repeat);
  FERRY_CHECK(partition_method_available(config.partition), Errc::Arg,
              "bench halo: --partition ", partition_method_name(config.partition),
              " needs ferry built with METIS (see ferry info); use block or random");
}

// Part p goes to rank permutation[p]: a seeded shuffle, the same on every run.
void shuffle_parts(std::vector<int>& owner, int parts) {
  std::vector<int> permutation(static_cast<std::size_t>(parts));
  for (int p = 0; p < parts; ++p) permutation[static_cast<std::size_t>(p)] = p;
  std::uint64_t state = kSeed;
  for (int k = parts - 1; k > 0; --k) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const std::uint64_t j = (state >> 33) % static_cast<std::uint64_t>(k + 1);
    std::swap(permutation[static_cast<std::size_t>(k)], permutation[static_cast<std::size_t>(j)]);
  }
  for (int& p : owner) p = permutation[static_cast<std::size_t>(p)];
}

// What rank 0 sends each rank: its cells (ascending), their degrees and neighbours.
struct GraphParts {
  std::vector<int> cell_counts, entry_counts;
  std::vector<std::int64_t> cells, degrees, neighbours;
};

GraphParts cut_mesh(const GeodesicMesh& mesh, const std::vector<int>& owner, int ranks) {
  GraphParts parts;
  parts.cell_counts.assign(static_cast<std::size_t>(ranks), 0);
  parts.entry_counts.assign(static_cast<std::size_t>(ranks), 0);
  std::vector<std::vector<std::int64_t>> cells(static_cast<std::size_t>(ranks));
  for (std::int64_t c = 0; c < mesh.cell_count(); ++c)
    cells[static_cast<std::size_t>(owner[static_cast<std::size_t>(c)])].push_back(c);
  for (int r = 0; r < ranks; ++r) {
    std::int64_t entries = 0;
    for (const std::int64_t c : cells[static_cast<std::size_t>(r)]) {
      const auto first = mesh.offsets()[static_cast<std::size_t>(c)];
      const auto last = mesh.offsets()[static_cast<std::size_t>(c) + 1];
      parts.cells.push_back(c);
      parts.degrees.push_back(last - first);
      parts.neighbours.insert(parts.neighbours.end(), mesh.neighbours().begin() + first,
                              mesh.neighbours().begin() + last);
      entries += last - first;
    }
    parts.cell_counts[static_cast<std::size_t>(r)] = detail::mpi_count<int>(
        cells[static_cast<std::size_t>(r)].size(), "bench halo: cells per rank");
    parts.entry_counts[static_cast<std::size_t>(r)] =
        detail::mpi_count<int>(entries, "bench halo: neighbour entries per rank");
  }
  return parts;
}

std::vector<int> displacements(const std::vector<int>& counts) {
  std::vector<int> displs(counts.size(), 0);
  for (std::size_t r = 1; r < counts.size(); ++r) displs[r] = displs[r - 1] + counts[r - 1];
  return displs;
}

std::vector<std::int64_t> scatter(const Comm& comm, const std::vector<std::int64_t>& all,
                                  const std::vector<int>& counts) {
  int mine = 0;
  FERRY_CALL_MPI(MPI_Scatter(counts.data(), 1, MPI_INT, &mine, 1, MPI_INT, 0, comm.get()));
  std::vector<std::int64_t> part(static_cast<std::size_t>(mine));
  const std::vector<int> displs = displacements(counts);
  FERRY_CALL_MPI(MPI_Scatterv(all.data(), counts.data(), displs.data(), MPI_INT64_T, part.data(),
                              mine, MPI_INT64_T, 0, comm.get()));
  return part;
}

}  // namespace

HaloBench::HaloBench(MPI_Comm comm, const HaloBenchConfig& config) : comm_(Comm::dup(comm)) {
  detail::agree_on(comm_, [&] { check_config(config); });
  progress().stage("building and partitioning the mesh");
  run_.config = config;
  run_.ranks = comm_.size();
  run_.frequency = GeodesicMesh::frequency_for(config.cells);

  // Rank 0 holds the whole mesh and partition (METIS is serial); the others receive their part.
  GraphParts parts;
  std::int64_t shape[2] = {0, 0};  // cells, edge cut
  detail::agree_on(comm_, [&] {
    if (comm_.rank() != 0) return;
    const GeodesicMesh mesh(run_.frequency);
    std::vector<int> owner = partition_cells(mesh.offsets(), mesh.neighbours(), comm_.size(),
                                             config.partition, kSeed);
    if (config.shuffle_parts) shuffle_parts(owner, comm_.size());
    for (std::int64_t c = 0; c < mesh.cell_count(); ++c)
      for (auto k = mesh.offsets()[static_cast<std::size_t>(c)];
           k < mesh.offsets()[static_cast<std::size_t>(c) + 1]; ++k)
        shape[1] += owner[static_cast<std::size_t>(c)] !=
                    owner[static_cast<std::size_t>(mesh.neighbours()[static_cast<std::size_t>(k)])];
    shape[0] = mesh.cell_count();
    shape[1] /= 2;
    parts = cut_mesh(mesh, owner, comm_.size());
  });
  FERRY_CALL_MPI(MPI_Bcast(shape, 2, MPI_INT64_T, 0, comm_.get()));
  run_.cells = shape[0];
  run_.edge_cut = shape[1];

  graph_.global_cells = run_.cells;
  graph_.cells = scatter(comm_, parts.cells, parts.cell_counts);
  const std::vector<std::int64_t> degrees = scatter(comm_, parts.degrees, parts.cell_counts);
  graph_.neighbours = scatter(comm_, parts.neighbours, parts.entry_counts);
  graph_.offsets.assign(1, 0);
  for (const std::int64_t d : degrees) graph_.offsets.push_back(graph_.offsets.back() + d);
}

void HaloBench::check_ghosts(const Halo& halo, const std::vector<double>& values,
                             const std::string& label) const {
  const int levels = run_.config.levels;
  std::optional<Error> wrong;
  for (std::int64_t i = halo.owned_count(); i < halo.local_count() && !wrong; ++i)
    for (int l = 0; l < levels; ++l) {
      const std::int64_t cell = halo.cells()[static_cast<std::size_t>(i)];
      const double got = values[static_cast<std::size_t>(i * levels + l)];
      if (got == field_value(cell, l, levels)) continue;
      wrong = Error(Errc::Internal,
                    detail::cat("bench halo: engine \"", label, "\" delivered ", got,
                                " to ghost cell ", cell, " level ", l, " on rank ", comm_.rank(),
                                ", expected ", field_value(cell, l, levels),
                                ". This is a bug in ferry, please report it with this command"),
                    comm_.rank());
      break;
    }
  detail::agree(comm_, wrong);
}

HaloResults HaloBench::measure(const std::vector<HaloVariant>& variants) {
  FERRY_CHECK(!variants.empty(), Errc::Arg, "bench halo: no engine to measure");
  const int levels = run_.config.levels;
  HaloOptions options;
  options.depth = run_.config.depth;
  options.fields = {FieldSpec{Datatype::Float64, levels}};

  // Every halo has the same local cells (same graph, same depth): one array serves all.
  std::vector<std::unique_ptr<Halo>> halos;
  std::vector<double> values;
  std::vector<std::function<void()>> steps;
  HaloResults results;
  results.rows.resize(variants.size());
  for (std::size_t v = 0; v < variants.size(); ++v) {
    HaloRow& row = results.rows[v];
    row.label = variants[v].label;
    options.engine = variants[v].engine;
    options.engine_options = variants[v].options;
    progress().stage("setting up " + row.label);
    FERRY_CALL_MPI(MPI_Barrier(comm_.get()));
    const double start = MPI_Wtime();
    halos.push_back(std::make_unique<Halo>(comm_.get(), graph_, options));
    row.setup_seconds = max_over_ranks(comm_, MPI_Wtime() - start);
    Halo& halo = *halos.back();
    if (values.empty()) {
      values.assign(static_cast<std::size_t>(halo.local_count() * levels), 0.0);
      for (std::int64_t i = 0; i < halo.owned_count(); ++i)
        for (int l = 0; l < levels; ++l)
          values[static_cast<std::size_t>(i * levels + l)] =
              field_value(halo.cells()[static_cast<std::size_t>(i)], l, levels);
    }
    // The adaptive engine profiles on these exchanges; the timed ones use its choice.
    while (!halo.exchange().engine_report().settled) halo.execute(values.data());
    std::fill(values.begin() + halo.owned_count() * levels, values.end(), -1.0);
    halo.execute(values.data());
    check_ghosts(halo, values, row.label);
    row.traffic = traffic_over_ranks(comm_, halo.exchange().traffic());
    row.report = halo.exchange().engine_report();
    steps.push_back([&halo, &values] { halo.execute(values.data()); });
  }

  // The shape of the halo, the same for every variant.
  const Halo& any = *halos.front();
  const Plan& plan = any.exchange().plan();
  const std::int64_t value_bytes = levels * static_cast<std::int64_t>(sizeof(double));
  results.ghosts = spread_over_ranks(comm_, any.ghost_count(), true);
  const auto peers = static_cast<std::int64_t>(plan.recv().peer_count());
  results.peers = spread_over_ranks(comm_, peers, true);
  // A rank must at least write its ghosts and read the values it sends.
  const std::int64_t payload = std::max(any.ghost_count(), plan.send().total()) * value_bytes;
  results.payload_bytes_max = spread_over_ranks(comm_, payload, true).max;

  PayloadCopy copy(static_cast<std::size_t>(payload));
  copy.run();  // warm-up
  steps.insert(steps.begin(), [&copy] { copy.run(); });
  progress().stage(detail::cat("timing ", run_.config.repeat, " rounds of ", variants.size(),
                              " halos and the memcpy bound"));
  const std::vector<Summary> times = time_in_rotation(comm_, run_.config.repeat, steps);
  results.memcpy_bound = times[0];
  for (std::size_t v = 0; v < variants.size(); ++v) results.rows[v].exchange = times[v + 1];
  return results;
}

}  // namespace ferry::bench
