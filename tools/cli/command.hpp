// A subcommand of the `ferry` executable: its words, help text and entry point.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "arguments.hpp"
#include "ferry/error.hpp"

namespace ferry::cli {

/// Where a command runs. Commands print on rank 0 only.
struct Context {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0;
  int size = 1;
};

struct Command {
  std::string path;     ///< the words that select it, e.g. "bench exchange"
  std::string summary;  ///< one line for `ferry --help`
  std::string usage;    ///< the full text of `ferry <path> --help`
  /// Runs the command; returns the exit status. Throws UsageError for a bad
  /// command line, ferry::Error for a failure (the same on every rank).
  int (*run)(Arguments& args, const Context& context) = nullptr;
};

/// Runs `step`, turning a ferry::Error with Errc::Arg into a UsageError: the
/// benchmark set-ups raise Arg only for a configuration the flags and the rank
/// count cannot run, before any data moves, and identically on every rank.
template <class Step>
decltype(auto) arg_errors_as_usage(Step&& step) {
  try {
    return step();
  } catch (const Error& e) {
    if (e.code() == Errc::Arg) throw UsageError(e.what());
    throw;
  }
}

/// Every command, in the order `ferry --help` lists them. Each lives in its own file.
Command info_command();
Command bench_exchange_command();
Command bench_adaptive_command();
Command bench_pingpong_command();
Command bench_kernels_command();
Command bench_collectives_command();
Command bench_buffer_command();
Command bench_halo_command();
Command bench_regrid_command();
Command bench_coupling_command();
Command tune_command();
Command tune_kernels_command();
Command validate_command();
Command config_doc_command();
Command config_schema_command();
Command show_command();
Command import_namcouple_command();
Command report_command();

}  // namespace ferry::cli
