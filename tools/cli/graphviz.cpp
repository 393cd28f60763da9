#include "graphviz.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <vector>

#include "ferry/error.hpp"

extern char** environ;

namespace ferry::cli {

namespace {

[[noreturn]] void fail(const std::string& what) { throw Error(Errc::Io, "show: " + what); }

}  // namespace

void render_with_dot(const std::string& dot_text, const std::string& format,
                     const std::string& output) {
  int pipe_ends[2];
  if (pipe(pipe_ends) != 0) fail(std::string("cannot make a pipe to dot: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_ends[0], STDIN_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_ends[1]);
  const std::string type = "-T" + format;
  std::vector<char*> argv = {const_cast<char*>("dot"), const_cast<char*>(type.c_str()),
                             const_cast<char*>("-o"), const_cast<char*>(output.c_str()), nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "dot", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_ends[0]);
  if (spawned != 0) {
    close(pipe_ends[1]);
    fail(spawned == ENOENT
             ? "Graphviz's dot is not on PATH, so no " + format +
                   " can be drawn. Install Graphviz (Debian: apt-get install graphviz), or write "
                   "--format dot and render it elsewhere"
             : "cannot run dot: " + std::string(std::strerror(spawned)));
  }
  // dot reads all of its input before it writes the picture: a closed pipe means it died.
  const auto previous = std::signal(SIGPIPE, SIG_IGN);
  std::size_t written = 0;
  while (written < dot_text.size()) {
    const ssize_t n = write(pipe_ends[1], dot_text.data() + written, dot_text.size() - written);
    if (n <= 0 && errno != EINTR) break;
    if (n > 0) written += static_cast<std::size_t>(n);
  }
  close(pipe_ends[1]);
  std::signal(SIGPIPE, previous);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    fail("dot -T" + format + " failed writing \"" + output + "\" (exit status " +
         std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
         "); its own message is above");
}

}  // namespace ferry::cli
