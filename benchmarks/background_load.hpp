// A controlled background load: CPU-bound processes a benchmark starts and stops itself.
#pragma once

#include <sys/types.h>

#include <vector>

#include "ferry/comm.hpp"

namespace ferry::bench {

/// While it lives, rank 0 of `comm` runs `processes` CPU-bound processes (a shell
/// spinning in an empty loop, started with posix_spawn, so nothing of the MPI process
/// is inherited but its environment). They compete for the cores with the benchmark's
/// ranks as other jobs on a shared node would. Collective (agrees that every process
/// started); the destructor kills them (SIGKILL) and reaps them. Not copyable.
class BackgroundLoad {
 public:
  BackgroundLoad(const Comm& comm, int processes);
  ~BackgroundLoad();
  BackgroundLoad(const BackgroundLoad&) = delete;
  BackgroundLoad& operator=(const BackgroundLoad&) = delete;

  int processes() const noexcept { return static_cast<int>(children_.size()); }

 private:
  void stop();
  std::vector<pid_t> children_;
};

/// Cores online on this node (sysconf), at least 1: what "--load cores" starts.
int online_cores();

/// The 1-minute load average of this node, or -1 where unknown.
double load_average();

}  // namespace ferry::bench
