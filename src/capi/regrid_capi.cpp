// The C API of regridding outside the coupler: ferry::Weights behind ferry_weights,
// the online weight functions, ferry::Grid (read_grid) behind ferry_grid, and
// ferry::Remap behind ferry_remap.
//
// The collective functions copy their C arrays inside agree_on, so a NULL array on one
// rank fails every rank alike before the library's own collectives start.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "capi/c_call.hpp"
#include "capi/layout_handle.hpp"
#include "ferry/comm.hpp"
#include "ferry/grid_file.hpp"
#include "ferry/online_weights.hpp"
#include "ferry/regrid.h"
#include "ferry/remap.hpp"
#include "ferry/weights.hpp"
#include "util/agree.hpp"

struct ferry_weights {
  static constexpr const char* kWhat = "weights";
  ferry::Weights weights;
};

struct ferry_grid {
  static constexpr const char* kWhat = "grid";
  ferry::Grid grid;
};

struct ferry_remap {
  static constexpr const char* kWhat = "remap";
  static constexpr const char* kSetup = "ferry_remap_setup";
  MPI_Comm comm = MPI_COMM_NULL;            // the user's; used at setup
  const ferry::Weights* weights = nullptr;  // the user's; used at setup
  ferry::Layout src;                        // until setup
  ferry::Layout dst;                        // until setup
  std::vector<ferry::FieldSpec> fields;
  ferry::RemapOptions options;
  std::optional<ferry::Remap> object;
};

