#include "lab_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

namespace tilescope::lab {

namespace {
std::string readHead(const std::filesystem::path& file, std::size_t limit) {
  std::ifstream in(file, std::ios::binary);
  std::string s(limit, '\0');
  in.read(s.data(), std::streamsize(limit));
  s.resize(std::size_t(in.gcount()));
  return s;
}
}  // namespace

std::atomic<bool>& labInterrupted() {
  static std::atomic<bool> interrupted{false};
  static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");
  return interrupted;
}

Result<ChildResult> runChild(const std::vector<std::string>& argv, const std::vector<std::string>& environment,
                             double timeoutSeconds, const std::atomic<bool>* cancel,
                             const std::filesystem::path& outputFile) {
  std::vector<char*> args, env;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  for (const std::string& e : environment) env.push_back(const_cast<char*>(e.c_str()));
  env.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attr);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, outputFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  // A group of its own: the compiler's own children (cc1plus, as) go with it on a kill.
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  pid_t pid = 0;
  const auto start = std::chrono::steady_clock::now();
  const int rc = posix_spawn(&pid, args[0], &actions, &attr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) return unavailable("cannot start " + argv[0] + ": " + std::strerror(rc));

  ChildResult r;
  int status = 0;
  auto pause = std::chrono::microseconds(500);
  for (;;) {
    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) return failure(std::string("waitpid failed: ") + std::strerror(errno));
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const bool cancelled = (cancel && cancel->load()) || labInterrupted().load();
    if (elapsed > timeoutSeconds || cancelled) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      r.timedOut = !cancelled;
      r.cancelled = cancelled;
      break;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(10000));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!r.timedOut && !r.cancelled) {
    if (WIFEXITED(status)) r.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  }
  // Whatever the child left running in its group (a compiler's cc1plus) goes with it.
  kill(-pid, SIGKILL);
  // A bounded buffer: the child may have written up to its file-size limit.
  r.output = readHead(outputFile, 64 * 1024);
  return r;
}

std::filesystem::path findOnPath(const std::vector<std::string>& names) {
  const char* path = std::getenv("PATH");
  if (!path) return {};
  for (const std::string& name : names) {
    std::stringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
      if (dir.empty()) continue;
      const std::filesystem::path candidate = std::filesystem::path(dir) / name;
      if (access(candidate.c_str(), X_OK) == 0) return candidate;
    }
  }
  return {};
}

}  // namespace tilescope::lab
