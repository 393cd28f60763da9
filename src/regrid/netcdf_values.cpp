#include "regrid/netcdf_values.hpp"

#include "util/check.hpp"

namespace ferry::regrid::detail {

namespace {

std::size_t volume(const std::vector<std::size_t>& count) {
  std::size_t n = 1;
  for (std::size_t c : count) n *= c;
  return n;
}

// Reads the slab in the variable's own type T and converts every value to Out.
template <class T, class Out>
std::vector<Out> read_as(const NetcdfFile& file, int varid, const std::vector<std::size_t>& start,
                         const std::vector<std::size_t>& count) {
  std::vector<T> raw(volume(count));
  if (!raw.empty()) file.get_vara(varid, start, count, raw.data());
  return std::vector<Out>(raw.begin(), raw.end());
}

}  // namespace

bool is_integer_type(nc_type type) {
  switch (type) {
    case NC_BYTE: case NC_UBYTE: case NC_SHORT: case NC_USHORT:
    case NC_INT: case NC_UINT: case NC_INT64: case NC_UINT64:
      return true;
    default:
      return false;
  }
}

bool is_real_type(nc_type type) { return type == NC_FLOAT || type == NC_DOUBLE; }

std::vector<std::int64_t> read_integers(const NetcdfFile& file, int varid,
                                        const std::vector<std::size_t>& start,
                                        const std::vector<std::size_t>& count) {
  using Out = std::int64_t;
  switch (file.var_type(varid)) {
    case NC_BYTE: return read_as<signed char, Out>(file, varid, start, count);
    case NC_UBYTE: return read_as<unsigned char, Out>(file, varid, start, count);
    case NC_SHORT: return read_as<short, Out>(file, varid, start, count);
    case NC_USHORT: return read_as<unsigned short, Out>(file, varid, start, count);
    case NC_INT: return read_as<int, Out>(file, varid, start, count);
    case NC_UINT: return read_as<unsigned int, Out>(file, varid, start, count);
    case NC_INT64: return read_as<long long, Out>(file, varid, start, count);
    case NC_UINT64: return read_as<unsigned long long, Out>(file, varid, start, count);
    default: break;
  }
  FERRY_ASSERT(false, "read_integers on a variable of type ", file.var_type(varid));
  return {};
}

std::vector<double> read_reals(const NetcdfFile& file, int varid,
                               const std::vector<std::size_t>& start,
                               const std::vector<std::size_t>& count) {
  if (file.var_type(varid) == NC_FLOAT) return read_as<float, double>(file, varid, start, count);
  FERRY_ASSERT(file.var_type(varid) == NC_DOUBLE, "read_reals on a variable of type ",
               file.var_type(varid));
  return read_as<double, double>(file, varid, start, count);
}

std::vector<double> read_numbers(const NetcdfFile& file, int varid,
                                 const std::vector<std::size_t>& start,
                                 const std::vector<std::size_t>& count) {
  if (is_real_type(file.var_type(varid))) return read_reals(file, varid, start, count);
  const std::vector<std::int64_t> values = read_integers(file, varid, start, count);
  return std::vector<double>(values.begin(), values.end());
}

}  // namespace ferry::regrid::detail
