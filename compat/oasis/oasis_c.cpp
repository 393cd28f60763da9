// oasis_c.h (OASIS3-MCT 5's C API) over the functions mod_oasis calls (ferry_oasis.h).
#include "oasis_c.h"

#include <cstdio>
#include <string>
#include <vector>

#include "ferry_oasis.h"

namespace {

// Points and bundle size of var_id on this process; false (message written) if the
// arguments do not describe them.
bool fits(const char* routine, int var_id, int x_size, int y_size, int bundle_size, int fkind,
          int storage, long long& points) {
  int bundle = 0;
  if (ferry_oasis_var_shape(var_id, &points, &bundle) != FERRY_OASIS_OK) return false;
  const char* problem = nullptr;
  if (static_cast<long long>(x_size) * y_size != points || bundle_size != bundle)
    problem = "x_size x y_size must be the points of the variable's partition on this process, "
              "bundle_size its bundle size";
  else if (fkind != OASIS_Real && fkind != OASIS_Double)
    problem = "fkind must be OASIS_Real (float) or OASIS_Double (double)";
  else if (storage != OASIS_ROW_MAJOR && storage != OASIS_COL_MAJOR)
    problem = "storage must be OASIS_ROW_MAJOR or OASIS_COL_MAJOR";
  if (problem == nullptr) return true;
  std::fprintf(stderr,
               "ferry (OASIS API): %s: var_id %d: got x_size %d, y_size %d, bundle_size %d, "
               "fkind %d, storage %d; the partition has %lld points and bundles %d: %s\n",
               routine, var_id, x_size, y_size, bundle_size, fkind, storage, points, bundle, problem);
  return false;
}

// The position of value (x, y, b) in a caller's array, and in OASIS's order (x fastest,
// then y, the bundle last: Fortran's (x, y, bundle)).
std::size_t caller_index(int storage, int x, int y, int b, int x_size, int y_size, int bundle) {
  const auto X = static_cast<std::size_t>(x_size), Y = static_cast<std::size_t>(y_size);
  if (storage == OASIS_COL_MAJOR)
    return static_cast<std::size_t>(x) + X * (static_cast<std::size_t>(y) + Y * static_cast<std::size_t>(b));
  return (static_cast<std::size_t>(x) * Y + static_cast<std::size_t>(y)) * static_cast<std::size_t>(bundle) +
         static_cast<std::size_t>(b);
}

template <class Visit>
void each_value(int x_size, int y_size, int bundle, Visit visit) {
  std::size_t oasis = 0;
  for (int b = 0; b < bundle; ++b)
    for (int y = 0; y < y_size; ++y)
      for (int x = 0; x < x_size; ++x) visit(oasis++, x, y, b);
}

}  // namespace

