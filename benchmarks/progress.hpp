// Progress of a long benchmark run: its stages ("setting up p2p", "timing") and the
// steps within one. The `ferry` command installs a reporter that prints on rank 0;
// anything else (tests, library users of ferry_bench) gets the silent default.
#pragma once

#include <cstdint>
#include <string>

namespace ferry::bench {

class Progress {
 public:
  virtual ~Progress() = default;
  /// A new stage begins. Called on every rank with the same words.
  virtual void stage(const std::string& what) = 0;
  /// `done` of `total` steps of the current stage are done.
  virtual void step(std::int64_t done, std::int64_t total) = 0;
};

/// The reporter in use: the one set_progress installed, else one that says nothing.
Progress& progress();

/// Installs `reporter` (nullptr: the silent default) for the whole process; the
/// caller keeps it alive until it installs another. Benchmarks run on one thread.
void set_progress(Progress* reporter);

}  // namespace ferry::bench
