// The C API of the halo exchange (ferry::Halo behind ferry_halo), the geodesic test
// meshes (ferry::GeodesicMesh) and cell partitions.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "capi/c_call.hpp"
#include "ferry/cell_partition.hpp"
#include "ferry/geodesic_mesh.hpp"
#include "ferry/halo.h"
#include "ferry/halo.hpp"

struct ferry_halo {
  static constexpr const char* kWhat = "halo";
  static constexpr const char* kSetup = "ferry_halo_setup";
  MPI_Comm comm = MPI_COMM_NULL;  // the user's; used at setup
  ferry::CellGraph graph;         // until setup
  ferry::HaloOptions options;
  bool default_fields = true;  // no field added yet: options.fields holds the default
  std::optional<ferry::Halo> object;
  std::vector<std::uint8_t> mask;  // converted from int per field, sized at setup
};

struct ferry_geodesic_mesh {
  static constexpr const char* kWhat = "mesh";
  ferry::GeodesicMesh mesh;
};

namespace {

using ferry::detail::c_call;
using ferry::detail::CCall;
using ferry::detail::create_handle;
using ferry::detail::destroy_handle;
using ferry::detail::mask_bytes;

// A CSR graph of `cells` cells from C arrays (offsets: cells + 1 values from 0).
void copy_csr(std::int64_t cells, const int64_t* offsets, const int64_t* neighbours,
              std::vector<std::int64_t>& csr_offsets, std::vector<std::int64_t>& csr_neighbours,
              const CCall& call) {
  FERRY_CHECK(cells >= 0, ferry::Errc::Arg, call.function(), ": the cell count is negative: ",
              cells);
  csr_offsets = call.array(offsets, cells + 1, "offsets");
  FERRY_CHECK(csr_offsets.front() == 0 && csr_offsets.back() >= 0, ferry::Errc::Arg,
              call.function(),
              ": offsets must start at 0 and end at the number of neighbours; got ",
              csr_offsets.front(), " and ", csr_offsets.back());
  csr_neighbours = call.array(neighbours, csr_offsets.back(), "neighbours");
}

}  // namespace

