// The C API of the halo exchange (ferry::Halo behind ferry_halo), the geodesic test
// meshes (ferry::GeodesicMesh) and cell partitions.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "capi/c_arrays.hpp"
#include "capi/c_enums.hpp"
#include "capi/firewall.hpp"
#include "capi/setup_state.hpp"
#include "ferry/cell_partition.hpp"
#include "ferry/geodesic_mesh.hpp"
#include "ferry/halo.h"
#include "ferry/halo.hpp"

struct ferry_halo {
  MPI_Comm comm = MPI_COMM_NULL;  // the user's; used at setup
  ferry::CellGraph graph;         // until setup
  ferry::HaloOptions options;
  bool default_fields = true;  // no field added yet: options.fields holds the default
  std::optional<ferry::Halo> halo;
  std::vector<std::uint8_t> mask;  // converted from int per field, sized at setup
};

struct ferry_geodesic_mesh {
  ferry::GeodesicMesh mesh;
};

namespace {

using ferry::detail::check_not_set_up;
using ferry::detail::copied;
using ferry::detail::copy_out;
using ferry::detail::deref;
using ferry::detail::guarded;
using ferry::detail::output;
using ferry::detail::set_engine_option;
using ferry::detail::set_up;

// A CSR graph of `cells` cells from C arrays (offsets: cells + 1 values from 0).
void copy_csr(std::int64_t cells, const int64_t* offsets, const int64_t* neighbours,
              std::vector<std::int64_t>& csr_offsets, std::vector<std::int64_t>& csr_neighbours,
              const char* function) {
  FERRY_CHECK(cells >= 0, ferry::Errc::Arg, function, ": the cell count is negative: ", cells);
  csr_offsets = copied(offsets, cells + 1, function, "offsets");
  FERRY_CHECK(csr_offsets.front() == 0 && csr_offsets.back() >= 0, ferry::Errc::Arg, function,
              ": offsets must start at 0 and end at the number of neighbours; got ",
              csr_offsets.front(), " and ", csr_offsets.back());
  csr_neighbours = copied(neighbours, csr_offsets.back(), function, "neighbours");
}

ferry_halo& unbuilt(ferry_halo* halo, const char* function) {
  auto& handle = deref(halo, function, "halo");
  check_not_set_up(handle.halo, function, "halo", "ferry_halo_setup");
  return handle;
}

// The set-up ferry::Halo of a handle (const for a const handle).
template <class Handle>
auto& built(Handle* halo, const char* function) {
  return set_up(deref(halo, function, "halo").halo, function, "halo", "ferry_halo_setup");
}

const std::uint8_t* convert_mask(ferry_halo& h, const int* mask) {
  if (mask == nullptr) return nullptr;
  for (std::size_t f = 0; f < h.mask.size(); ++f) h.mask[f] = mask[f] != 0 ? 1 : 0;
  return h.mask.data();
}

}  // namespace

