// The C API of regridding outside the coupler: ferry::Weights behind ferry_weights,
// the online weight functions, and ferry::Remap behind ferry_remap.
//
// The collective functions copy their C arrays inside agree_on, so a NULL array on one
// rank fails every rank alike before the library's own collectives start.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "capi/c_arrays.hpp"
#include "capi/c_enums.hpp"
#include "capi/firewall.hpp"
#include "capi/setup_state.hpp"
#include "capi/layout_handle.hpp"
#include "ferry/comm.hpp"
#include "ferry/online_weights.hpp"
#include "ferry/regrid.h"
#include "ferry/remap.hpp"
#include "ferry/weights.hpp"
#include "util/agree.hpp"

struct ferry_weights {
  ferry::Weights weights;
};

struct ferry_remap {
  MPI_Comm comm = MPI_COMM_NULL;            // the user's; used at setup
  const ferry::Weights* weights = nullptr;  // the user's; used at setup
  ferry::Layout src;                        // until setup
  ferry::Layout dst;                        // until setup
  std::vector<ferry::FieldSpec> fields;
  ferry::RemapOptions options;
  std::optional<ferry::Remap> remap;
};

namespace {

using ferry::detail::check_not_set_up;
using ferry::detail::copied;
using ferry::detail::copy_out;
using ferry::detail::deref;
using ferry::detail::enumerator;
using ferry::detail::guarded;
using ferry::detail::output;
using ferry::detail::set_engine_option;
using ferry::detail::set_up;

// Runs `prepare` (rank-local: reads the C arguments) and agrees on its errors over
// comm, then makes the weights with the collective `compute` into a new handle.
template <class Prepare, class Compute>
void agreed_weights(MPI_Comm comm, const char* function, ferry_weights** weights,
                    Prepare&& prepare, Compute&& compute) {
  FERRY_CHECK(comm != MPI_COMM_NULL, ferry::Errc::Arg, function, ": comm is MPI_COMM_NULL");
  ferry::detail::agree_on(ferry::Comm::view(comm), [&] {
    output(weights, function) = nullptr;
    prepare();
  });
  *weights = new ferry_weights{compute()};
}

// One grid's points on this rank from C arrays in layout order.
ferry::GridPoints grid_points(const ferry_layout* layout, const double* lon, const double* lat,
                              const int* mask, const char* function, const char* grid) {
  const ferry::Layout& l = deref(layout, function, (std::string(grid) + " layout").c_str()).layout;
  const std::int64_t n = l.local_size();
  const std::string side(grid);
  return ferry::GridPoints{
      l, copied(lon, n, function, (side + " lon").c_str()),
      copied(lat, n, function, (side + " lat").c_str()),
      mask ? copied(mask, n, function, (side + " mask").c_str()) : std::vector<std::int32_t>{}};
}

// One grid's cells on this rank from C arrays in layout order.
ferry::GridCells grid_cells(const ferry_layout* layout, int corners, const double* corner_lon,
                            const double* corner_lat, const int* mask, const char* function,
                            const char* grid) {
  const ferry::Layout& l = deref(layout, function, (std::string(grid) + " layout").c_str()).layout;
  const std::string side(grid);
  FERRY_CHECK(corners >= 1, ferry::Errc::Arg, function, ": ", side,
              " corners must be >= 1; got ", corners);
  const std::int64_t n = l.local_size();
  ferry::GridCells cells;
  cells.layout = l;
  cells.corners = corners;
  cells.corner_lon = copied(corner_lon, n * corners, function, (side + " corner_lon").c_str());
  cells.corner_lat = copied(corner_lat, n * corners, function, (side + " corner_lat").c_str());
  if (mask) cells.mask = copied(mask, n, function, (side + " mask").c_str());
  return cells;
}

ferry_remap& unbuilt(ferry_remap* remap, const char* function) {
  auto& handle = deref(remap, function, "remap");
  check_not_set_up(handle.remap, function, "remap", "ferry_remap_setup");
  return handle;
}

// The set-up ferry::Remap of a handle (const for a const handle).
template <class Handle>
auto& built(Handle* remap, const char* function) {
  return set_up(deref(remap, function, "remap").remap, function, "remap", "ferry_remap_setup");
}

// A weight file written by `write` (Weights::write_scrip or write_esmf), after checks
// agreed over comm.
int write_weights(MPI_Comm comm, const ferry_weights* weights, const char* path,
                  const char* function,
                  void (ferry::Weights::*write)(MPI_Comm, const std::string&) const) {
  return guarded(function, [&] {
    FERRY_CHECK(comm != MPI_COMM_NULL, ferry::Errc::Arg, function, ": comm is MPI_COMM_NULL");
    ferry::detail::agree_on(ferry::Comm::view(comm), [&] {
      deref(weights, function, "weights");
      FERRY_CHECK(path != nullptr, ferry::Errc::Arg, function, ": path is NULL");
    });
    (weights->weights.*write)(comm, path);
  });
}

// The conservative weight calls of the C API, named `function` in messages.
int conservative_cells(
    const char* function, MPI_Comm comm, const ferry_layout* src, int src_corners, const int* src_corner_counts,
    const double* src_corner_lon, const double* src_corner_lat, const int* src_mask, int src_edges,
    const ferry_layout* dst, int dst_corners, const int* dst_corner_counts,
    const double* dst_corner_lon, const double* dst_corner_lat, const int* dst_mask, int dst_edges,
    int normalisation, ferry_weights** weights) {
  return guarded(function, [&] {
    ferry::GridCells s, d;
    ferry::ConservativeOptions options;
    agreed_weights(
        comm, function, weights,
        [&] {
          s = grid_cells(src, src_corners, src_corner_lon, src_corner_lat, src_mask, function,
                         "source");
          d = grid_cells(dst, dst_corners, dst_corner_lon, dst_corner_lat, dst_mask, function,
                         "destination");
          const auto local = [](const ferry_layout* l) { return l->layout.local_size(); };
          if (src_corner_counts)
            s.corner_counts = copied(src_corner_counts, local(src), function, "source corner_counts");
          if (dst_corner_counts)
            d.corner_counts =
                copied(dst_corner_counts, local(dst), function, "destination corner_counts");
          const char* edges = "FERRY_CELL_EDGES_AUTO, _GREAT_CIRCLE or _LONLAT";
          s.edges = enumerator<ferry::CellEdges>(src_edges, FERRY_CELL_EDGES_LONLAT, function,
                                                 "src_edges", edges);
          d.edges = enumerator<ferry::CellEdges>(dst_edges, FERRY_CELL_EDGES_LONLAT, function,
                                                 "dst_edges", edges);
          options.normalisation = enumerator<ferry::ConservativeNormalisation>(
              normalisation, FERRY_NORMALISATION_DESTAREA, function, "normalisation",
              "FERRY_NORMALISATION_FRACAREA or FERRY_NORMALISATION_DESTAREA");
        },
        [&] { return ferry::conservative_weights(comm, s, d, options); });
  });
}

}  // namespace