namespace {

using ferry::detail::c_call;
using ferry::detail::CCall;
using ferry::detail::create_handle;
using ferry::detail::destroy_handle;

// The body of a function making N weights: runs `prepare` (rank-local: reads the C
// arguments) and agrees on its errors over comm, then makes the weights with the
// collective `compute` (returning std::array<ferry::Weights, N>) into new handles.
template <std::size_t N, class Prepare, class Compute>
int agreed_weight_set(const char* function, MPI_Comm comm, std::array<ferry_weights**, N> out,
                      Prepare&& prepare, Compute&& compute) {
  return c_call(function, [&](const CCall& call) {
    ferry::detail::agree_on(ferry::Comm::view(call.comm(comm)), [&] {
      for (ferry_weights** o : out) call.out(o) = nullptr;
      prepare(call);
    });
    std::array<ferry::Weights, N> made = compute();
    std::array<std::unique_ptr<ferry_weights>, N> handles;
    for (std::size_t i = 0; i < N; ++i)
      handles[i] = std::make_unique<ferry_weights>(ferry_weights{std::move(made[i])});
    for (std::size_t i = 0; i < N; ++i) *out[i] = handles[i].release();
  });
}

// agreed_weight_set for one matrix.
template <class Prepare, class Compute>
int agreed_weights(const char* function, MPI_Comm comm, ferry_weights** weights,
                   Prepare&& prepare, Compute&& compute) {
  return agreed_weight_set<1>(function, comm, {weights}, std::forward<Prepare>(prepare),
                              [&] { return std::array<ferry::Weights, 1>{compute()}; });
}

// One grid's points on this rank from C arrays in layout order.
ferry::GridPoints grid_points(const ferry_layout* layout, const double* lon, const double* lat,
                              const int* mask, const CCall& call, const std::string& side) {
  const ferry::Layout& l = call.handle(layout, (side + " layout").c_str()).layout;
  const std::int64_t n = l.local_size();
  return ferry::GridPoints{
      l, call.array(lon, n, side + " lon"), call.array(lat, n, side + " lat"),
      mask ? call.array(mask, n, side + " mask") : std::vector<std::int32_t>{}};
}

// One grid's cells on this rank from C arrays in layout order.
ferry::GridCells grid_cells(const ferry_layout* layout, int corners, const double* corner_lon,
                            const double* corner_lat, const int* mask, const CCall& call,
                            const std::string& side) {
  const ferry::Layout& l = call.handle(layout, (side + " layout").c_str()).layout;
  FERRY_CHECK(corners >= 1, ferry::Errc::Arg, call.function(), ": ", side,
              " corners must be >= 1; got ", corners);
  const std::int64_t n = l.local_size();
  ferry::GridCells cells;
  cells.layout = l;
  cells.corners = corners;
  cells.corner_lon = call.array(corner_lon, n * corners, side + " corner_lon");
  cells.corner_lat = call.array(corner_lat, n * corners, side + " corner_lat");
  if (mask) cells.mask = call.array(mask, n, side + " mask");
  return cells;
}

// One grid's cells of any convex polygons on this rank from C arrays in layout order.
ferry::GridCells polygon_cells(const ferry_layout* layout, int corners, const int* corner_counts,
                               const double* corner_lon, const double* corner_lat,
                               const int* mask, int edges, const CCall& call,
                               const std::string& side) {
  ferry::GridCells cells = grid_cells(layout, corners, corner_lon, corner_lat, mask, call, side);
  if (corner_counts)
    cells.corner_counts =
        call.array(corner_counts, cells.layout.local_size(), side + " corner_counts");
  cells.edges = call.choice<ferry::CellEdges>(edges, FERRY_CELL_EDGES_LONLAT,
                                              side == "source" ? "src_edges" : "dst_edges",
                                              "FERRY_CELL_EDGES_AUTO, _GREAT_CIRCLE or _LONLAT");
  return cells;
}

ferry::Unmapped unmapped_choice(int unmapped, const CCall& call) {
  return call.choice<ferry::Unmapped>(unmapped, FERRY_UNMAPPED_FOUR_NEAREST, "unmapped",
                                      "FERRY_UNMAPPED_FILL, _NEAREST or _FOUR_NEAREST");
}

// nx and periodic as ConservativeOptions has them: conservative_weights checks nx.
ferry::ConservativeOptions conservative_options(int normalisation, int unmapped, int order,
                                                std::int64_t nx, int periodic,
                                                const CCall& call) {
  ferry::ConservativeOptions options;
  options.normalisation = call.choice<ferry::ConservativeNormalisation>(
      normalisation, FERRY_NORMALISATION_DESTAREA, "normalisation",
      "FERRY_NORMALISATION_FRACAREA or FERRY_NORMALISATION_DESTAREA");
  options.unmapped = unmapped_choice(unmapped, call);
  FERRY_CHECK(order == 1 || order == 2, ferry::Errc::Arg, call.function(),
              ": order must be 1 (first-order) or 2 (second-order conservative); got ", order);
  options.order = order;
  options.nx = nx;
  options.periodic = periodic != 0;
  return options;
}

// The bilinear and bicubic calls of the C API: the grids and options of the
// logically rectangular source, read under the agreement of agreed_weight_set.
struct RectangularGrids {
  ferry::GridPoints src, dst;
  ferry::BilinearOptions options;
  void read(const ferry_layout* s, const double* s_lon, const double* s_lat, const int* s_mask,
            const ferry_layout* d, const double* d_lon, const double* d_lat, const int* d_mask,
            int64_t nx, int periodic, int unmapped, const CCall& call) {
    src = grid_points(s, s_lon, s_lat, s_mask, call, "source");
    dst = grid_points(d, d_lon, d_lat, d_mask, call, "destination");
    options = {nx, periodic != 0, unmapped_choice(unmapped, call)};
  }
};

// The one-matrix weight calls from a logically rectangular source (bilinear, bicubic),
// named `function` in messages.
int rectangular(const char* function,
                ferry::Weights (*make)(MPI_Comm, const ferry::GridPoints&,
                                       const ferry::GridPoints&, const ferry::BilinearOptions&),
                MPI_Comm comm, const ferry_layout* src, const double* src_lon,
                const double* src_lat, const int* src_mask, const ferry_layout* dst,
                const double* dst_lon, const double* dst_lat, const int* dst_mask, int64_t nx,
                int periodic, int unmapped, ferry_weights** weights) {
  RectangularGrids g;
  return agreed_weights(
      function, comm, weights,
      [&](const CCall& call) {
        g.read(src, src_lon, src_lat, src_mask, dst, dst_lon, dst_lat, dst_mask, nx, periodic,
               unmapped, call);
      },
      [&] { return make(comm, g.src, g.dst, g.options); });
}

// src and dst of ferry_remap_apply and _begin: one pointer per field each.
void check_field_arrays(const void* const* src, void* const* dst, const CCall& call) {
  FERRY_CHECK(src && dst, ferry::Errc::Arg, call.function(),
              ": src or dst is NULL; pass an array of one pointer per field");
}

// A weight file written by `write` (Weights::write_scrip or write_esmf), after checks
// agreed over comm.
int write_weights(const char* function, MPI_Comm comm, const ferry_weights* weights,
                  const char* path,
                  void (ferry::Weights::*write)(MPI_Comm, const std::string&) const) {
  return c_call(function, [&](const CCall& call) {
    ferry::detail::agree_on(ferry::Comm::view(call.comm(comm)), [&] {
      call.handle(weights);
      call.text(path, "path");
    });
    (weights->weights.*write)(comm, path);
  });
}

// The conservative weight calls of the C API, named `function` in messages.
int conservative_cells(const char* function, MPI_Comm comm, const ferry_layout* src,
                       int src_corners, const int* src_corner_counts, const double* src_corner_lon,
                       const double* src_corner_lat, const int* src_mask, int src_edges,
                       const ferry_layout* dst, int dst_corners, const int* dst_corner_counts,
                       const double* dst_corner_lon, const double* dst_corner_lat,
                       const int* dst_mask, int dst_edges, int normalisation, int unmapped,
                       int order, std::int64_t nx, int periodic, ferry_weights** weights) {
  ferry::GridCells s, d;
  ferry::ConservativeOptions options;
  return agreed_weights(
      function, comm, weights,
      [&](const CCall& call) {
        s = polygon_cells(src, src_corners, src_corner_counts, src_corner_lon, src_corner_lat,
                          src_mask, src_edges, call, "source");
        d = polygon_cells(dst, dst_corners, dst_corner_counts, dst_corner_lon, dst_corner_lat,
                          dst_mask, dst_edges, call, "destination");
        options = conservative_options(normalisation, unmapped, order, nx, periodic, call);
      },
      [&] { return ferry::conservative_weights(comm, s, d, options); });
}

// The rows of a grid as read: `values` per cell, copied to `out` (which may be NULL).
template <class T>
void copy_cells(const std::vector<T>& values, T* out) {
  if (out) std::copy(values.begin(), values.end(), out);
}

// Both nearest-neighbour calls, errors named after `caller`.
int nearest_neighbour(
    const char* caller, MPI_Comm comm, const ferry_layout* src, const double* src_lon, const double* src_lat,
    const int* src_mask, const ferry_layout* dst, const double* dst_lon, const double* dst_lat,
    const int* dst_mask, int neighbours, int weighting, double gaussian_variance,
    int gaussian_scale, int masked_neighbours, ferry_weights** weights) {
  ferry::GridPoints s, d;
  ferry::NearestNeighbourOptions options;
  return agreed_weights(
      caller, comm, weights,
      [&](const CCall& call) {
        s = grid_points(src, src_lon, src_lat, src_mask, call, "source");
        d = grid_points(dst, dst_lon, dst_lat, dst_mask, call, "destination");
        options.neighbours = neighbours;
        options.weighting = call.choice<ferry::NeighbourWeighting>(
            weighting, FERRY_WEIGHTING_GAUSSIAN, "weighting",
            "FERRY_WEIGHTING_INVERSE_DISTANCE or FERRY_WEIGHTING_GAUSSIAN");
        options.gaussian_variance = gaussian_variance;
        options.gaussian_scale = call.choice<ferry::GaussianScale>(
            gaussian_scale, FERRY_GAUSSIAN_SCALE_NEIGHBOURS, "gaussian_scale",
            "FERRY_GAUSSIAN_SCALE_SOURCE or FERRY_GAUSSIAN_SCALE_NEIGHBOURS");
        options.masked = call.choice<ferry::MaskedNeighbours>(
            masked_neighbours, FERRY_MASKED_NEIGHBOURS_DROP_NO_FILL, "masked_neighbours",
            "FERRY_MASKED_NEIGHBOURS_SKIP, FERRY_MASKED_NEIGHBOURS_DROP or "
            "FERRY_MASKED_NEIGHBOURS_DROP_NO_FILL");
      },
      [&] { return ferry::nearest_neighbour_weights(comm, s, d, options); });
}

}  // namespace