extern "C" {

int ferry_halo_create(MPI_Comm comm, int64_t global_cells, int64_t ncells, const int64_t* cells,
                      const int64_t* offsets, const int64_t* neighbours, int depth,
                      const char* engine, ferry_halo** halo) {
  const char* function = "ferry_halo_create";
  return guarded(function, [&] {
    output(halo, function) = nullptr;
    auto h = std::make_unique<ferry_halo>();
    h->comm = comm;
    h->graph.global_cells = global_cells;
    copy_csr(ncells, offsets, neighbours, h->graph.offsets, h->graph.neighbours, function);
    h->graph.cells = copied(cells, ncells, function, "cells");
    h->options.depth = depth;
    h->options.engine = engine ? engine : "default";
    *halo = h.release();
  });
}

int ferry_halo_add_field(ferry_halo* halo, int type, int components, int* field_index) {
  const char* function = "ferry_halo_add_field";
  return guarded(function, [&] {
    auto& h = unbuilt(halo, function);
    const ferry::Datatype datatype = ferry::detail::datatype_of(type, function);
    FERRY_CHECK(components >= 1, ferry::Errc::Arg, function,
                ": components (values per cell) must be >= 1; got ", components);
    if (h.default_fields) h.options.fields.clear();
    h.default_fields = false;
    h.options.fields.push_back({datatype, components});
    if (field_index) *field_index = static_cast<int>(h.options.fields.size()) - 1;
  });
}

int ferry_halo_set_option(ferry_halo* halo, const char* key, const char* value) {
  const char* function = "ferry_halo_set_option";
  return guarded(function, [&] {
    set_engine_option(unbuilt(halo, function).options.engine_options, key, value, function);
  });
}

int ferry_halo_setup(ferry_halo* halo) {
  const char* function = "ferry_halo_setup";
  return guarded(function, [&] {
    auto& h = unbuilt(halo, function);
    h.halo.emplace(h.comm, h.graph, h.options);
    h.mask.assign(h.options.fields.size(), 1);
    h.graph = ferry::CellGraph();  // the halo keeps what it needs
  });
}

int ferry_halo_execute(ferry_halo* halo, void* const* fields, const int* mask) {
  const char* function = "ferry_halo_execute";
  return guarded(function, [&] {
    auto& h = built(halo, function);
    h.execute(fields, convert_mask(*halo, mask));
  });
}

int ferry_halo_begin(ferry_halo* halo, void* const* fields, const int* mask) {
  const char* function = "ferry_halo_begin";
  return guarded(function, [&] {
    auto& h = built(halo, function);
    h.begin(fields, convert_mask(*halo, mask));
  });
}

int ferry_halo_end(ferry_halo* halo) {
  const char* function = "ferry_halo_end";
  return guarded(function, [&] { built(halo, function).end(); });
}

int ferry_halo_owned_count(const ferry_halo* halo, int64_t* owned) {
  const char* function = "ferry_halo_owned_count";
  return guarded(function,
                 [&] { output(owned, function) = built(halo, function).owned_count(); });
}

int ferry_halo_local_count(const ferry_halo* halo, int64_t* local) {
  const char* function = "ferry_halo_local_count";
  return guarded(function,
                 [&] { output(local, function) = built(halo, function).local_count(); });
}

int ferry_halo_ring_end(const ferry_halo* halo, int ring, int64_t* end) {
  const char* function = "ferry_halo_ring_end";
  return guarded(function, [&] { output(end, function) = built(halo, function).ring_end(ring); });
}

int ferry_halo_get_cells(const ferry_halo* halo, int64_t* cells) {
  const char* function = "ferry_halo_get_cells";
  return guarded(function,
                 [&] { copy_out(built(halo, function).cells(), cells, function, "cells"); });
}

int ferry_halo_neighbour_count(const ferry_halo* halo, int64_t* count) {
  const char* function = "ferry_halo_neighbour_count";
  return guarded(function, [&] {
    output(count, function) = static_cast<int64_t>(built(halo, function).neighbours().size());
  });
}

int ferry_halo_get_neighbours(const ferry_halo* halo, int64_t* offsets, int64_t* neighbours) {
  const char* function = "ferry_halo_get_neighbours";
  return guarded(function, [&] {
    const auto& h = built(halo, function);
    copy_out(h.neighbour_offsets(), offsets, function, "offsets");
    copy_out(h.neighbours(), neighbours, function, "neighbours");
  });
}

int ferry_halo_get_engine(const ferry_halo* halo, const char** engine) {
  const char* function = "ferry_halo_get_engine";
  return guarded(function, [&] {
    output(engine, function) = built(halo, function).exchange().engine_name().c_str();
  });
}

int ferry_halo_destroy(ferry_halo** halo) {
  return guarded("ferry_halo_destroy", [&] {
    if (halo == nullptr) return;
    delete *halo;
    *halo = nullptr;
  });
}

int ferry_geodesic_mesh_create(int frequency, ferry_geodesic_mesh** mesh) {
  const char* function = "ferry_geodesic_mesh_create";
  return guarded(function, [&] {
    output(mesh, function) = nullptr;
    *mesh = new ferry_geodesic_mesh{ferry::GeodesicMesh(frequency)};
  });
}

int ferry_geodesic_mesh_cell_count(const ferry_geodesic_mesh* mesh, int64_t* cells) {
  const char* function = "ferry_geodesic_mesh_cell_count";
  return guarded(function, [&] {
    output(cells, function) = deref(mesh, function, "mesh").mesh.cell_count();
  });
}

int ferry_geodesic_mesh_neighbour_count(const ferry_geodesic_mesh* mesh, int64_t* count) {
  const char* function = "ferry_geodesic_mesh_neighbour_count";
  return guarded(function, [&] {
    output(count, function) =
        static_cast<int64_t>(deref(mesh, function, "mesh").mesh.neighbours().size());
  });
}

int ferry_geodesic_mesh_get_graph(const ferry_geodesic_mesh* mesh, int64_t* offsets,
                                  int64_t* neighbours) {
  const char* function = "ferry_geodesic_mesh_get_graph";
  return guarded(function, [&] {
    const auto& m = deref(mesh, function, "mesh").mesh;
    copy_out(m.offsets(), offsets, function, "offsets");
    copy_out(m.neighbours(), neighbours, function, "neighbours");
  });
}

int ferry_geodesic_mesh_get_centres(const ferry_geodesic_mesh* mesh, double* xyz) {
  const char* function = "ferry_geodesic_mesh_get_centres";
  return guarded(function, [&] {
    const auto& m = deref(mesh, function, "mesh").mesh;
    FERRY_CHECK(xyz != nullptr, ferry::Errc::Arg, function, ": xyz is NULL; need room for ",
                3 * m.cell_count(), " values");
    for (std::int64_t c = 0; c < m.cell_count(); ++c)
      std::copy(m.centre(c).begin(), m.centre(c).end(), xyz + 3 * c);
  });
}

int ferry_geodesic_mesh_destroy(ferry_geodesic_mesh** mesh) {
  return guarded("ferry_geodesic_mesh_destroy", [&] {
    if (mesh == nullptr) return;
    delete *mesh;
    *mesh = nullptr;
  });
}

int ferry_partition_cells(int64_t ncells, const int64_t* offsets, const int64_t* neighbours,
                          int parts, int method, uint64_t seed, int* owner) {
  const char* function = "ferry_partition_cells";
  return guarded(function, [&] {
    FERRY_CHECK(method >= FERRY_PARTITION_BLOCK && method <= FERRY_PARTITION_METIS,
                ferry::Errc::Arg, function, ": unknown method ", method,
                ". Use FERRY_PARTITION_BLOCK, _RANDOM or _METIS");
    std::vector<std::int64_t> csr_offsets;
    std::vector<std::int64_t> csr_neighbours;
    copy_csr(ncells, offsets, neighbours, csr_offsets, csr_neighbours, function);
    copy_out(ferry::partition_cells(csr_offsets, csr_neighbours, parts,
                                    static_cast<ferry::PartitionMethod>(method), seed),
             owner, function, "owner");
  });
}

}  // extern "C"
