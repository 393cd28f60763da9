// Weights::write_scrip and write_esmf: the matrix and point data into a SCRIP or ESMF file.
#include <algorithm>
#include <cstdio>
#include <limits>

#include "ferry/config.hpp"
#include "io/rank_order.hpp"
#if FERRY_HAVE_PNETCDF
#include "io/parallel_netcdf_file.hpp"
#endif
#include "ferry/weights.hpp"
#include "regrid/weight_file.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry {

namespace {

using io::NetcdfFile;
using regrid::detail::WeightFormat;

// Addresses fit NetCDF's int unless a grid has more than 2^31 - 1 points.
bool int_addresses(const Weights& w) {
  return std::max(w.src_size(), w.dst_size()) <= std::numeric_limits<int>::max();
}

// The point data variables one grid's data has.
std::vector<const char*> point_names(const WeightFormat& f, const GridPointData& data, int side) {
  std::vector<const char*> names;
  if (data.area) names.push_back(f.area[side]);
  if (data.frac) names.push_back(f.frac[side]);
  if (data.mask) names.push_back(f.mask[side]);
  return names;
}

// The file's dimensions, variables and attributes, no values. SCRIP's weights are
// remap_matrix(num_links, 1), ESMF's S(n_s).
template <class File>
void define_file(File& file, const WeightFormat& f, const Weights& w) {
  file.put_text_att(NC_GLOBAL, "title", "ferry remapping weights");
  file.put_text_att(NC_GLOBAL, "conventions", f.name);
  file.put_text_att(NC_GLOBAL, "ferry_format_version", regrid::detail::kWeightsFormatVersion);
  file.put_text_att(NC_GLOBAL, "source", detail::cat("ferry ", FERRY_VERSION_STRING));
  if (!w.method().empty()) file.put_text_att(NC_GLOBAL, "map_method", w.method());
  const int size_dims[2] = {
      file.define_dim(f.src_size, static_cast<std::size_t>(w.src_size())),
      file.define_dim(f.dst_size, static_cast<std::size_t>(w.dst_size()))};
  const int links = file.define_dim(f.links, static_cast<std::size_t>(w.global_links()));
  const nc_type index_type = int_addresses(w) ? NC_INT : NC_INT64;
  file.define_var(f.src_index, index_type, {links});
  file.define_var(f.dst_index, index_type, {links});
  if (&f == &regrid::detail::kScrip)
    file.define_var(f.weight, NC_DOUBLE, {links, file.define_dim("num_wgts", 1)});
  else
    file.define_var(f.weight, NC_DOUBLE, {links});
  for (int side = 0; side < 2; ++side) {
    const GridPointData& data = side == 0 ? w.src_points() : w.dst_points();
    for (const char* name : point_names(f, data, side))
      file.define_var(name, name == f.mask[side] ? NC_INT : NC_DOUBLE, {size_dims[side]});
  }
  file.end_define();
}

// Writes `count` values (of MPI type `type`) from `first` on of variable `name` (the
// first column of a 2-D one). The values must have the variable's type: nc_put_vara
// does not convert.
void put_slab(NetcdfFile& file, const char* name, std::int64_t first, std::size_t count,
              const void* values, MPI_Datatype) {
  if (count == 0) return;
  const std::optional<int> varid = file.find_var(name);
  FERRY_CHECK(varid, Errc::Io, file.caller(), ": variable \"", name, "\" vanished from \"",
              file.path(), "\" while it was written. Do not touch the file during the run");
  std::vector<std::size_t> start{static_cast<std::size_t>(first)};
  std::vector<std::size_t> span{count};
  if (file.var_dims(*varid).size() == 2) {
    start.push_back(0);
    span.push_back(1);
  }
  file.put_vara(*varid, start, span, values);
}

#if FERRY_HAVE_PNETCDF
// As above, collectively: every rank calls it, those without values with count 0.
void put_slab(io::ParallelNetcdfFile& file, const char* name, std::int64_t first,
              std::size_t count, const void* values, MPI_Datatype type) {
  const int varid = file.varid(name);
  std::vector<std::size_t> start{static_cast<std::size_t>(first)};
  std::vector<std::size_t> span{count};
  if (file.var_dim_count(varid) == 2) {
    start.push_back(0);
    span.push_back(1);
  }
  file.put_vara_all(varid, start, span, values, type);
}
#endif

// The 1-based addresses of this rank's links, by ascending row.
template <class Index, class File>
void put_addresses(File& file, const WeightFormat& f, const Weights& w, std::int64_t offset) {
  const std::size_t n = w.cols().size();
  std::vector<Index> src(n);
  std::vector<Index> dst(n);
  for (std::int64_t i = 0; i < w.row_count(); ++i)
    for (auto k = static_cast<std::size_t>(w.row_start()[static_cast<std::size_t>(i)]);
         k < static_cast<std::size_t>(w.row_start()[static_cast<std::size_t>(i) + 1]); ++k) {
      src[k] = static_cast<Index>(w.cols()[k] + 1);
      dst[k] = static_cast<Index>(w.first_row() + i + 1);
    }
  const MPI_Datatype type = sizeof(Index) == sizeof(int) ? MPI_INT : MPI_LONG_LONG;
  put_slab(file, f.src_index, offset, n, src.data(), type);
  put_slab(file, f.dst_index, offset, n, dst.data(), type);
}

// Each rank writes its links at `offset` and its blocks of point data.
// Masks (int32) go to PnetCDF as MPI_INT.
static_assert(sizeof(int) == sizeof(std::int32_t), "masks are written as MPI_INT");

template <class File>
void write_part(File& file, const WeightFormat& f, const Weights& w, std::int64_t offset) {
  if (int_addresses(w))
    put_addresses<int>(file, f, w, offset);
  else
    put_addresses<long long>(file, f, w, offset);
  put_slab(file, f.weight, offset, w.values().size(), w.values().data(), MPI_DOUBLE);
  for (int side = 0; side < 2; ++side) {
    const GridPointData& data = side == 0 ? w.src_points() : w.dst_points();
    const std::int64_t first = side == 0 ? w.first_src_point() : w.first_row();
    if (data.area)
      put_slab(file, f.area[side], first, data.area->size(), data.area->data(), MPI_DOUBLE);
    if (data.frac)
      put_slab(file, f.frac[side], first, data.frac->size(), data.frac->data(), MPI_DOUBLE);
    if (data.mask)
      put_slab(file, f.mask[side], first, data.mask->size(), data.mask->data(), MPI_INT);
  }
}

}  // namespace

