// The C entry points that only the Fortran module ferry_regrid_mod calls: the regrid
// calls that take a communicator, with Fortran's integer handle (MPI_Fint). The
// conversion cannot fail and the C functions never throw, so no firewall is needed.
#include <mpi.h>

#include "ferry/regrid.h"

extern "C" {

int ferry_weights_read_f(MPI_Fint comm, const char* path, ferry_weights** weights) {
  return ferry_weights_read(MPI_Comm_f2c(comm), path, weights);
}

int ferry_weights_from_links_f(MPI_Fint comm, int64_t src_size, int64_t dst_size, int64_t count,
                               const int64_t* rows, const int64_t* cols, const double* values,
                               const int64_t* order, ferry_weights** weights) {
  return ferry_weights_from_links(MPI_Comm_f2c(comm), src_size, dst_size, count, rows, cols,
                                  values, order, weights);
}

int ferry_weights_write_scrip_f(MPI_Fint comm, const ferry_weights* weights, const char* path) {
  return ferry_weights_write_scrip(MPI_Comm_f2c(comm), weights, path);
}

int ferry_weights_write_esmf_f(MPI_Fint comm, const ferry_weights* weights, const char* path) {
  return ferry_weights_write_esmf(MPI_Comm_f2c(comm), weights, path);
}

// ferry_weights_conservative_polygons with every option (the Fortran routine's
// optional unmapped, order, nx and periodic).
int ferry_weights_conservative_polygons_f(
    MPI_Fint comm, const ferry_layout* src, int src_corners, const int* src_corner_counts,
    const double* src_corner_lon, const double* src_corner_lat, const int* src_mask, int src_edges,
    const ferry_layout* dst, int dst_corners, const int* dst_corner_counts,
    const double* dst_corner_lon, const double* dst_corner_lat, const int* dst_mask, int dst_edges,
    int normalisation, int unmapped, int order, int64_t nx, int periodic,
    ferry_weights** weights) {
  return ferry_weights_conservative_rectangular(
      MPI_Comm_f2c(comm), src, src_corners, src_corner_counts, src_corner_lon, src_corner_lat,
      src_mask, src_edges, dst, dst_corners, dst_corner_counts, dst_corner_lon, dst_corner_lat,
      dst_mask, dst_edges, normalisation, unmapped, order, nx, periodic, weights);
}

int ferry_weights_conservative_gradients_f(
    MPI_Fint comm, const ferry_layout* src, int src_corners, const int* src_corner_counts,
    const double* src_corner_lon, const double* src_corner_lat, const int* src_mask, int src_edges,
    const ferry_layout* dst, int dst_corners, const int* dst_corner_counts,
    const double* dst_corner_lon, const double* dst_corner_lat, const int* dst_mask, int dst_edges,
    int normalisation, int unmapped, ferry_weights** value, ferry_weights** lat_gradient,
    ferry_weights** lon_gradient) {
  return ferry_weights_conservative_gradients(
      MPI_Comm_f2c(comm), src, src_corners, src_corner_counts, src_corner_lon, src_corner_lat,
      src_mask, src_edges, dst, dst_corners, dst_corner_counts, dst_corner_lon, dst_corner_lat,
      dst_mask, dst_edges, normalisation, unmapped, value, lat_gradient, lon_gradient);
}

int ferry_weights_nearest_neighbour_f(MPI_Fint comm, const ferry_layout* src,
                                      const double* src_lon, const double* src_lat,
                                      const int* src_mask, const ferry_layout* dst,
                                      const double* dst_lon, const double* dst_lat,
                                      const int* dst_mask, int neighbours, int weighting,
                                      double gaussian_variance, int gaussian_scale,
                                      int masked_neighbours, ferry_weights** weights) {
  return ferry_weights_nearest_neighbour_with_options(
      MPI_Comm_f2c(comm), src, src_lon, src_lat, src_mask, dst, dst_lon, dst_lat, dst_mask,
      neighbours, weighting, gaussian_variance, gaussian_scale, masked_neighbours, weights);
}

// ferry_weights_bilinear with the Fortran routine's optional unmapped.
int ferry_weights_bilinear_f(MPI_Fint comm, const ferry_layout* src, const double* src_lon,
                             const double* src_lat, const int* src_mask, const ferry_layout* dst,
                             const double* dst_lon, const double* dst_lat, const int* dst_mask,
                             int64_t nx, int periodic, int unmapped, ferry_weights** weights) {
  return ferry_weights_bilinear_with_options(MPI_Comm_f2c(comm), src, src_lon, src_lat, src_mask,
                                             dst, dst_lon, dst_lat, dst_mask, nx, periodic,
                                             unmapped, weights);
}

int ferry_weights_bicubic_f(MPI_Fint comm, const ferry_layout* src, const double* src_lon,
                            const double* src_lat, const int* src_mask, const ferry_layout* dst,
                            const double* dst_lon, const double* dst_lat, const int* dst_mask,
                            int64_t nx, int periodic, int unmapped, ferry_weights** weights) {
  return ferry_weights_bicubic(MPI_Comm_f2c(comm), src, src_lon, src_lat, src_mask, dst, dst_lon,
                               dst_lat, dst_mask, nx, periodic, unmapped, weights);
}

int ferry_weights_bicubic_gradients_f(MPI_Fint comm, const ferry_layout* src,
                                      const double* src_lon, const double* src_lat,
                                      const int* src_mask, const ferry_layout* dst,
                                      const double* dst_lon, const double* dst_lat,
                                      const int* dst_mask, int64_t nx, int periodic, int unmapped,
                                      ferry_weights** value, ferry_weights** i_gradient,
                                      ferry_weights** j_gradient, ferry_weights** ij_gradient) {
  return ferry_weights_bicubic_gradients(MPI_Comm_f2c(comm), src, src_lon, src_lat, src_mask, dst,
                                         dst_lon, dst_lat, dst_mask, nx, periodic, unmapped, value,
                                         i_gradient, j_gradient, ij_gradient);
}

int ferry_grid_read_f(MPI_Fint comm, const char* path, int format, const char* name,
                      const char* masks, const char* areas, ferry_grid** grid) {
  return ferry_grid_read(MPI_Comm_f2c(comm), path, format, name, masks, areas, grid);
}

int ferry_weights_conservative_f(MPI_Fint comm, const ferry_layout* src, int src_corners,
                                 const double* src_corner_lon, const double* src_corner_lat,
                                 const int* src_mask, const ferry_layout* dst, int dst_corners,
                                 const double* dst_corner_lon, const double* dst_corner_lat,
                                 const int* dst_mask, int normalisation,
                                 ferry_weights** weights) {
  return ferry_weights_conservative(MPI_Comm_f2c(comm), src, src_corners, src_corner_lon,
                                    src_corner_lat, src_mask, dst, dst_corners, dst_corner_lon,
                                    dst_corner_lat, dst_mask, normalisation, weights);
}

int ferry_remap_create_f(MPI_Fint comm, const ferry_weights* weights, const ferry_layout* src,
                         const ferry_layout* dst, const char* engine, ferry_remap** remap) {
  return ferry_remap_create(MPI_Comm_f2c(comm), weights, src, dst, engine, remap);
}

}  // extern "C"
