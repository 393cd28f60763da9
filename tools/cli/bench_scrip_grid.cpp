#include "bench_scrip_grid.hpp"

#include <cstdint>

#include "io/netcdf_file.hpp"
#include "io/rank_order.hpp"
#include "util/agree.hpp"

namespace ferry::cli {

namespace {

constexpr const char* kCaller = "ferry bench regrid --dir";

void define_file(io::NetcdfFile& file, std::int64_t size, int corners) {
  const int cells = file.define_dim("grid_size", static_cast<std::size_t>(size));
  const int corner = file.define_dim("grid_corners", static_cast<std::size_t>(corners));
  const int rank = file.define_dim("grid_rank", 2);
  file.define_var("grid_dims", NC_INT, {rank});
  for (const char* name : {"grid_center_lat", "grid_center_lon"})
    file.put_text_att(file.define_var(name, NC_DOUBLE, {cells}), "units", "degrees");
  file.define_var("grid_imask", NC_INT, {cells});
  for (const char* name : {"grid_corner_lat", "grid_corner_lon"})
    file.put_text_att(file.define_var(name, NC_DOUBLE, {cells, corner}), "units", "degrees");
  file.put_text_att(NC_GLOBAL, "title", "ferry bench regrid grid");
  file.end_define();
}

void put(io::NetcdfFile& file, const char* name, std::vector<std::size_t> start,
         std::vector<std::size_t> count, const void* values) {
  file.put_vara(*file.find_var(name), start, count, values);
}

}  // namespace

void write_scrip_grid(const Comm& comm, const std::string& path, const GridCells& cells,
                      const std::vector<double>& centre_lon,
                      const std::vector<double>& centre_lat, std::int64_t nx, std::int64_t ny) {
  const std::size_t n = centre_lon.size();
  const auto first = static_cast<std::size_t>(n == 0 ? 0 : cells.layout.ids().front());
  const auto corners = static_cast<std::size_t>(cells.corners);
  std::vector<std::int32_t> mask = cells.mask;
  if (mask.empty()) mask.assign(n, 1);
  const std::string partial = path + ".partial";
  detail::agree_on(comm, [&] {
    if (comm.rank() != 0) return;
    io::NetcdfFile file(kCaller, partial, io::NetcdfFile::Mode::Create);
    define_file(file, nx * ny, cells.corners);
    const int dims[2] = {static_cast<int>(nx), static_cast<int>(ny)};
    put(file, "grid_dims", {0}, {2}, dims);
    file.close();
  });
  io::in_rank_order(comm, [&] {
    if (n == 0) return;
    io::NetcdfFile file(kCaller, partial, io::NetcdfFile::Mode::Write);
    put(file, "grid_center_lon", {first}, {n}, centre_lon.data());
    put(file, "grid_center_lat", {first}, {n}, centre_lat.data());
    put(file, "grid_imask", {first}, {n}, mask.data());
    put(file, "grid_corner_lon", {first, 0}, {n, corners}, cells.corner_lon.data());
    put(file, "grid_corner_lat", {first, 0}, {n, corners}, cells.corner_lat.data());
    file.close();
  });
  io::move_into_place(comm, kCaller, partial, path);
}

}  // namespace ferry::cli
