// Progress of a `ferry` command on rank 0's standard error: a bar redrawn in place
// when standard error is a terminal, else one line per stage. Silent on the other
// ranks and with --quiet.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "progress.hpp"

namespace ferry::cli {

class ProgressReport : public bench::Progress {
 public:
  /// `command` names the command in each line ("bench exchange"); `shown` is false on
  /// ranks other than 0 and with --quiet. Installs itself with bench::set_progress.
  ProgressReport(std::string command, bool shown);
  /// Clears the bar and uninstalls itself.
  ~ProgressReport() override;
  ProgressReport(const ProgressReport&) = delete;
  ProgressReport& operator=(const ProgressReport&) = delete;

  void stage(const std::string& what) override;
  void step(std::int64_t done, std::int64_t total) override;

 private:
  double elapsed() const;
  void draw(std::int64_t done, std::int64_t total);

  std::string command_;
  bool shown_;
  bool terminal_;
  std::string stage_;
  std::chrono::steady_clock::time_point start_;
  double last_draw_ = -1;
  bool bar_visible_ = false;
};

}  // namespace ferry::cli
