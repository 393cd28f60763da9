#include "background_load.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "util/agree.hpp"
#include "util/check.hpp"

extern char** environ;

namespace ferry::bench {

BackgroundLoad::BackgroundLoad(const Comm& comm, int processes) {
  std::optional<Error> failed;
  if (comm.rank() == 0)
    for (int k = 0; k < processes; ++k) {
      char sh[] = "sh", flag[] = "-c", loop[] = "while :; do :; done";
      char* argv[] = {sh, flag, loop, nullptr};
      pid_t pid = 0;
      const int rc = posix_spawnp(&pid, "sh", nullptr, nullptr, argv, environ);
      if (rc != 0) {
        failed = Error(Errc::Io, detail::cat("--load: cannot start a CPU-bound process (sh): ",
                                             std::strerror(rc)));
        break;
      }
      children_.push_back(pid);
    }
  try {
    detail::agree(comm, failed);
  } catch (...) {
    stop();
    throw;
  }
}

BackgroundLoad::~BackgroundLoad() { stop(); }

void BackgroundLoad::stop() {
  for (pid_t pid : children_) kill(pid, SIGKILL);
  for (pid_t pid : children_)
    while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
  children_.clear();
}

int online_cores() {
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  return cores > 0 ? static_cast<int>(cores) : 1;
}

double load_average() {
  double load[1];
  return getloadavg(load, 1) == 1 ? load[0] : -1;
}

}  // namespace ferry::bench