extern "C" {

int ferry_weights_read(MPI_Comm comm, const char* path, ferry_weights** weights) {
  return agreed_weights(
      "ferry_weights_read", comm, weights, [&](const CCall& call) { call.text(path, "path"); },
      [&] { return ferry::Weights::read(comm, path); });
}

int ferry_weights_from_links(MPI_Comm comm, int64_t src_size, int64_t dst_size, int64_t count,
                             const int64_t* rows, const int64_t* cols, const double* values,
                             const int64_t* order, ferry_weights** weights) {
  std::vector<ferry::WeightLink> links;
  return agreed_weights(
      "ferry_weights_from_links", comm, weights,
      [&](const CCall& call) {
        const auto r = call.array(rows, count, "rows");
        const auto c = call.array(cols, count, "cols");
        const auto v = call.array(values, count, "values");
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
}

int ferry_weights_write_scrip(MPI_Comm comm, const ferry_weights* weights, const char* path) {
  return write_weights("ferry_weights_write_scrip", comm, weights, path,
                       &ferry::Weights::write_scrip);
}

int ferry_weights_write_esmf(MPI_Comm comm, const ferry_weights* weights, const char* path) {
  return write_weights("ferry_weights_write_esmf", comm, weights, path,
                       &ferry::Weights::write_esmf);
}

int ferry_weights_nearest_neighbour(MPI_Comm comm, const ferry_layout* src, const double* src_lon,
                                    const double* src_lat, const int* src_mask,
                                    const ferry_layout* dst, const double* dst_lon,
                                    const double* dst_lat, const int* dst_mask, int neighbours,
                                    int weighting, double gaussian_variance,
                                    ferry_weights** weights) {
  return nearest_neighbour("ferry_weights_nearest_neighbour", comm, src, src_lon, src_lat,
                           src_mask, dst, dst_lon, dst_lat, dst_mask, neighbours, weighting,
                           gaussian_variance, FERRY_GAUSSIAN_SCALE_SOURCE,
                           FERRY_MASKED_NEIGHBOURS_SKIP, weights);
}

int ferry_weights_nearest_neighbour_with_options(
    MPI_Comm comm, const ferry_layout* src, const double* src_lon, const double* src_lat,
    const int* src_mask, const ferry_layout* dst, const double* dst_lon, const double* dst_lat,
    const int* dst_mask, int neighbours, int weighting, double gaussian_variance,
    int gaussian_scale, int masked_neighbours, ferry_weights** weights) {
  return nearest_neighbour("ferry_weights_nearest_neighbour_with_options", comm, src, src_lon,
                           src_lat, src_mask, dst, dst_lon, dst_lat, dst_mask, neighbours,
                           weighting, gaussian_variance, gaussian_scale, masked_neighbours,
                           weights);
}

int ferry_weights_bilinear(MPI_Comm comm, const ferry_layout* src, const double* src_lon,
                           const double* src_lat, const int* src_mask, const ferry_layout* dst,
                           const double* dst_lon, const double* dst_lat, const int* dst_mask,
                           int64_t nx, int periodic, ferry_weights** weights) {
  return rectangular("ferry_weights_bilinear", &ferry::bilinear_weights, comm, src, src_lon,
                     src_lat, src_mask, dst, dst_lon, dst_lat, dst_mask, nx, periodic,
                     FERRY_UNMAPPED_FILL, weights);
}

int ferry_weights_bilinear_with_options(MPI_Comm comm, const ferry_layout* src,
                                        const double* src_lon, const double* src_lat,
                                        const int* src_mask, const ferry_layout* dst,
                                        const double* dst_lon, const double* dst_lat,
                                        const int* dst_mask, int64_t nx, int periodic,
                                        int unmapped, ferry_weights** weights) {
  return rectangular("ferry_weights_bilinear_with_options", &ferry::bilinear_weights, comm, src,
                     src_lon, src_lat, src_mask, dst, dst_lon, dst_lat, dst_mask, nx, periodic,
                     unmapped, weights);
}

int ferry_weights_bicubic(MPI_Comm comm, const ferry_layout* src, const double* src_lon,
                          const double* src_lat, const int* src_mask, const ferry_layout* dst,
                          const double* dst_lon, const double* dst_lat, const int* dst_mask,
                          int64_t nx, int periodic, int unmapped, ferry_weights** weights) {
  return rectangular("ferry_weights_bicubic", &ferry::bicubic_weights, comm, src, src_lon,
                     src_lat, src_mask, dst, dst_lon, dst_lat, dst_mask, nx, periodic, unmapped,
                     weights);
}

int ferry_weights_bicubic_gradients(MPI_Comm comm, const ferry_layout* src, const double* src_lon,
                                    const double* src_lat, const int* src_mask,
                                    const ferry_layout* dst, const double* dst_lon,
                                    const double* dst_lat, const int* dst_mask, int64_t nx,
                                    int periodic, int unmapped, ferry_weights** value,
                                    ferry_weights** i_gradient, ferry_weights** j_gradient,
                                    ferry_weights** ij_gradient) {
  RectangularGrids g;
  return agreed_weight_set<4>(
      "ferry_weights_bicubic_gradients", comm, {value, i_gradient, j_gradient, ij_gradient},
      [&](const CCall& call) {
        g.read(src, src_lon, src_lat, src_mask, dst, dst_lon, dst_lat, dst_mask, nx, periodic,
               unmapped, call);
      },
      [&] {
        ferry::BicubicGradientWeights w = ferry::bicubic_gradient_weights(comm, g.src, g.dst, g.options);
        return std::array<ferry::Weights, 4>{std::move(w.value), std::move(w.i_gradient),
                                             std::move(w.j_gradient), std::move(w.ij_gradient)};
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
                            FERRY_CELL_EDGES_AUTO, normalisation, FERRY_UNMAPPED_FILL, 1, 0, 1,
                            weights);
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
                            dst_mask, dst_edges, normalisation, FERRY_UNMAPPED_FILL, 1, 0, 1,
                            weights);
}

int ferry_weights_conservative_with_options(
    MPI_Comm comm, const ferry_layout* src, int src_corners, const int* src_corner_counts,
    const double* src_corner_lon, const double* src_corner_lat, const int* src_mask, int src_edges,
    const ferry_layout* dst, int dst_corners, const int* dst_corner_counts,
    const double* dst_corner_lon, const double* dst_corner_lat, const int* dst_mask, int dst_edges,
    int normalisation, int unmapped, int order, ferry_weights** weights) {
  return conservative_cells("ferry_weights_conservative_with_options", comm, src, src_corners,
                            src_corner_counts, src_corner_lon, src_corner_lat, src_mask, src_edges,
                            dst, dst_corners, dst_corner_counts, dst_corner_lon, dst_corner_lat,
                            dst_mask, dst_edges, normalisation, unmapped, order, 0, 1, weights);
}

int ferry_weights_conservative_rectangular(
    MPI_Comm comm, const ferry_layout* src, int src_corners, const int* src_corner_counts,
    const double* src_corner_lon, const double* src_corner_lat, const int* src_mask, int src_edges,
    const ferry_layout* dst, int dst_corners, const int* dst_corner_counts,
    const double* dst_corner_lon, const double* dst_corner_lat, const int* dst_mask, int dst_edges,
    int normalisation, int unmapped, int order, int64_t nx, int periodic,
    ferry_weights** weights) {
  return conservative_cells("ferry_weights_conservative_rectangular", comm, src, src_corners,
                            src_corner_counts, src_corner_lon, src_corner_lat, src_mask, src_edges,
                            dst, dst_corners, dst_corner_counts, dst_corner_lon, dst_corner_lat,
                            dst_mask, dst_edges, normalisation, unmapped, order, nx, periodic,
                            weights);
}

int ferry_weights_conservative_gradients(
    MPI_Comm comm, const ferry_layout* src, int src_corners, const int* src_corner_counts,
    const double* src_corner_lon, const double* src_corner_lat, const int* src_mask, int src_edges,
    const ferry_layout* dst, int dst_corners, const int* dst_corner_counts,
    const double* dst_corner_lon, const double* dst_corner_lat, const int* dst_mask, int dst_edges,
    int normalisation, int unmapped, ferry_weights** value, ferry_weights** lat_gradient,
    ferry_weights** lon_gradient) {
  ferry::GridCells s, d;
  ferry::ConservativeOptions options;
  return agreed_weight_set<3>(
      "ferry_weights_conservative_gradients", comm, {value, lat_gradient, lon_gradient},
      [&](const CCall& call) {
        s = polygon_cells(src, src_corners, src_corner_counts, src_corner_lon, src_corner_lat,
                          src_mask, src_edges, call, "source");
        d = polygon_cells(dst, dst_corners, dst_corner_counts, dst_corner_lon, dst_corner_lat,
                          dst_mask, dst_edges, call, "destination");
        options = conservative_options(normalisation, unmapped, 2, 0, 1, call);
      },
      [&] {
        ferry::ConservativeGradientWeights w = ferry::conservative_gradient_weights(comm, s, d, options);
        return std::array<ferry::Weights, 3>{std::move(w.value), std::move(w.lat_gradient),
                                             std::move(w.lon_gradient)};
      });
}

int ferry_weights_get_sizes(const ferry_weights* weights, int64_t* src_size, int64_t* dst_size,
                            int64_t* global_links) {
  return c_call("ferry_weights_get_sizes", [&](const CCall& call) {
    const ferry::Weights& w = call.handle(weights).weights;
    if (src_size) *src_size = w.src_size();
    if (dst_size) *dst_size = w.dst_size();
    if (global_links) *global_links = w.global_links();
  });
}

int ferry_weights_get_local_rows(const ferry_weights* weights, int64_t* first_row,
                                 int64_t* row_count, int64_t* link_count) {
  return c_call("ferry_weights_get_local_rows", [&](const CCall& call) {
    const ferry::Weights& w = call.handle(weights).weights;
    if (first_row) *first_row = w.first_row();
    if (row_count) *row_count = w.row_count();
    if (link_count) *link_count = static_cast<int64_t>(w.cols().size());
  });
}

int ferry_weights_get_links(const ferry_weights* weights, int64_t* row_start, int64_t* cols,
                            double* values) {
  return c_call("ferry_weights_get_links", [&](const CCall& call) {
    const ferry::Weights& w = call.handle(weights).weights;
    call.copy_out(w.row_start(), row_start, "row_start");
    call.copy_out(w.cols(), cols, "cols");
    call.copy_out(w.values(), values, "values");
  });
}

int ferry_weights_get_method(const ferry_weights* weights, const char** method) {
  return c_call("ferry_weights_get_method", [&](const CCall& call) {
    call.out(method) = call.handle(weights).weights.method().c_str();
  });
}

int ferry_weights_destroy(ferry_weights** weights) {
  return destroy_handle("ferry_weights_destroy", weights);
}

int ferry_grid_read(MPI_Comm comm, const char* path, int format, const char* name,
                    const char* masks, const char* areas, ferry_grid** grid) {
  ferry::GridSource source;
  return c_call("ferry_grid_read", [&](const CCall& call) {
    ferry::detail::agree_on(ferry::Comm::view(call.comm(comm)), [&] {
      call.out(grid) = nullptr;
      source.path = call.text(path, "path");
      source.format = call.choice<ferry::GridFormat>(
          format, FERRY_GRID_FORMAT_UNSTRUCTURED, "format",
          "FERRY_GRID_FORMAT_AUTO, _OASIS, _SCRIP or _UNSTRUCTURED");
      source.name = name ? name : "";
      source.masks = masks ? masks : "";
      source.areas = areas ? areas : "";
    });
    *grid = new ferry_grid{ferry::read_grid(comm, source)};
  });
}

int ferry_grid_get_sizes(const ferry_grid* grid, int64_t* size, int64_t* first, int64_t* count,
                         int* corners, int64_t* nx, int* has_corners, int* has_area) {
  return c_call("ferry_grid_get_sizes", [&](const CCall& call) {
    const ferry::Grid& g = call.handle(grid).grid;
    const ferry::Layout& layout = g.points.layout;
    if (size) *size = layout.global_size();
    if (first) *first = layout.ids().empty() ? 0 : layout.ids().front();
    if (count) *count = layout.local_size();
    if (corners) *corners = g.cells.corners;
    if (nx) *nx = g.nx;
    if (has_corners) *has_corners = g.cells.corner_lon.empty() ? 0 : 1;
    if (has_area) *has_area = g.area.empty() ? 0 : 1;
  });
}

int ferry_grid_get_layout(const ferry_grid* grid, ferry_layout** layout) {
  return create_handle("ferry_grid_get_layout", layout, [&](const CCall& call) {
    return new ferry_layout{call.handle(grid).grid.points.layout};
  });
}

int ferry_grid_get_points(const ferry_grid* grid, double* lon, double* lat, int* mask) {
  return c_call("ferry_grid_get_points", [&](const CCall& call) {
    const ferry::GridPoints& p = call.handle(grid).grid.points;
    copy_cells(p.lon, lon);
    copy_cells(p.lat, lat);
    if (mask && p.mask.empty()) std::fill_n(mask, p.layout.local_size(), 1);
    copy_cells(p.mask, mask);
  });
}

int ferry_grid_get_corners(const ferry_grid* grid, double* corner_lon, double* corner_lat) {
  return c_call("ferry_grid_get_corners", [&](const CCall& call) {
    const ferry::Grid& g = call.handle(grid).grid;
    FERRY_CHECK(!g.cells.corner_lon.empty() || g.cells.layout.local_size() == 0, ferry::Errc::Arg,
                call.function(), ": grid \"", g.cells.name,
                "\" has no cell corners in its file; conservative weights need them");
    copy_cells(g.cells.corner_lon, corner_lon);
    copy_cells(g.cells.corner_lat, corner_lat);
  });
}

int ferry_grid_get_area(const ferry_grid* grid, double* area) {
  return c_call("ferry_grid_get_area", [&](const CCall& call) {
    const ferry::Grid& g = call.handle(grid).grid;
    FERRY_CHECK(!g.area.empty() || g.points.layout.local_size() == 0, ferry::Errc::Arg,
                call.function(), ": grid \"", g.cells.name,
                "\" has no cell areas in its file (OASIS: give areas.nc)");
    copy_cells(g.area, area);
  });
}

int ferry_grid_destroy(ferry_grid** grid) { return destroy_handle("ferry_grid_destroy", grid); }

int ferry_remap_create(MPI_Comm comm, const ferry_weights* weights, const ferry_layout* src,
                       const ferry_layout* dst, const char* engine, ferry_remap** remap) {
  return create_handle("ferry_remap_create", remap, [&](const CCall& call) {
    auto r = std::make_unique<ferry_remap>();
    r->comm = comm;
    r->weights = &call.handle(weights).weights;
    r->src = call.handle(src, "source layout").layout;
    r->dst = call.handle(dst, "destination layout").layout;
    r->options.engine = engine ? engine : "default";
    return r.release();
  });
}

int ferry_remap_add_field(ferry_remap* remap, int type, int components, int* field_index) {
  return c_call("ferry_remap_add_field", [&](const CCall& call) {
    auto& r = call.unbuilt(remap);
    FERRY_CHECK(type == FERRY_TYPE_FLOAT64 || type == FERRY_TYPE_FLOAT32, ferry::Errc::Arg,
                call.function(),
                ": a remapped field is FERRY_TYPE_FLOAT64 or FERRY_TYPE_FLOAT32; got type ", type);
    FERRY_CHECK(components >= 1, ferry::Errc::Arg, call.function(),
                ": components must be >= 1; got ", components);
    r.fields.push_back({static_cast<ferry::Datatype>(type), components});
    if (field_index) *field_index = static_cast<int>(r.fields.size()) - 1;
  });
}

int ferry_remap_set_map_on(ferry_remap* remap, int map_on) {
  return c_call("ferry_remap_set_map_on", [&](const CCall& call) {
    call.unbuilt(remap).options.map_on = call.choice<ferry::MapOn>(
        map_on, FERRY_MAP_ON_DST, "map_on", "FERRY_MAP_ON_SRC or FERRY_MAP_ON_DST");
  });
}

int ferry_remap_set_mode(ferry_remap* remap, int mode) {
  return c_call("ferry_remap_set_mode", [&](const CCall& call) {
    call.unbuilt(remap).options.mode = call.choice<ferry::RemapMode>(
        mode, FERRY_REMAP_SUM, "mode", "FERRY_REMAP_BFB or FERRY_REMAP_SUM");
  });
}

int ferry_remap_set_fill_value(ferry_remap* remap, double fill_value) {
  return c_call("ferry_remap_set_fill_value",
                [&](const CCall& call) { call.unbuilt(remap).options.fill_value = fill_value; });
}

int ferry_remap_set_dst_mask(ferry_remap* remap, const int* mask) {
  return c_call("ferry_remap_set_dst_mask", [&](const CCall& call) {
    auto& r = call.unbuilt(remap);
    const auto flags = call.array(mask, r.dst.local_size(), "mask");
    r.options.dst_mask.assign(flags.size(), 0);
    for (std::size_t i = 0; i < flags.size(); ++i) r.options.dst_mask[i] = flags[i] != 0 ? 1 : 0;
  });
}

int ferry_remap_set_option(ferry_remap* remap, const char* key, const char* value) {
  return c_call("ferry_remap_set_option", [&](const CCall& call) {
    call.set_option(call.unbuilt(remap).options.engine_options, key, value);
  });
}

int ferry_remap_setup(ferry_remap* remap) {
  return c_call("ferry_remap_setup", [&](const CCall& call) {
    auto& r = call.unbuilt(remap);
    auto fields = r.fields.empty()
                      ? std::vector<ferry::FieldSpec>{{ferry::Datatype::Float64, 1}}
                      : r.fields;
    r.object.emplace(r.comm, *r.weights, r.src, r.dst, std::move(fields), r.options);
    // Neither the layouts nor the weights are needed any more.
    r.src = ferry::Layout();
    r.dst = ferry::Layout();
    r.weights = nullptr;
  });
}

int ferry_remap_apply(ferry_remap* remap, const void* const* src, void* const* dst) {
  return c_call("ferry_remap_apply", [&](const CCall& call) {
    check_field_arrays(src, dst, call);
    call.built(remap).apply(src, dst);
  });
}

int ferry_remap_begin(ferry_remap* remap, const void* const* src, void* const* dst) {
  return c_call("ferry_remap_begin", [&](const CCall& call) {
    check_field_arrays(src, dst, call);
    call.built(remap).begin(src, dst);
  });
}

int ferry_remap_end(ferry_remap* remap) {
  return c_call("ferry_remap_end", [&](const CCall& call) { call.built(remap).end(); });
}

int ferry_remap_get_traffic(const ferry_remap* remap, int64_t* messages, int64_t* bytes) {
  return c_call("ferry_remap_get_traffic", [&](const CCall& call) {
    const auto traffic = call.built(remap).traffic();
    if (messages) *messages = traffic.messages;
    if (bytes) *bytes = traffic.bytes;
  });
}

int ferry_remap_get_point_data(const ferry_remap* remap, int grid, double* area, double* frac,
                               int* mask, int* present) {
  return c_call("ferry_remap_get_point_data", [&](const CCall& call) {
    const ferry::Remap& r = call.built(remap);
    const int side =
        call.choice<int>(grid, FERRY_GRID_DST, "grid", "FERRY_GRID_SRC or FERRY_GRID_DST");
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

int ferry_remap_close(ferry_remap* remap) {
  return c_call("ferry_remap_close", [&](const CCall& call) {
    auto& r = call.handle(remap);
    if (r.object) r.object->close();
  });
}

int ferry_remap_destroy(ferry_remap** remap) { return destroy_handle("ferry_remap_destroy", remap); }

}  // extern "C"