extern "C" {

int oasis_c_init_comp(int* compid, const char* name, const bool coupled) {
  return ferry_oasis_init_comp(compid, name, coupled ? 1 : 0, 0, 0);
}

int oasis_c_init_comp_with_comm(int* compid, const char* name, const bool coupled,
                                const MPI_Comm commworld) {
  return ferry_oasis_init_comp(compid, name, coupled ? 1 : 0, 1, MPI_Comm_c2f(commworld));
}

int oasis_c_get_localcomm(MPI_Comm* localcomm) {
  MPI_Fint local = 0;
  const int status = ferry_oasis_get_localcomm(&local);
  if (status == FERRY_OASIS_OK) *localcomm = MPI_Comm_f2c(local);
  return status;
}

int oasis_c_create_couplcomm(const int icpl, const MPI_Comm allcomm, MPI_Comm* cplcomm) {
  MPI_Fint coupl = 0;
  const int status = ferry_oasis_create_couplcomm(icpl, MPI_Comm_c2f(allcomm), &coupl);
  if (status == FERRY_OASIS_OK) *cplcomm = MPI_Comm_f2c(coupl);
  return status;
}

int oasis_c_set_couplcomm(const MPI_Comm cplcomm) {
  return ferry_oasis_set_couplcomm(MPI_Comm_c2f(cplcomm));
}

int oasis_c_get_intercomm(MPI_Comm* new_comm, char* other) {
  MPI_Fint comm = 0;
  const int status = ferry_oasis_get_intercomm(&comm, other);
  if (status == FERRY_OASIS_OK) *new_comm = MPI_Comm_f2c(comm);
  return status;
}

int oasis_c_get_intracomm(MPI_Comm* new_comm, char* other) {
  MPI_Fint comm = 0;
  const int status = ferry_oasis_get_intracomm(&comm, other);
  if (status == FERRY_OASIS_OK) *new_comm = MPI_Comm_f2c(comm);
  return status;
}

int oasis_c_get_multi_intracomm(MPI_Comm* new_comm, const int cdnam_size, char* cdnam[],
                                int* root_ranks) {
  MPI_Fint comm = 0;
  const int status = ferry_oasis_get_multi_intracomm(&comm, cdnam_size, cdnam, root_ranks);
  if (status == FERRY_OASIS_OK) *new_comm = MPI_Comm_f2c(comm);
  return status;
}

int oasis_c_def_partition(int* part_id, const int kparal_size, const int* kparal,
                          const int ig_size, const char* name) {
  std::vector<int> ig_paral(kparal, kparal + kparal_size);
  // C counts POINTS indices from 0, Fortran from 1.
  if (kparal_size > 0 && ig_paral[0] == OASIS_Points)
    for (int i = 2; i < kparal_size; ++i) ++ig_paral[static_cast<std::size_t>(i)];
  return ferry_oasis_def_partition(part_id, ig_paral.data(), kparal_size, ig_size,
                                   name == nullptr ? "" : name);
}

int oasis_c_def_var(int* var_id, const char* name, const int part_id, const int bundle_size,
                    const int kinout, const int ktype) {
  return ferry_oasis_def_var(var_id, name, part_id, bundle_size, kinout, ktype);
}

int oasis_c_enddef(void) { return ferry_oasis_enddef(); }

int oasis_c_put(const int var_id, const int kstep, const int x_size, const int y_size,
                const int bundle_size, const int fkind, const int storage, const void* fld1,
                const bool write_restart, int* kinfo) {
  long long points = 0;
  if (!fits("oasis_c_put", var_id, x_size, y_size, bundle_size, fkind, storage, points))
    return OASIS_Error;
  const double* field = static_cast<const double*>(fld1);
  std::vector<double> copy;
  // Doubles in Fortran order (or one row or column) go as they are; the rest is copied.
  const bool as_is = fkind == OASIS_Double &&
                     (storage == OASIS_COL_MAJOR || ((x_size == 1 || y_size == 1) && bundle_size == 1));
  if (!as_is) {
    copy.resize(static_cast<std::size_t>(points) * static_cast<std::size_t>(bundle_size));
    each_value(x_size, y_size, bundle_size, [&](std::size_t oasis, int x, int y, int b) {
      const std::size_t i = caller_index(storage, x, y, b, x_size, y_size, bundle_size);
      copy[oasis] = fkind == OASIS_Double ? static_cast<const double*>(fld1)[i]
                                          : static_cast<double>(static_cast<const float*>(fld1)[i]);
    });
    field = copy.data();
  }
  return ferry_oasis_put(var_id, kstep, &field, 1, write_restart ? 1 : 0, kinfo);
}

int oasis_c_get(const int var_id, const int kstep, const int x_size, const int y_size,
                const int bundle_size, const int fkind, const int storage, void* fld1, int* kinfo) {
  long long points = 0;
  if (!fits("oasis_c_get", var_id, x_size, y_size, bundle_size, fkind, storage, points))
    return OASIS_Error;
  const bool as_is = fkind == OASIS_Double &&
                     (storage == OASIS_COL_MAJOR || ((x_size == 1 || y_size == 1) && bundle_size == 1));
  if (as_is) return ferry_oasis_get(var_id, kstep, static_cast<double*>(fld1), kinfo);
  std::vector<double> copy(static_cast<std::size_t>(points) * static_cast<std::size_t>(bundle_size));
  const int status = ferry_oasis_get(var_id, kstep, copy.data(), kinfo);
  if (status != FERRY_OASIS_OK || (*kinfo != OASIS_Recvd && *kinfo != OASIS_RecvOut)) return status;
  each_value(x_size, y_size, bundle_size, [&](std::size_t oasis, int x, int y, int b) {
    const std::size_t i = caller_index(storage, x, y, b, x_size, y_size, bundle_size);
    if (fkind == OASIS_Double)
      static_cast<double*>(fld1)[i] = copy[oasis];
    else
      static_cast<float*>(fld1)[i] = static_cast<float>(copy[oasis]);
  });
  return status;
}

int oasis_c_put_inquire(int var_id, int kstep, int* kinfo) {
  return ferry_oasis_put_inquire(var_id, kstep, kinfo);
}

int oasis_c_get_ncpl(const int var_id, int* ncpl) { return ferry_oasis_get_ncpl(var_id, ncpl); }

int oasis_c_get_freqs(const int var_id, const int mop, const int ncpl, int* cpl_freqs) {
  return ferry_oasis_get_freqs(var_id, mop, ncpl, cpl_freqs);
}

int oasis_c_set_debug(const int debug) { return ferry_oasis_set_debug(debug); }

int oasis_c_get_debug(int* debug) { return ferry_oasis_get_debug(debug); }

int oasis_c_start_grids_writing(void) {
  int flag = 0;
  return ferry_oasis_start_grids_writing(&flag);
}

namespace {
int write_grid_data(const char* grid, int nx, int ny, int kind, int nc, int nx_loc, int ny_loc,
                    const double* a, const double* b, const int* mask, int partid,
                    const char* companion) {
  if (companion != nullptr && std::string(companion) != OASIS_No_Companion) {
    std::fprintf(stderr, "ferry (OASIS API): grid \"%s\": a mask or fraction companion (\"%s\") is "
                         "not supported; pass OASIS_No_Companion\n", grid, companion);
    return OASIS_Error;
  }
  const long long count = static_cast<long long>(nx_loc) * ny_loc * (kind == 1 ? nc : 1);
  return ferry_oasis_write_grid_data(grid, nx, ny, kind, nc, a, b, mask, count,
                                     partid == OASIS_No_Part ? 0 : partid);
}
}  // namespace

int oasis_c_write_grid(const char* cgrid, const int nx, const int ny, const int nx_loc,
                       const int ny_loc, const double* lon, const double* lat, const int partid) {
  return write_grid_data(cgrid, nx, ny, 0, 1, nx_loc, ny_loc, lon, lat, nullptr, partid, nullptr);
}

int oasis_c_write_corner(const char* cgrid, const int nx, const int ny, const int nc,
                         const int nx_loc, const int ny_loc, const double* clo, const double* cla,
                         const int partid) {
  return write_grid_data(cgrid, nx, ny, 1, nc, nx_loc, ny_loc, clo, cla, nullptr, partid, nullptr);
}

int oasis_c_write_mask(const char* cgrid, const int nx, const int ny, const int nx_loc,
                       const int ny_loc, const int* mask, const int partid, const char* companion) {
  return write_grid_data(cgrid, nx, ny, 2, 1, nx_loc, ny_loc, nullptr, nullptr, mask, partid, companion);
}

int oasis_c_write_frac(const char* cgrid, const int nx, const int ny, const int nx_loc,
                       const int ny_loc, const double* frac, const int partid, const char* companion) {
  return write_grid_data(cgrid, nx, ny, 4, 1, nx_loc, ny_loc, frac, nullptr, nullptr, partid, companion);
}

int oasis_c_write_area(const char* cgrid, const int nx, const int ny, const int nx_loc,
                       const int ny_loc, const double* area, const int partid) {
  return write_grid_data(cgrid, nx, ny, 3, 1, nx_loc, ny_loc, area, nullptr, nullptr, partid, nullptr);
}

int oasis_c_write_angle(const char* cgrid, const int nx, const int ny, const int nx_loc,
                        const int ny_loc, const double* angle, const int partid) {
  return write_grid_data(cgrid, nx, ny, 5, 1, nx_loc, ny_loc, angle, nullptr, nullptr, partid, nullptr);
}

int oasis_c_terminate_grids_writing(void) { return ferry_oasis_terminate_grids_writing(); }

int oasis_c_terminate(void) { return ferry_oasis_terminate(); }

int oasis_c_abort(const int compid, const char* routine, const char* message, const char* file,
                  const int line) {
  const std::string where = std::string(message) + " (" + file + ":" + std::to_string(line) + ")";
  ferry_oasis_abort(compid, routine, where.c_str(), 1);
  return OASIS_Error;
}

}  // extern "C"
