#include "coupling/weight_columns.hpp"

#include <algorithm>
#include <cstdint>

#include "io/netcdf_file.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::coupling {

namespace {

constexpr const char* kCaller = "reading the weight columns";

// A variable's values from `start` over `count`, as int64 or double whatever the
// file's integer or real type.
template <class T>
std::vector<T> read_values(const io::NetcdfFile& file, const char* name,
                           const std::vector<std::size_t>& start,
                           const std::vector<std::size_t>& count) {
  const std::optional<int> var = file.find_var(name);
  FERRY_CHECK(var, Errc::Io, kCaller, ": \"", file.path(), "\" has no variable \"", name,
              "\"; a SCRIP remapping file has src_address, dst_address and remap_matrix");
  std::size_t n = 1;
  for (std::size_t c : count) n *= c;
  std::vector<T> out(n);
  const nc_type type = file.var_type(*var);
  const auto read_as = [&](auto zero) {
    std::vector<decltype(zero)> raw(n);
    if (n > 0) file.get_vara(*var, start, count, raw.data());
    std::transform(raw.begin(), raw.end(), out.begin(), [](auto v) { return static_cast<T>(v); });
  };
  switch (type) {
    case NC_INT: read_as(std::int32_t{}); break;
    case NC_INT64: read_as(std::int64_t{}); break;
    case NC_FLOAT: read_as(float{}); break;
    case NC_DOUBLE: read_as(double{}); break;
    default:
      throw Error(Errc::Io, detail::cat(kCaller, ": \"", file.path(), "\": variable \"", name,
                                        "\" has type ", file.type_name(type),
                                        ", expected int, int64, float or double"));
  }
  return out;
}

struct FileShape {
  std::int64_t src_size = 0, dst_size = 0, links = 0;
  int columns = 1;
};

FileShape shape_of(const io::NetcdfFile& file) {
  FileShape s;
  const auto length = [&](const char* dim) -> std::int64_t {
    const std::optional<int> id = file.find_dim(dim);
    return id ? static_cast<std::int64_t>(file.dim_length(*id)) : -1;
  };
  s.src_size = length("src_grid_size");
  s.dst_size = length("dst_grid_size");
  s.links = length("num_links");
  const std::optional<int> matrix = file.find_var("remap_matrix");
  if (matrix && file.var_dims(*matrix).size() == 2)
    s.columns = static_cast<int>(file.dim_length(file.var_dims(*matrix)[1]));
  return s;
}

}  // namespace

int weight_columns(const Comm& comm, const std::string& path) {
  int columns = 1;
  detail::agree_on(comm, [&] {
    if (comm.rank() != 0) return;
    const io::NetcdfFile file(kCaller, path, io::NetcdfFile::Mode::Read);
    columns = shape_of(file).columns;
  });
  FERRY_CALL_MPI(MPI_Bcast(&columns, 1, MPI_INT, 0, comm.get()));
  return columns;
}

std::vector<Weights> read_weight_columns(const Comm& comm, const std::string& path,
                                         BadWeightIndex bad) {
  FileShape shape;
  std::vector<std::vector<WeightLink>> columns;
  detail::agree_on(comm, [&] {
    const io::NetcdfFile file(kCaller, path, io::NetcdfFile::Mode::Read);
    shape = shape_of(file);
    FERRY_CHECK(shape.src_size >= 0 && shape.dst_size >= 0 && shape.links >= 0, Errc::Io, kCaller,
                ": \"", path, "\" lacks the dimensions src_grid_size, dst_grid_size or num_links "
                "of a SCRIP remapping file");
    // Rank r reads links [first, first + count), the block Layout::block gives it.
    const std::int64_t p = comm.size(), r = comm.rank();
    const std::int64_t first = r * (shape.links / p) + std::min(r, shape.links % p);
    const std::int64_t count = shape.links / p + (r < shape.links % p ? 1 : 0);
    const std::vector<std::size_t> start{static_cast<std::size_t>(first)};
    const std::vector<std::size_t> span{static_cast<std::size_t>(count)};
    const auto src = read_values<std::int64_t>(file, "src_address", start, span);
    const auto dst = read_values<std::int64_t>(file, "dst_address", start, span);
    const auto width = static_cast<std::size_t>(shape.columns);
    FERRY_CHECK(shape.columns > 1, Errc::Io, kCaller, ": \"", path,
                "\" has no remap_matrix(num_links, num_wgts) of several weights per link");
    const auto weights = read_values<double>(file, "remap_matrix", {start[0], 0}, {span[0], width});
    columns.assign(width, {});
    for (std::size_t k = 0; k < span[0]; ++k) {
      // Links of weight 0 from or to address 0 pad some SCRIP files: skipped, as
      // Weights::read does; from_links refuses any other address outside the grids,
      // unless such links are to be dropped.
      const bool padding = src[k] == 0 || dst[k] == 0;
      const bool outside = src[k] < 1 || src[k] > shape.src_size || dst[k] < 1 ||
                           dst[k] > shape.dst_size;
      if (outside && bad != BadWeightIndex::Refuse) continue;
      for (std::size_t c = 0; c < width; ++c) {
        const double w = weights[k * width + c];
        if (padding && w == 0) continue;
        columns[c].push_back({dst[k] - 1, src[k] - 1, w, first + static_cast<std::int64_t>(k)});
      }
    }
  });
  std::vector<Weights> out;
  for (auto& links : columns)
    out.push_back(Weights::from_links(comm.get(), shape.src_size, shape.dst_size, std::move(links)));
  return out;
}

}  // namespace ferry::coupling
