// The `ferry` command: finds the subcommand, runs it, and turns its outcome into
// an exit status (0 ok, 1 error, 2 usage error) on every rank.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "command.hpp"
#include "ferry/error.hpp"

namespace {

using ferry::cli::Arguments;
using ferry::cli::Command;
using ferry::cli::Context;
using ferry::cli::UsageError;

constexpr int kExitError = 1;
constexpr int kExitUsage = 2;
// How long ranks wait for each other after an error before giving up on a clean exit.
constexpr double kErrorAgreementSeconds = 10.0;

std::vector<Command> all_commands() {
  return {ferry::cli::info_command(), ferry::cli::bench_exchange_command(), ferry::cli::bench_adaptive_command(),
          ferry::cli::bench_pingpong_command(),
          ferry::cli::bench_kernels_command(),
          ferry::cli::bench_collectives_command(),
          ferry::cli::bench_buffer_command(),
          ferry::cli::bench_halo_command(),
          ferry::cli::bench_regrid_command(),
          ferry::cli::bench_coupling_command(), ferry::cli::tune_command(),
          ferry::cli::tune_kernels_command(),
          ferry::cli::validate_command(), ferry::cli::config_doc_command(),
          ferry::cli::config_schema_command(), ferry::cli::show_command(),
          ferry::cli::import_namcouple_command(),
          ferry::cli::report_command()};
}

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  std::string::size_type begin = 0;
  while (begin < text.size()) {
    const auto end = text.find(' ', begin);
    words.push_back(text.substr(begin, end - begin));
    begin = end == std::string::npos ? text.size() : end + 1;
  }
  return words;
}

bool starts_with(const std::vector<std::string>& words, const std::vector<std::string>& prefix) {
  return words.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), words.begin());
}

bool is_help(const std::string& word) { return word == "--help" || word == "-h" || word == "help"; }

// The commands below `prefix` (every command for an empty prefix), one per line.
std::string overview(const std::vector<Command>& commands,
                     const std::vector<std::string>& prefix) {
  std::string head;
  for (const auto& word : prefix) head += word + " ";
  std::string out = "usage: ferry " + head + "<command> [options]\n\ncommands:\n";
  for (const Command& c : commands) {
    if (!starts_with(split_words(c.path), prefix)) continue;
    out += "  " + c.path + std::string(c.path.size() < 18 ? 18 - c.path.size() : 1, ' ') +
           c.summary + "\n";
  }
  return out +
         "\nRun 'ferry <command> --help' for a command's options, and the bench commands\n"
         "under mpiexec. Exit status: 0 ok, 1 error, 2 usage error.\n";
}

// Prints on rank 0 only: every rank parses the same words and reaches the same verdict.
int usage_error(const Context& context, const std::string& message, const std::string& usage) {
  if (context.rank == 0) std::cerr << "ferry: " << message << "\n\n" << usage;
  return kExitUsage;
}

// Neither a command nor help for one: list what could follow the words given.
int no_command(const std::vector<Command>& commands, const std::vector<std::string>& words,
               const Context& context) {
  std::vector<std::string> prefix;
  for (const auto& word : words) {
    if (word.rfind("-", 0) == 0 || is_help(word)) break;
    prefix.push_back(word);
  }
  const bool known_prefix = std::any_of(commands.begin(), commands.end(), [&](const Command& c) {
    return starts_with(split_words(c.path), prefix);
  });
  if (!known_prefix)
    return usage_error(context, "unknown command \"" + prefix.back() + "\"", overview(commands, {}));
  if (std::any_of(words.begin(), words.end(), is_help)) {
    if (context.rank == 0) std::cout << overview(commands, prefix);
    return 0;
  }
  if (words.size() > prefix.size())
    return usage_error(context, "unknown option " + words[prefix.size()], overview(commands, prefix));
  std::string given;
  for (const auto& word : prefix) given += (given.empty() ? "" : " ") + word;
  return usage_error(context,
                     prefix.empty() ? "missing command" : "incomplete command \"" + given + "\"",
                     overview(commands, prefix));
}

int dispatch(const std::vector<std::string>& words, const Context& context) {
  const std::vector<Command> commands = all_commands();
  const Command* found = nullptr;
  std::size_t path_length = 0;
  for (const Command& c : commands) {
    const std::vector<std::string> path = split_words(c.path);
    if (starts_with(words, path) && path.size() > path_length) {
      found = &c;
      path_length = path.size();
    }
  }
  if (!found) return no_command(commands, words, context);

  Arguments args(std::vector<std::string>(words.begin() + static_cast<std::ptrdiff_t>(path_length),
                                          words.end()));
  if (args.wants_help()) {
    if (context.rank == 0) std::cout << found->usage;
    return 0;
  }
  try {
    return found->run(args, context);
  } catch (const UsageError& e) {
    return usage_error(context, found->path + ": " + e.what(), found->usage);
  }
}

// A failure may have been raised on some ranks only while the others wait in a
// collective. Ranks that all failed (the usual case: ferry agrees on errors)
// meet in a barrier on their own communicator and exit cleanly with status 1;
// if some rank never arrives, the job is aborted rather than left hanging.
int fail(MPI_Comm errors, const Context& context, const std::string& message) {
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Ibarrier(errors, &request);
  int all_failed = 0;
  const double start = MPI_Wtime();
  while (!all_failed && MPI_Wtime() - start < kErrorAgreementSeconds) {
    MPI_Test(&request, &all_failed, MPI_STATUS_IGNORE);
    if (!all_failed) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (!all_failed) {
    std::cerr << "ferry: error on rank " << context.rank << ": " << message << std::endl;
    MPI_Abort(MPI_COMM_WORLD, kExitError);
  }
  if (context.rank == 0) std::cerr << "ferry: error: " << message << std::endl;
  return kExitError;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Context context;
  context.comm = MPI_COMM_WORLD;
  MPI_Comm_rank(context.comm, &context.rank);
  MPI_Comm_size(context.comm, &context.size);
  MPI_Comm errors = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &errors);

  int status = 0;
  try {
    status = dispatch(std::vector<std::string>(argv + 1, argv + argc), context);
  } catch (const std::exception& e) {
    status = fail(errors, context, e.what());
  } catch (...) {
    status = fail(errors, context, "unknown exception. This is a bug in ferry, please report it");
  }
  MPI_Comm_free(&errors);
  MPI_Finalize();
  return status;
}