extern "C" {

int ferry_halo_create(MPI_Comm comm, int64_t global_cells, int64_t ncells, const int64_t* cells,
                      const int64_t* offsets, const int64_t* neighbours, int depth,
                      const char* engine, ferry_halo** halo) {
  return create_handle("ferry_halo_create", halo, [&](const CCall& call) {
    auto h = std::make_unique<ferry_halo>();
    h->comm = comm;
    h->graph.global_cells = global_cells;
    copy_csr(ncells, offsets, neighbours, h->graph.offsets, h->graph.neighbours, call);
    h->graph.cells = call.array(cells, ncells, "cells");
    h->options.depth = depth;
    h->options.engine = engine ? engine : "default";
    return h.release();
  });
}

int ferry_halo_add_field(ferry_halo* halo, int type, int components, int* field_index) {
  return c_call("ferry_halo_add_field", [&](const CCall& call) {
    auto& h = call.unbuilt(halo);
    const ferry::Datatype datatype = call.datatype(type);
    FERRY_CHECK(components >= 1, ferry::Errc::Arg, call.function(),
                ": components (values per cell) must be >= 1; got ", components);
    if (h.default_fields) h.options.fields.clear();
    h.default_fields = false;
    h.options.fields.push_back({datatype, components});
    if (field_index) *field_index = static_cast<int>(h.options.fields.size()) - 1;
  });
}

int ferry_halo_set_option(ferry_halo* halo, const char* key, const char* value) {
  return c_call("ferry_halo_set_option", [&](const CCall& call) {
    call.set_option(call.unbuilt(halo).options.engine_options, key, value);
  });
}

int ferry_halo_setup(ferry_halo* halo) {
  return c_call("ferry_halo_setup", [&](const CCall& call) {
    auto& h = call.unbuilt(halo);
    h.object.emplace(h.comm, h.graph, h.options);
    h.mask.assign(h.options.fields.size(), 1);
    h.graph = ferry::CellGraph();  // the halo keeps what it needs
  });
}

int ferry_halo_execute(ferry_halo* halo, void* const* fields, const int* mask) {
  return c_call("ferry_halo_execute", [&](const CCall& call) {
    ferry::Halo& h = call.built(halo);
    h.execute(fields, mask_bytes(mask, halo->mask));
  });
}

int ferry_halo_begin(ferry_halo* halo, void* const* fields, const int* mask) {
  return c_call("ferry_halo_begin", [&](const CCall& call) {
    ferry::Halo& h = call.built(halo);
    h.begin(fields, mask_bytes(mask, halo->mask));
  });
}

int ferry_halo_end(ferry_halo* halo) {
  return c_call("ferry_halo_end", [&](const CCall& call) { call.built(halo).end(); });
}

int ferry_halo_owned_count(const ferry_halo* halo, int64_t* owned) {
  return c_call("ferry_halo_owned_count",
                [&](const CCall& call) { call.out(owned) = call.built(halo).owned_count(); });
}

int ferry_halo_local_count(const ferry_halo* halo, int64_t* local) {
  return c_call("ferry_halo_local_count",
                [&](const CCall& call) { call.out(local) = call.built(halo).local_count(); });
}

int ferry_halo_ring_end(const ferry_halo* halo, int ring, int64_t* end) {
  return c_call("ferry_halo_ring_end",
                [&](const CCall& call) { call.out(end) = call.built(halo).ring_end(ring); });
}

int ferry_halo_get_cells(const ferry_halo* halo, int64_t* cells) {
  return c_call("ferry_halo_get_cells",
                [&](const CCall& call) { call.copy_out(call.built(halo).cells(), cells, "cells"); });
}

int ferry_halo_neighbour_count(const ferry_halo* halo, int64_t* count) {
  return c_call("ferry_halo_neighbour_count", [&](const CCall& call) {
    call.out(count) = static_cast<int64_t>(call.built(halo).neighbours().size());
  });
}

int ferry_halo_get_neighbours(const ferry_halo* halo, int64_t* offsets, int64_t* neighbours) {
  return c_call("ferry_halo_get_neighbours", [&](const CCall& call) {
    const ferry::Halo& h = call.built(halo);
    call.copy_out(h.neighbour_offsets(), offsets, "offsets");
    call.copy_out(h.neighbours(), neighbours, "neighbours");
  });
}

int ferry_halo_get_engine(const ferry_halo* halo, const char** engine) {
  return c_call("ferry_halo_get_engine", [&](const CCall& call) {
    call.out(engine) = call.built(halo).exchange().engine_name().c_str();
  });
}

int ferry_halo_close(ferry_halo* halo) {
  return c_call("ferry_halo_close", [&](const CCall& call) {
    auto& h = call.handle(halo);
    if (h.object) h.object->close();
  });
}

int ferry_halo_destroy(ferry_halo** halo) { return destroy_handle("ferry_halo_destroy", halo); }

int ferry_geodesic_mesh_create(int frequency, ferry_geodesic_mesh** mesh) {
  return create_handle("ferry_geodesic_mesh_create", mesh, [&](const CCall&) {
    return new ferry_geodesic_mesh{ferry::GeodesicMesh(frequency)};
  });
}

int ferry_geodesic_mesh_cell_count(const ferry_geodesic_mesh* mesh, int64_t* cells) {
  return c_call("ferry_geodesic_mesh_cell_count", [&](const CCall& call) {
    call.out(cells) = call.handle(mesh).mesh.cell_count();
  });
}

int ferry_geodesic_mesh_neighbour_count(const ferry_geodesic_mesh* mesh, int64_t* count) {
  return c_call("ferry_geodesic_mesh_neighbour_count", [&](const CCall& call) {
    call.out(count) = static_cast<int64_t>(call.handle(mesh).mesh.neighbours().size());
  });
}

int ferry_geodesic_mesh_get_graph(const ferry_geodesic_mesh* mesh, int64_t* offsets,
                                  int64_t* neighbours) {
  return c_call("ferry_geodesic_mesh_get_graph", [&](const CCall& call) {
    const ferry::GeodesicMesh& m = call.handle(mesh).mesh;
    call.copy_out(m.offsets(), offsets, "offsets");
    call.copy_out(m.neighbours(), neighbours, "neighbours");
  });
}

int ferry_geodesic_mesh_get_centres(const ferry_geodesic_mesh* mesh, double* xyz) {
  return c_call("ferry_geodesic_mesh_get_centres", [&](const CCall& call) {
    const ferry::GeodesicMesh& m = call.handle(mesh).mesh;
    FERRY_CHECK(xyz != nullptr, ferry::Errc::Arg, call.function(), ": xyz is NULL; need room for ",
                3 * m.cell_count(), " values");
    for (std::int64_t c = 0; c < m.cell_count(); ++c)
      std::copy(m.centre(c).begin(), m.centre(c).end(), xyz + 3 * c);
  });
}

int ferry_geodesic_mesh_destroy(ferry_geodesic_mesh** mesh) {
  return destroy_handle("ferry_geodesic_mesh_destroy", mesh);
}

int ferry_partition_cells(int64_t ncells, const int64_t* offsets, const int64_t* neighbours,
                          int parts, int method, uint64_t seed, int* owner) {
  return c_call("ferry_partition_cells", [&](const CCall& call) {
    const auto chosen = call.choice<ferry::PartitionMethod>(
        method, FERRY_PARTITION_METIS, "method", "FERRY_PARTITION_BLOCK, _RANDOM or _METIS");
    std::vector<std::int64_t> csr_offsets;
    std::vector<std::int64_t> csr_neighbours;
    copy_csr(ncells, offsets, neighbours, csr_offsets, csr_neighbours, call);
    call.copy_out(ferry::partition_cells(csr_offsets, csr_neighbours, parts, chosen, seed), owner,
                  "owner");
  });
}

}  // extern "C"
