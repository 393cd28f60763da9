// `ferry info`: what this build offers and which MPI library it runs on.
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "command.hpp"
#include "engines/tuning/tuning_cache.hpp"
#include "ferry/cell_partition.hpp"
#include "ferry/config.hpp"
#include "ferry/engine.hpp"
#include "util/mpi_library.hpp"

namespace ferry::cli {

namespace {

std::string joined(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
  return out.empty() ? "none" : out;
}

const char* yes_no(bool value) { return value ? "yes" : "no"; }

// "yes" or "no", for the optional parts this build was configured with.
const char* built(bool value) { return value ? "yes" : "no"; }

// The cache the adaptive engine reads and fills when no `cache` option names one.
std::string tuning_cache() {
  const char* env = std::getenv("FERRY_TUNING_CACHE");
  if (env == nullptr || *env == '\0')
    return "none ($FERRY_TUNING_CACHE is unset: the adaptive engine profiles in every run, "
           "unless its cache option names a file)";
  const std::string path = env;
  std::error_code error;
  if (!std::filesystem::exists(path, error))
    return path + " (from $FERRY_TUNING_CACHE; not written yet)";
  const detail::CacheLookup lookup =
      detail::find_entries(path, [](const std::string&) { return true; });
  std::string text = path + " (from $FERRY_TUNING_CACHE; " +
                     std::to_string(lookup.entries.size()) + " entries";
  if (!lookup.warnings.empty()) text += "; " + lookup.warnings.front();
  return text + ")";
}

int print_info(const Context& context) {
  if (context.rank != 0) return 0;
  std::cout << "ferry " << FERRY_VERSION_STRING << "\n"
            << "MPI library: " << detail::mpi_library_version() << "\n"
            << "MPI standard: " << detail::mpi_standard_version() << "\n"
            << "ranks: " << context.size << "\n"
            << "MPI neighbourhood collectives: " << yes_no(FERRY_HAVE_MPI_NEIGHBOR) << "\n"
            << "MPI shared-memory windows: " << yes_no(FERRY_HAVE_MPI_SHARED_WINDOW) << "\n"
            << "engines: " << joined(engine_names(), ", ") << "\n"
            << "disabled engines: " << joined(disabled_engines(), "; ") << "\n"
            << "built with: NetCDF " << FERRY_CLI_NETCDF_VERSION
            << ", METIS: " << built(partition_method_available(PartitionMethod::Metis))
            << ", PnetCDF: " << built(FERRY_HAVE_PNETCDF)
            << ", Fortran module: " << built(FERRY_CLI_WITH_FORTRAN)
            << ", Python package: " << built(FERRY_CLI_WITH_PYTHON)
            << ", SimGrid SMPI: " << built(FERRY_CLI_WITH_SMPI) << "\n"
            << "tuning cache: " << tuning_cache() << "\n";
  return 0;
}

Action declare_info(CLI::App&) { return print_info; }

}  // namespace

Command info_command() {
  return {"info", "version, MPI library, engines, optional parts and the tuning cache",
          "usage: ferry info\n"
          "\n"
          "Prints the ferry version, the MPI library (first line of\n"
          "MPI_Get_library_version) and standard, the MPI features ferry probed at build\n"
          "time, the registered engines and the built-in engines this build disabled,\n"
          "the optional parts built (NetCDF version, METIS, PnetCDF, the Fortran module, the\n"
          "Python package, SimGrid SMPI) and the tuning cache in use\n"
          "($FERRY_TUNING_CACHE, with its number of entries).\n"
          "Runs without mpiexec.\n",
          declare_info};
}

}  // namespace ferry::cli
