#include "report_plot.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "ferry/error.hpp"
#include "report_output.hpp"
#include "util/format.hpp"

namespace ferry::report {

namespace {

// plot_report.py's exit status when it cannot import matplotlib.
constexpr int kNoMatplotlib = 3;
// The shell's exit status when it cannot find the command.
constexpr int kNoCommand = 127;

std::string python_interpreter() {
  const char* chosen = std::getenv("FERRY_PYTHON");
  if (chosen != nullptr && *chosen != '\0') return chosen;
  const std::string venv = FERRY_REPORT_SOURCE_DIR "/.venv/bin/python";
  std::error_code ignored;
  return std::filesystem::exists(venv, ignored) ? venv : "python3";
}

// The copy next to the Python package's command (ferry/bin/ferry, ferry/plot_report.py:
// a wheel, wherever pip put it), else the installed copy, else the one in the source
// tree (a build tree).
std::string plot_script() {
  namespace fs = std::filesystem;
  std::error_code ignored;
  const fs::path command = fs::read_symlink("/proc/self/exe", ignored);
  if (!command.empty()) {
    const fs::path beside = command.parent_path().parent_path() / "plot_report.py";
    if (fs::exists(beside, ignored)) return beside.string();
  }
  return fs::exists(FERRY_REPORT_INSTALLED_SCRIPT, ignored)
             ? FERRY_REPORT_INSTALLED_SCRIPT
             : FERRY_REPORT_SOURCE_DIR "/tools/report/plot_report.py";
}

std::string shell_quoted(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs `command` with `input` on its standard input; returns its exit status.
int run_with_input(const std::string& command, const std::string& input) {
  std::cout.flush();
  FILE* pipe = popen(command.c_str(), "w");
  if (pipe == nullptr) throw Error(Errc::Io, "report --png: cannot start a shell to run Python");
  // A command that ends before reading (no interpreter) must not end ferry by SIGPIPE.
  struct sigaction ignore {}, previous {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &previous);
  std::fwrite(input.data(), 1, input.size(), pipe);
  const int status = pclose(pipe);
  sigaction(SIGPIPE, &previous, nullptr);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

void plot_report(const std::vector<ComponentRun>& runs, const std::string& png) {
  const std::string python = python_interpreter();
  const std::string script = plot_script();
  const std::string command =
      shell_quoted(python) + " " + shell_quoted(script) + " " + shell_quoted(png);
  const int status = run_with_input(command, report_json(runs));
  if (status == 0) return;
  if (status == kNoCommand)
    throw Error(Errc::Unsupported,
                detail::cat("report --png: cannot run the Python interpreter \"", python,
                            "\". Set FERRY_PYTHON to a Python 3 that has matplotlib"));
  if (status == kNoMatplotlib)
    throw Error(Errc::Unsupported,
                detail::cat("report --png: matplotlib is missing in \"", python,
                            "\". Install it there (python -m pip install matplotlib), or set "
                            "FERRY_PYTHON to an interpreter that has it"));
  throw Error(Errc::Io, detail::cat("report --png: ", script, " failed with status ", status,
                                    " (its message is above); ", png,
                                    " may be missing or incomplete"));
}

}  // namespace ferry::report