extern "C" {

int ferry_weights_read(MPI_Comm comm, const char* path, ferry_weights** weights) {
  const char* function = "ferry_weights_read";
  return guarded(function, [&] {
    agreed_weights(
        comm, function, weights,
        [&] { FERRY_CHECK(path != nullptr, ferry::Errc::Arg, function, ": path is NULL"); },
        [&] { return ferry::Weights::read(comm, path); });
  });
}

int ferry_weights_from_links(MPI_Comm comm, int64_t src_size, int64_t dst_size, int64_t count,
                             const int64_t* rows, const int64_t* cols, const double* values,
                             const int64_t* order, ferry_weights** weights) {
  const char* function = "ferry_weights_from_links";
  return guarded(function, [&] {
    std::vector<ferry::WeightLink> links;
    agreed_weights(
        comm, function, weights,
        [&] {
          const auto r = copied(rows, count, function, "rows");
          const auto c = copied(cols, count, function, "cols");
          const auto v = copied(values, count, function, "values");
          links.resize(r.size());
          for (std::size_t i = 0; i < links.size(); ++i) links[i] = {r[i], c[i], v[i], 0};
        },
        [&] {
          // Every rank takes part in the numbering, whether it passed orders or not.
          ferry::order_links_by_position(comm, links);
          if (order)
            for (std::size_t i = 0; i < links.size(); ++i) links[i].order = order[i];
          return ferry::Weights::from_links(comm, src_size, dst_size, std::move(links));
        });
  });
}

int ferry_weights_write_scrip(MPI_Comm comm, const ferry_weights* weights, const char* path) {
  return write_weights(comm, weights, path, "ferry_weights_write_scrip", &ferry::Weights::write_scrip);
}

int ferry_weights_write_esmf(MPI_Comm comm, const ferry_weights* weights, const char* path) {
  return write_weights(comm, weights, path, "ferry_weights_write_esmf", &ferry::Weights::write_esmf);
}

int ferry_weights_nearest_neighbour(MPI_Comm comm, const ferry_layout* src, const double* src_lon,
                                    const double* src_lat, const int* src_mask,
                                    const ferry_layout* dst, const double* dst_lon,
                                    const double* dst_lat, const int* dst_mask, int neighbours,
                                    int weighting, double gaussian_variance,
                                    ferry_weights** weights) {
  const char* function = "ferry_weights_nearest_neighbour";
  return guarded(function, [&] {
    ferry::GridPoints s, d;
    ferry::NearestNeighbourOptions options;
    agreed_weights(
        comm, function, weights,
        [&] {
          s = grid_points(src, src_lon, src_lat, src_mask, function, "source");
          d = grid_points(dst, dst_lon, dst_lat, dst_mask, function, "destination");
          options.neighbours = neighbours;
          options.weighting = enumerator<ferry::NeighbourWeighting>(
              weighting, FERRY_WEIGHTING_GAUSSIAN, function, "weighting",
              "FERRY_WEIGHTING_INVERSE_DISTANCE or FERRY_WEIGHTING_GAUSSIAN");
          options.gaussian_variance = gaussian_variance;
        },
        [&] { return ferry::nearest_neighbour_weights(comm, s, d, options); });
  });
}

int ferry_weights_bilinear(MPI_Comm comm, const ferry_layout* src, const double* src_lon,
                           const double* src_lat, const int* src_mask, const ferry_layout* dst,
                           const double* dst_lon, const double* dst_lat, const int* dst_mask,
                           int64_t nx, int periodic, ferry_weights** weights) {
  const char* function = "ferry_weights_bilinear";
  return guarded(function, [&] {
    ferry::GridPoints s, d;
    agreed_weights(
        comm, function, weights,
        [&] {
          s = grid_points(src, src_lon, src_lat, src_mask, function, "source");
          d = grid_points(dst, dst_lon, dst_lat, dst_mask, function, "destination");
        },
        [&] { return ferry::bilinear_weights(comm, s, d, {nx, periodic != 0, ferry::Unmapped::Fill}); });
  });
}

int ferry_weights_conservative(MPI_Comm comm, const ferry_layout* src, int src_corners,
                               const double* src_corner_lon, const double* src_corner_lat,
                               const int* src_mask, const ferry_layout* dst, int dst_corners,
                               const double* dst_corner_lon, const double* dst_corner_lat,
                               const int* dst_mask, int normalisation, ferry_weights** weights) {
  return conservative_cells("ferry_weights_conservative", comm, src, src_corners, nullptr,
                            src_corner_lon, src_corner_lat, src_mask, FERRY_CELL_EDGES_AUTO, dst,
                            dst_corners, nullptr, dst_corner_lon, dst_corner_lat, dst_mask,
                            FERRY_CELL_EDGES_AUTO, normalisation, weights);
}

int ferry_weights_conservative_polygons(
    MPI_Comm comm, const ferry_layout* src, int src_corners, const int* src_corner_counts,
    const double* src_corner_lon, const double* src_corner_lat, const int* src_mask, int src_edges,
    const ferry_layout* dst, int dst_corners, const int* dst_corner_counts,
    const double* dst_corner_lon, const double* dst_corner_lat, const int* dst_mask, int dst_edges,
    int normalisation, ferry_weights** weights) {
  return conservative_cells("ferry_weights_conservative_polygons", comm, src, src_corners,
                            src_corner_counts, src_corner_lon, src_corner_lat, src_mask, src_edges,
                            dst, dst_corners, dst_corner_counts, dst_corner_lon, dst_corner_lat,
                            dst_mask, dst_edges, normalisation, weights);
}

int ferry_weights_get_sizes(const ferry_weights* weights, int64_t* src_size, int64_t* dst_size,
                            int64_t* global_links) {
  return guarded("ferry_weights_get_sizes", [&] {
    const auto& w = deref(weights, "ferry_weights_get_sizes", "weights").weights;
    if (src_size) *src_size = w.src_size();
    if (dst_size) *dst_size = w.dst_size();
    if (global_links) *global_links = w.global_links();
  });
}

int ferry_weights_get_local_rows(const ferry_weights* weights, int64_t* first_row,
                                 int64_t* row_count, int64_t* link_count) {
  return guarded("ferry_weights_get_local_rows", [&] {
    const auto& w = deref(weights, "ferry_weights_get_local_rows", "weights").weights;
    if (first_row) *first_row = w.first_row();
    if (row_count) *row_count = w.row_count();
    if (link_count) *link_count = static_cast<int64_t>(w.cols().size());
  });
}

int ferry_weights_get_links(const ferry_weights* weights, int64_t* row_start, int64_t* cols,
                            double* values) {
  const char* function = "ferry_weights_get_links";
  return guarded(function, [&] {
    const auto& w = deref(weights, function, "weights").weights;
    copy_out(w.row_start(), row_start, function, "row_start");
    copy_out(w.cols(), cols, function, "cols");
    copy_out(w.values(), values, function, "values");
  });
}

int ferry_weights_get_method(const ferry_weights* weights, const char** method) {
  const char* function = "ferry_weights_get_method";
  return guarded(function, [&] {
    output(method, function) = deref(weights, function, "weights").weights.method().c_str();
  });
}

int ferry_weights_destroy(ferry_weights** weights) {
  return guarded("ferry_weights_destroy", [&] {
    if (weights == nullptr) return;
    delete *weights;
    *weights = nullptr;
  });
}

int ferry_remap_create(MPI_Comm comm, const ferry_weights* weights, const ferry_layout* src,
                       const ferry_layout* dst, const char* engine, ferry_remap** remap) {
  const char* function = "ferry_remap_create";
  return guarded(function, [&] {
    output(remap, function) = nullptr;
    auto r = std::make_unique<ferry_remap>();
    r->comm = comm;
    r->weights = &deref(weights, function, "weights").weights;
    r->src = deref(src, function, "source layout").layout;
    r->dst = deref(dst, function, "destination layout").layout;
    r->options.engine = engine ? engine : "default";
    *remap = r.release();
  });
}

int ferry_remap_add_field(ferry_remap* remap, int type, int components, int* field_index) {
  const char* function = "ferry_remap_add_field";
  return guarded(function, [&] {
    auto& r = unbuilt(remap, function);
    FERRY_CHECK(type == FERRY_TYPE_FLOAT64 || type == FERRY_TYPE_FLOAT32, ferry::Errc::Arg,
                function, ": a remapped field is FERRY_TYPE_FLOAT64 or FERRY_TYPE_FLOAT32; got ",
                "type ", type);
    FERRY_CHECK(components >= 1, ferry::Errc::Arg, function, ": components must be >= 1; got ",
                components);
    r.fields.push_back({static_cast<ferry::Datatype>(type), components});
    if (field_index) *field_index = static_cast<int>(r.fields.size()) - 1;
  });
}

int ferry_remap_set_map_on(ferry_remap* remap, int map_on) {
  const char* function = "ferry_remap_set_map_on";
  return guarded(function, [&] {
    unbuilt(remap, function).options.map_on = enumerator<ferry::MapOn>(
        map_on, FERRY_MAP_ON_DST, function, "map_on", "FERRY_MAP_ON_SRC or FERRY_MAP_ON_DST");
  });
}

int ferry_remap_set_mode(ferry_remap* remap, int mode) {
  const char* function = "ferry_remap_set_mode";
  return guarded(function, [&] {
    unbuilt(remap, function).options.mode = enumerator<ferry::RemapMode>(
        mode, FERRY_REMAP_SUM, function, "mode", "FERRY_REMAP_BFB or FERRY_REMAP_SUM");
  });
}

int ferry_remap_set_fill_value(ferry_remap* remap, double fill_value) {
  const char* function = "ferry_remap_set_fill_value";
  return guarded(function, [&] { unbuilt(remap, function).options.fill_value = fill_value; });
}

int ferry_remap_set_dst_mask(ferry_remap* remap, const int* mask) {
  const char* function = "ferry_remap_set_dst_mask";
  return guarded(function, [&] {
    auto& r = unbuilt(remap, function);
    const auto flags = copied(mask, r.dst.local_size(), function, "mask");
    r.options.dst_mask.assign(flags.size(), 0);
    for (std::size_t i = 0; i < flags.size(); ++i) r.options.dst_mask[i] = flags[i] != 0 ? 1 : 0;
  });
}

int ferry_remap_set_option(ferry_remap* remap, const char* key, const char* value) {
  const char* function = "ferry_remap_set_option";
  return guarded(function, [&] {
    set_engine_option(unbuilt(remap, function).options.engine_options, key, value, function);
  });
}

int ferry_remap_setup(ferry_remap* remap) {
  const char* function = "ferry_remap_setup";
  return guarded(function, [&] {
    auto& r = unbuilt(remap, function);
    auto fields = r.fields.empty()
                      ? std::vector<ferry::FieldSpec>{{ferry::Datatype::Float64, 1}}
                      : r.fields;
    r.remap.emplace(r.comm, *r.weights, r.src, r.dst, std::move(fields), r.options);
    // Neither the layouts nor the weights are needed any more.
    r.src = ferry::Layout();
    r.dst = ferry::Layout();
    r.weights = nullptr;
  });
}

int ferry_remap_apply(ferry_remap* remap, const void* const* src, void* const* dst) {
  const char* function = "ferry_remap_apply";
  return guarded(function, [&] {
    FERRY_CHECK(src && dst, ferry::Errc::Arg, function,
                ": src or dst is NULL; pass an array of one pointer per field");
    built(remap, function).apply(src, dst);
  });
}

int ferry_remap_begin(ferry_remap* remap, const void* const* src, void* const* dst) {
  const char* function = "ferry_remap_begin";
  return guarded(function, [&] {
    FERRY_CHECK(src && dst, ferry::Errc::Arg, function,
                ": src or dst is NULL; pass an array of one pointer per field");
    built(remap, function).begin(src, dst);
  });
}

int ferry_remap_end(ferry_remap* remap) {
  return guarded("ferry_remap_end", [&] { built(remap, "ferry_remap_end").end(); });
}

int ferry_remap_get_traffic(const ferry_remap* remap, int64_t* messages, int64_t* bytes) {
  return guarded("ferry_remap_get_traffic", [&] {
    const auto traffic = built(remap, "ferry_remap_get_traffic").traffic();
    if (messages) *messages = traffic.messages;
    if (bytes) *bytes = traffic.bytes;
  });
}

int ferry_remap_get_point_data(const ferry_remap* remap, int grid, double* area, double* frac,
                               int* mask, int* present) {
  const char* function = "ferry_remap_get_point_data";
  return guarded(function, [&] {
    const ferry::Remap& r = built(remap, function);
    const int side =
        enumerator<int>(grid, FERRY_GRID_DST, function, "grid", "FERRY_GRID_SRC or FERRY_GRID_DST");
    const ferry::GridPointData& points = side == FERRY_GRID_SRC ? r.src_points() : r.dst_points();
    int flags = 0;
    if (points.area) {
      flags |= FERRY_POINT_AREA;
      if (area) std::copy(points.area->begin(), points.area->end(), area);
    }
    if (points.frac) {
      flags |= FERRY_POINT_FRAC;
      if (frac) std::copy(points.frac->begin(), points.frac->end(), frac);
    }
    if (points.mask) {
      flags |= FERRY_POINT_MASK;
      if (mask) std::copy(points.mask->begin(), points.mask->end(), mask);
    }
    if (present) *present = flags;
  });
}

int ferry_remap_destroy(ferry_remap** remap) {
  return guarded("ferry_remap_destroy", [&] {
    if (remap == nullptr) return;
    delete *remap;
    *remap = nullptr;
  });
}

}  // extern "C"
