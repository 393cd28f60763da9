#include "util/log.hpp"

#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace ferry::detail {

namespace {

struct LogSettings {
  LogLevel level = LogLevel::Warn;
  bool all_ranks = false;
  std::string problem;  // a misspelt variable, reported with the first message
};

LogSettings read_settings() {
  LogSettings s;
  const char* level = std::getenv("FERRY_LOG_LEVEL");
  const std::string text = level ? level : "";
  if (text == "none") s.level = LogLevel::None;
  else if (text == "info") s.level = LogLevel::Info;
  else if (text == "debug") s.level = LogLevel::Debug;
  else if (!text.empty() && text != "warn")
    s.problem = cat("FERRY_LOG_LEVEL=\"", text,
                    "\" is not one of none, warn, info, debug; logging warnings only");
  const char* ranks = std::getenv("FERRY_LOG_RANKS");
  const std::string which = ranks ? ranks : "";
  s.all_ranks = which == "all";
  if (!which.empty() && which != "all" && which != "0")
    s.problem += cat(s.problem.empty() ? "" : "; ", "FERRY_LOG_RANKS=\"", which,
                     "\" is not 0 or all; logging from rank 0 only");
  return s;
}

const LogSettings& settings() noexcept {
  static const LogSettings s = read_settings();
  return s;
}

const char* level_name(LogLevel level) noexcept {
  switch (level) {
    case LogLevel::Warn: return "warning";
    case LogLevel::Info: return "info";
    case LogLevel::Debug: return "debug";
    case LogLevel::None: break;
  }
  return "log";
}

void write_line(int rank, const char* level, const std::string& message) {
  const std::string line =
      rank >= 0 ? cat("ferry[rank ", rank, "] ", level, ": ", message, "\n")
                : cat("ferry: ", level, ": ", message, "\n");
  // One call per line, so lines from several ranks sharing a terminal do not interleave.
  std::fputs(line.c_str(), stderr);
}

}  // namespace

LogLevel log_level() noexcept { return settings().level; }

bool log_enabled(LogLevel level, int rank) noexcept {
  const LogSettings& s = settings();
  return level != LogLevel::None && static_cast<int>(level) <= static_cast<int>(s.level) &&
         (rank <= 0 || s.all_ranks);
}

void log_write(LogLevel level, int rank, const std::string& message) {
  static std::once_flag problem_told;
  std::call_once(problem_told, [rank] {
    if (!settings().problem.empty()) write_line(rank, "warning", settings().problem);
  });
  write_line(rank, level_name(level), message);
}

}  // namespace ferry::detail
