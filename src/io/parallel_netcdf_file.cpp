#include "io/parallel_netcdf_file.hpp"

#include <pnetcdf.h>

#include <utility>

#include "ferry/error.hpp"
#include "util/format.hpp"
#include "util/mpi.hpp"

namespace ferry::io {

namespace {

std::vector<MPI_Offset> offsets(const std::vector<std::size_t>& values) {
  return {values.begin(), values.end()};
}

}  // namespace

ParallelNetcdfFile::ParallelNetcdfFile(const Comm& comm, std::string caller, std::string path)
    : caller_(std::move(caller)), path_(std::move(path)) {
  // PnetCDF aligns the header and the variables to 512 bytes by default; NetCDF-C to
  // 4 bytes. These hints make PnetCDF lay the file out as NetCDF-C does.
  MPI_Info info = MPI_INFO_NULL;
  FERRY_CALL_MPI(MPI_Info_create(&info));
  for (const char* hint : {"nc_header_align_size", "nc_var_align_size", "nc_record_align_size"})
    FERRY_CALL_MPI(MPI_Info_set(info, hint, "1"));
  const int status =
      ncmpi_create(comm.get(), path_.c_str(), NC_64BIT_DATA | NC_CLOBBER, info, &id_);
  FERRY_CALL_MPI(MPI_Info_free(&info));
  if (status != NC_NOERR) {
    id_ = -1;
    throw Error(Errc::Io, detail::cat(caller_, ": cannot create \"", path_, "\": ",
                                      ncmpi_strerror(status),
                                      ". Check that the directory exists and is writable by "
                                      "every rank, on a file system they all see"));
  }
  int old_mode = 0;
  check(ncmpi_set_fill(id_, NC_NOFILL, &old_mode), "setting no-fill mode for");
}

void ParallelNetcdfFile::check(int status, const std::string& action) const {
  if (status == NC_NOERR) return;
  throw Error(Errc::Io, detail::cat(caller_, ": ", action, " \"", path_, "\" failed: ",
                                    ncmpi_strerror(status)));
}

int ParallelNetcdfFile::define_dim(const std::string& name, std::size_t length) {
  int dimid = -1;
  check(ncmpi_def_dim(id_, name.c_str(), static_cast<MPI_Offset>(length), &dimid),
        detail::cat("defining dimension \"", name, "\" in"));
  return dimid;
}

int ParallelNetcdfFile::define_var(const std::string& name, int type, const std::vector<int>& dims) {
  int varid = -1;
  check(ncmpi_def_var(id_, name.c_str(), type, static_cast<int>(dims.size()), dims.data(), &varid),
        detail::cat("defining variable \"", name, "\" in"));
  return varid;
}

void ParallelNetcdfFile::put_text_att(int varid, const std::string& name, const std::string& value) {
  check(ncmpi_put_att_text(id_, varid, name.c_str(), static_cast<MPI_Offset>(value.size()),
                           value.data()),
        detail::cat("writing attribute \"", name, "\" in"));
}

int ParallelNetcdfFile::varid(const std::string& name) const {
  int id = -1;
  check(ncmpi_inq_varid(id_, name.c_str(), &id), detail::cat("finding variable \"", name, "\" in"));
  return id;
}

int ParallelNetcdfFile::var_dim_count(int varid) const {
  int dims = 0;
  check(ncmpi_inq_varndims(id_, varid, &dims), detail::cat("asking about variable ", varid, " of"));
  return dims;
}

void ParallelNetcdfFile::end_define() { check(ncmpi_enddef(id_), "finishing the definitions of"); }

void ParallelNetcdfFile::put_vara_all(int varid, const std::vector<std::size_t>& start,
                                      const std::vector<std::size_t>& count, const void* values,
                                      MPI_Datatype type) {
  MPI_Offset elements = 1;
  for (std::size_t n : count) elements *= static_cast<MPI_Offset>(n);
  const std::vector<MPI_Offset> first = offsets(start), span = offsets(count);
  check(ncmpi_put_vara_all(id_, varid, first.data(), span.data(), values, elements, type),
        detail::cat("writing variable ", varid, " of"));
}

void ParallelNetcdfFile::close() {
  const int id = std::exchange(id_, -1);
  check(ncmpi_close(id), "closing");
}

}  // namespace ferry::io