namespace regrid::detail {

WeightWriter default_weight_writer() {
  return FERRY_HAVE_PNETCDF ? WeightWriter::Collective : WeightWriter::RankOrder;
}

void write_weight_file(const Weights& w, MPI_Comm user_comm, const std::string& path,
                       const WeightFormat& f, const char* caller, WeightWriter writer) {
  const Comm comm = Comm::dup(user_comm);
  ferry::detail::agree_on(comm, [&] {
    FERRY_CHECK(writer == WeightWriter::RankOrder || FERRY_HAVE_PNETCDF, Errc::Arg, caller,
                ": writing collectively needs PnetCDF, which this build lacks (`ferry info` "
                "says \"PnetCDF: no\"; CMake's \"ferry weight files\" line says why); write "
                "rank after rank");
    FERRY_CHECK(w.parts() == comm.size() && w.part() == comm.rank(), Errc::Arg, caller,
                ": the weights are distributed over ", w.parts(), " ranks (this is part ",
                w.part(), "), the communicator has ", comm.size(), " (this is rank ",
                comm.rank(), "). Write them on the communicator they were read or built on");
  });
  auto local = static_cast<std::int64_t>(w.cols().size());
  std::int64_t offset = 0;
  FERRY_CALL_MPI(MPI_Exscan(&local, &offset, 1, MPI_INT64_T, MPI_SUM, comm.get()));
  if (comm.rank() == 0) offset = 0;  // MPI_Exscan leaves rank 0's result undefined

  // Write beside the old file and rename at the end: a failed write never leaves a
  // truncated weight file behind under the real name.
  const std::string partial = path + ".partial";
  try {
#if FERRY_HAVE_PNETCDF
    if (writer == WeightWriter::Collective) {
      // Every rank puts its links and point data in one collective call per variable.
      ferry::detail::agree_on(comm, [&] {
        io::ParallelNetcdfFile file(comm, caller, partial);
        define_file(file, f, w);
        write_part(file, f, w, offset);
        file.close();
      });
    }
#endif
    if (writer == WeightWriter::RankOrder) {
      ferry::detail::agree_on(comm, [&] {
        if (comm.rank() != 0) return;
        NetcdfFile file(caller, partial, NetcdfFile::Mode::CreateCdf5);
        define_file(file, f, w);
        file.close();
      });
      io::in_rank_order(comm, [&] {
        NetcdfFile file(caller, partial, NetcdfFile::Mode::Write);
        write_part(file, f, w, offset);
        file.close();
      });
    }
    io::move_into_place(comm, caller, partial, path);
  } catch (const Error&) {
    if (comm.rank() == 0) std::remove(partial.c_str());
    throw;
  }
}

}  // namespace regrid::detail

void Weights::write_scrip(MPI_Comm comm, const std::string& path) const {
  regrid::detail::write_weight_file(*this, comm, path, regrid::detail::kScrip,
                                    "Weights::write_scrip", regrid::detail::default_weight_writer());
}

void Weights::write_esmf(MPI_Comm comm, const std::string& path) const {
  regrid::detail::write_weight_file(*this, comm, path, regrid::detail::kEsmf,
                                    "Weights::write_esmf", regrid::detail::default_weight_writer());
}

}  // namespace ferry
