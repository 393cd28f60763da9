/* OASIS 5's C API (oasis_c.h) over ferry: "ocean" (the first N1 world ranks) holds a
   10 x 6 grid in APPLE blocks of rows and puts, every 600 s, a double field stored
   row-major as (x, y) and a bundle of 2 doubles stored column-major; "atmos" holds it
   in round-robin POINTS (0-based, as C gives them) and gets the first as floats and
   the bundle as doubles. Every value and kinfo is checked; every rank exits with the
   same status. usage: oasis_c_pair N1 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "oasis_c.h"

enum { NX = 10, NY = 6, STEPS = 4, DT = 600 };

static int failures = 0;

static void expect(int ok, const char* what, int t) {
  if (ok) return;
  ++failures;
  fprintf(stderr, "oasis_c_pair: %s wrong at t = %d\n", what, t);
}

static double value(int id, int t, int member) { return id + 100.0 * member + t / DT; }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world = 0, n1 = argc > 1 ? atoi(argv[1]) : 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &world);
  const int ocean = world < n1;
  int compid = 0;
  if (oasis_c_init_comp(&compid, ocean ? "ocean" : "atmos", OASIS_COUPLED) != OASIS_Ok) return 1;
  MPI_Comm local;
  oasis_c_get_localcomm(&local);
  int rank = 0, size = 1;
  MPI_Comm_rank(local, &rank);
  MPI_Comm_size(local, &size);

  int part = 0, x_size = 0, y_size = 0, *ids = NULL, count = 0;
  if (ocean) {
    const int rows = NY / size, first = rank * rows;
    const int mine = rank == size - 1 ? NY - first : rows;
    int kparal[OASIS_Apple_Params] = {OASIS_Apple, first * NX, mine * NX};
    oasis_c_def_partition(&part, OASIS_Apple_Params, kparal, OASIS_No_Gsize, OASIS_No_Name);
    x_size = NX;
    y_size = mine;
    count = NX * mine;
    ids = malloc(sizeof(int) * (size_t)count);
    for (int y = 0; y < mine; ++y)
      for (int x = 0; x < NX; ++x) ids[y * NX + x] = (first + y) * NX + x;
  } else {
    for (int g = rank; g < NX * NY; g += size) ++count;
    int* kparal = malloc(sizeof(int) * (size_t)OASIS_Points_Params(count));
    ids = malloc(sizeof(int) * (size_t)count);
    kparal[OASIS_Strategy] = OASIS_Points;
    kparal[OASIS_Npoints] = count;
    for (int k = 0, g = rank; g < NX * NY; g += size, ++k) kparal[2 + k] = ids[k] = g;
    oasis_c_def_partition(&part, OASIS_Points_Params(count), kparal, OASIS_No_Gsize, OASIS_No_Name);
    free(kparal);
    x_size = count;
    y_size = 1;
  }
  int single = 0, bundle = 0;
  oasis_c_def_var(&single, ocean ? "OSINGLE" : "ASINGLE", part, 1, ocean ? OASIS_OUT : OASIS_IN, OASIS_DOUBLE);
  oasis_c_def_var(&bundle, ocean ? "OBUNDLE" : "ABUNDLE", part, 2, ocean ? OASIS_OUT : OASIS_IN, OASIS_DOUBLE);
  if (oasis_c_enddef() != OASIS_Ok) oasis_c_abort(compid, "main", "oasis_c_enddef failed", __FILE__, __LINE__);

  double* d = malloc(sizeof(double) * (size_t)count * 2);
  float* f = malloc(sizeof(float) * (size_t)count);
  for (int s = 0; s < STEPS; ++s) {
    const int t = s * DT;
    int kinfo = -1;
    if (ocean) {
      /* row-major (x, y): element (x, y) at x * y_size + y */
      for (int y = 0; y < y_size; ++y)
        for (int x = 0; x < x_size; ++x) d[x * y_size + y] = value(ids[y * NX + x], t, 0);
      oasis_c_put(single, t, x_size, y_size, 1, OASIS_DOUBLE, OASIS_ROW_MAJOR, d, OASIS_NO_RESTART, &kinfo);
      expect(kinfo == OASIS_Sent, "kinfo of the row-major put", t);
      /* column-major (x, y, member): x fastest */
      for (int m = 0; m < 2; ++m)
        for (int k = 0; k < count; ++k) d[m * count + k] = value(ids[k], t, m);
      oasis_c_put(bundle, t, x_size, y_size, 2, OASIS_DOUBLE, OASIS_COL_MAJOR, d, OASIS_NO_RESTART, &kinfo);
      expect(kinfo == OASIS_Sent, "kinfo of the bundle put", t);
    } else {
      oasis_c_get(single, t, x_size, y_size, 1, OASIS_REAL, OASIS_ROW_MAJOR, f, &kinfo);
      expect(kinfo == OASIS_Recvd, "kinfo of the float get", t);
      for (int k = 0; k < count; ++k) expect(f[k] == (float)value(ids[k], t, 0), "float value", t);
      oasis_c_get(bundle, t, x_size, y_size, 2, OASIS_DOUBLE, OASIS_ROW_MAJOR, d, &kinfo);
      expect(kinfo == OASIS_Recvd, "kinfo of the bundle get", t);
      /* row-major (x, 1, member): the member fastest */
      for (int k = 0; k < count; ++k)
        for (int m = 0; m < 2; ++m) expect(d[k * 2 + m] == value(ids[k], t, m), "bundle value", t);
    }
  }
  /* Both components, "atmos" first (numbered by name), each in its local order. */
  char atmos_name[] = "atmos", ocean_name[] = "ocean";
  char* names[2] = {ocean_name, atmos_name};
  int roots[2] = {-2, -2}, joined_rank = -1, joined_size = 0, world_size = 0;
  MPI_Comm joined = MPI_COMM_NULL;
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  expect(oasis_c_get_multi_intracomm(&joined, 2, names, roots) == OASIS_Ok, "multi_intracomm status", 0);
  MPI_Comm_size(joined, &joined_size);
  MPI_Comm_rank(joined, &joined_rank);
  expect(joined_size == world_size, "multi_intracomm size", 0);
  expect(joined_rank == rank + (ocean ? world_size - n1 : 0), "multi_intracomm rank", 0);
  expect(roots[0] == world_size - n1 && roots[1] == 0, "multi_intracomm root_ranks", 0);
  MPI_Comm_free(&joined);
  MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  oasis_c_terminate();
  if (world == 0) printf("oasis_c_pair: %s\n", failures == 0 ? "every value and kinfo as expected" : "FAILED");
  free(d);
  free(f);
  free(ids);
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
