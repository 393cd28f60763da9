// The `ferry` command: finds the subcommand, runs it, and turns its outcome into
// an exit status (0 ok, 1 error, 2 usage error) on every rank.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <iostream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "command.hpp"
#include "ferry/config.hpp"
#include "ferry/error.hpp"
#include "progress_report.hpp"

namespace {

using ferry::cli::Action;
using ferry::cli::Command;
using ferry::cli::Context;
using ferry::cli::ProgressReport;
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
         "\noptions of every command:\n"
         "  --quiet           no progress lines on standard error\n"
         "  --version         print the version and exit\n"
         "\nRun 'ferry <command> --help' for a command's options, and the bench commands\n"
         "under mpiexec. Exit status: 0 ok, 1 error, 2 usage error.\n";
}

// CLI11 prints this text as the help of one command or group of commands.
class FixedHelp : public CLI::FormatterBase {
 public:
  explicit FixedHelp(std::string text) : text_(std::move(text)) {}
  std::string make_help(const CLI::App*, std::string, CLI::AppFormatMode) const override {
    return text_;
  }

 private:
  std::string text_;
};

// The command line as a tree of CLI11 apps: a group ("bench", "tune") is an app whose
// subcommands are the commands below it; a command's options belong to its own app.
class CommandLine {
 public:
  explicit CommandLine(std::vector<Command> commands) : commands_(std::move(commands)) {
    root_.formatter(std::make_shared<FixedHelp>(overview(commands_, {})));
    root_.add_flag("--quiet", quiet_, "no progress lines on standard error");
    root_.add_flag("--version", version_, "print the version and exit");
    for (const Command& command : commands_) {
      CLI::App* app = &root_;
      std::vector<std::string> prefix;
      for (const std::string& word : split_words(command.path)) {
        prefix.push_back(word);
        CLI::App* child = find_child(*app, word);
        if (!child) {
          child = app->add_subcommand(word);
          child->fallthrough();  // --quiet and --version anywhere on the line
          child->formatter(std::make_shared<FixedHelp>(overview(commands_, prefix)));
        }
        app = child;
      }
      app->formatter(std::make_shared<FixedHelp>(command.usage));
      actions_[app] = {&command, command.declare(*app)};
    }
  }

  int run(int argc, char** argv, Context context) {
    try {
      root_.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
      if (context.rank == 0) std::cout << root_.help();
      return 0;
    } catch (const CLI::ParseError& e) {
      return parse_error(e, context);
    }
    if (version_) {
      if (context.rank == 0) std::cout << "ferry " << FERRY_VERSION_STRING << "\n";
      return 0;
    }
    const CLI::App* app = selected();
    const auto found = actions_.find(app);
    if (found == actions_.end()) return incomplete(app, context);
    const ProgressReport progress(found->second.command->path, context.rank == 0 && !quiet_);
    try {
      return found->second.action(context);
    } catch (const UsageError& e) {
      return usage_error(context, found->second.command->path + ": " + e.what(), app->help());
    }
  }

 private:
  struct Entry {
    const Command* command;
    Action action;
  };

  static CLI::App* find_child(CLI::App& app, const std::string& name) {
    for (CLI::App* child : app.get_subcommands([](CLI::App*) { return true; }))
      if (child->get_name() == name) return child;
    return nullptr;
  }

  // The innermost command or group the words selected (the root if none).
  const CLI::App* selected() const {
    const CLI::App* app = &root_;
    while (!app->get_subcommands().empty()) app = app->get_subcommands().front();
    return app;
  }

  // A group's unknown word is an unknown command; anything else is CLI11's verdict.
  int parse_error(const CLI::ParseError& e, const Context& context) const {
    const CLI::App* app = selected();
    const std::vector<std::string> extra = app->remaining();
    const bool group = actions_.find(app) == actions_.end();
    if (group && !extra.empty() && extra.front().rfind("-", 0) != 0)
      return usage_error(context, "unknown command \"" + extra.front() + "\"", app->help());
    std::string where = app == &root_ ? "" : path_of(app) + ": ";
    return usage_error(context, where + e.what(), app->help());
  }

  // A group without a command below it: list what may follow.
  int incomplete(const CLI::App* app, const Context& context) const {
    if (app == &root_) return usage_error(context, "missing command", app->help());
    return usage_error(context, "incomplete command \"" + path_of(app) + "\"", app->help());
  }

  static std::string path_of(const CLI::App* app) {
    std::string path;
    for (; app && app->get_parent(); app = app->get_parent())
      path = app->get_name() + (path.empty() ? "" : " " + path);
    return path;
  }

  // Prints on rank 0 only: every rank parses the same words and reaches the same verdict.
  static int usage_error(const Context& context, const std::string& message,
                         const std::string& usage) {
    if (context.rank == 0) std::cerr << "ferry: " << message << "\n\n" << usage;
    return kExitUsage;
  }

  std::vector<Command> commands_;
  CLI::App root_{"ferry", "ferry"};
  bool quiet_ = false;
  bool version_ = false;
  std::map<const CLI::App*, Entry> actions_;
};

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
    CommandLine command_line(all_commands());
    status = command_line.run(argc, argv, context);
  } catch (const std::exception& e) {
    status = fail(errors, context, e.what());
  } catch (...) {
    status = fail(errors, context, "unknown exception. This is a bug in ferry, please report it");
  }
  MPI_Comm_free(&errors);
  MPI_Finalize();
  return status;
}
