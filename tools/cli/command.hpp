// A subcommand of the `ferry` executable: its words, help text and entry point.
#pragma once

#include <mpi.h>

// SimGrid's SMPI defines exit() as a macro in its mpi.h, which would rewrite CLI11's
// App::exit: CLI11 is read without it.
#pragma push_macro("exit")
#undef exit
#include <CLI/CLI.hpp>
#pragma pop_macro("exit")

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ferry/error.hpp"

namespace ferry::cli {

/// A mistake in the command line; the command exits with status 2 and its usage.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Where a command runs. Commands print on rank 0 only.
struct Context {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0;
  int size = 1;
};

/// What a command does once its words are parsed; returns the exit status. Throws
/// UsageError for a bad command line, ferry::Error for a failure (the same on every rank).
using Action = std::function<int(const Context&)>;

struct Command {
  std::string path;     ///< the words that select it, e.g. "bench exchange"
  std::string summary;  ///< one line for `ferry --help`
  std::string usage;    ///< the full text of `ferry <path> --help`
  /// Declares the command's options and positionals on `app` (CLI11), bound to values
  /// the returned action owns; the action runs after the whole command line is parsed.
  Action (*declare)(CLI::App& app) = nullptr;
};

/// An integer option --name in [min, max] (both within T's range), written to `value`,
/// which keeps its default when the option is absent.
template <class T>
CLI::Option* add_int_option(CLI::App& app, const std::string& name, T& value, std::int64_t min,
                            std::int64_t max) {
  return app.add_option(name, value)->check(CLI::Range(min, max));
}

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
