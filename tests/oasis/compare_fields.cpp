// compare_fields A.nc B.nc VARIABLE [TOLERANCE [FILLED]]: compares a NetCDF variable
// of two files value by value (any shape, the same number of values), as doubles.
// Without TOLERANCE every value must be the same bits; with it, |a - b| <= TOLERANCE x
// max(|b|, 1) everywhere, except at up to FILLED values (default 0): points the two
// remappings fill by different rules. Prints the number of
// values, how many differ and the largest difference; exits 0 when they match, 1 when
// not, 2 on a usage or file error.
#include <netcdf.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

bool read_variable(const char* path, const char* name, std::vector<double>& values) {
  int file = -1, var = -1, ndims = 0;
  if (nc_open(path, NC_NOWRITE, &file) != NC_NOERR) {
    std::fprintf(stderr, "compare_fields: cannot open %s\n", path);
    return false;
  }
  if (nc_inq_varid(file, name, &var) != NC_NOERR || nc_inq_varndims(file, var, &ndims) != NC_NOERR) {
    std::fprintf(stderr, "compare_fields: %s has no variable %s\n", path, name);
    nc_close(file);
    return false;
  }
  std::vector<int> dims(static_cast<std::size_t>(ndims));
  nc_inq_vardimid(file, var, dims.data());
  std::size_t count = 1;
  for (int d : dims) {
    std::size_t length = 0;
    nc_inq_dimlen(file, d, &length);
    count *= length;
  }
  values.resize(count);
  const int status = nc_get_var_double(file, var, values.data());
  nc_close(file);
  if (status != NC_NOERR) {
    std::fprintf(stderr, "compare_fields: reading %s of %s: %s\n", name, path, nc_strerror(status));
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4 || argc > 6) {
    std::fprintf(stderr, "usage: compare_fields A.nc B.nc VARIABLE [TOLERANCE [FILLED]]\n");
    return 2;
  }
  std::vector<double> a, b;
  if (!read_variable(argv[1], argv[3], a) || !read_variable(argv[2], argv[3], b)) return 2;
  if (a.size() != b.size()) {
    std::printf("%s: %zu values in %s, %zu in %s\n", argv[3], a.size(), argv[1], b.size(), argv[2]);
    return 1;
  }
  const bool exact = argc == 4;
  const double tolerance = exact ? 0 : std::atof(argv[4]);
  // FILLED: how many points may differ beyond the tolerance because the two fill them
  // by different rules (points no unmasked source cell covers).
  const std::size_t allowed_filled = argc == 6 ? std::strtoul(argv[5], nullptr, 10) : 0;
  std::size_t differ = 0, worst = 0;
  double largest = 0, largest_relative = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double d = std::fabs(a[i] - b[i]);
    const double relative = d / std::fmax(std::fabs(b[i]), 1.0);
    const bool same = exact ? std::memcmp(&a[i], &b[i], sizeof(double)) == 0 : relative <= tolerance;
    if (!same) ++differ;
    if (d > largest) {
      largest = d;
      worst = i;
    }
    largest_relative = std::fmax(largest_relative, relative);
  }
  std::printf("%s: %zu values, %zu differ %s; largest difference %.3e (value %zu: %.17g vs %.17g), "
              "largest relative %.3e",
              argv[3], a.size(), differ, exact ? "in any bit" : "beyond the tolerance", largest,
              worst, a.empty() ? 0.0 : a[worst], b.empty() ? 0.0 : b[worst], largest_relative);
  if (!exact && allowed_filled > 0)
    std::printf(" (at most %zu allowed: points filled by different rules)", allowed_filled);
  std::printf("\n");
  return differ <= allowed_filled ? 0 : 1;
}
