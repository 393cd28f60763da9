#include "progress_report.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <utility>

namespace ferry::cli {

namespace {

constexpr int kBarWidth = 30;
constexpr double kRedrawSeconds = 0.1;  // a bar redrawn more often only costs time

}  // namespace

ProgressReport::ProgressReport(std::string command, bool shown)
    : command_(std::move(command)),
      shown_(shown),
      terminal_(shown && isatty(fileno(stderr)) != 0),
      start_(std::chrono::steady_clock::now()) {
  bench::set_progress(this);
}

ProgressReport::~ProgressReport() {
  bench::set_progress(nullptr);
  if (bar_visible_) std::fputs("\r\033[K", stderr);
}

double ProgressReport::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void ProgressReport::stage(const std::string& what) {
  stage_ = what;
  if (!shown_) return;
  if (terminal_) {
    draw(0, 0);
    return;
  }
  std::fputs(fmt::format("ferry {} [{:.1f} s]: {}\n", command_, elapsed(), what).c_str(), stderr);
  std::fflush(stderr);
}

void ProgressReport::step(std::int64_t done, std::int64_t total) {
  if (!terminal_) return;  // one line per stage is enough in a log
  if (done < total && elapsed() - last_draw_ < kRedrawSeconds) return;
  draw(done, total);
}

// "ferry bench exchange [3.1 s] [#########.....................] 30/100 timing".
void ProgressReport::draw(std::int64_t done, std::int64_t total) {
  last_draw_ = elapsed();
  const int filled = total > 0 ? static_cast<int>(kBarWidth * done / total) : 0;
  const std::string bar = std::string(static_cast<std::size_t>(filled), '#') +
                          std::string(static_cast<std::size_t>(kBarWidth - filled), '.');
  const std::string count = total > 0 ? fmt::format(" {}/{}", done, total) : "";
  std::fputs(fmt::format("\r\033[Kferry {} [{:.1f} s] [{}]{} {}", command_, last_draw_, bar,
                         count, stage_)
                 .c_str(),
             stderr);
  std::fflush(stderr);
  bar_visible_ = true;
}

}  // namespace ferry::cli
