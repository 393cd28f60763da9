// `ferry info`: what this build offers and which MPI library it runs on.
#include <iostream>

#include "command.hpp"
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

int run(const Context& context) {
  if (context.rank != 0) return 0;
  std::cout << "ferry " << FERRY_VERSION_STRING << "\n"
            << "MPI library: " << detail::mpi_library_version() << "\n"
            << "MPI standard: " << detail::mpi_standard_version() << "\n"
            << "ranks: " << context.size << "\n"
            << "MPI neighbourhood collectives: " << yes_no(FERRY_HAVE_MPI_NEIGHBOR) << "\n"
            << "MPI shared-memory windows: " << yes_no(FERRY_HAVE_MPI_SHARED_WINDOW) << "\n"
            << "engines: " << joined(engine_names(), ", ") << "\n"
            << "disabled engines: " << joined(disabled_engines(), "; ") << "\n";
  return 0;
}

Action declare(CLI::App&) { return run; }

}  // namespace

Command info_command() {
  return {"info", "version, MPI library and the engines of this build",
          "usage: ferry info\n"
          "\n"
          "Prints the ferry version, the MPI library (first line of\n"
          "MPI_Get_library_version) and standard, the MPI features ferry probed at build\n"
          "time, the registered engines and the built-in engines this build disabled.\n"
          "Runs without mpiexec.\n",
          declare};
}

}  // namespace ferry::cli
