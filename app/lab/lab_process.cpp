#include "lab_process.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <thread>

#include "lab_cache.h"

namespace tilescope::lab {

namespace {
std::string readHead(const std::filesystem::path& file, std::size_t limit) {
  const int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return {};
  std::string s(limit, '\0');
  std::size_t at = 0;
  for (ssize_t n; at < limit && ((n = read(fd, s.data() + at, limit - at)) > 0 || (n < 0 && errno == EINTR));)
    if (n > 0) at += std::size_t(n);
  close(fd);
  s.resize(at);
  return s;
}

// Bytes the files directly in `dir` take on disk; past `entries` files the answer is "too
// many" (UINT64_MAX): a child that makes files by the million is over any limit.
uint64_t diskUse(const std::filesystem::path& dir, std::size_t entries = 4096) {
  const int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR* d = fd >= 0 ? fdopendir(fd) : nullptr;
  if (!d) {
    if (fd >= 0) close(fd);
    return 0;
  }
  uint64_t bytes = 0;
  std::size_t seen = 0;
  for (dirent* e; (e = readdir(d));) {
    if (++seen > entries) {
      bytes = UINT64_MAX;
      break;
    }
    struct stat st{};
    if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0) bytes += uint64_t(st.st_blocks) * 512;
  }
  closedir(d);
  return bytes;
}

// The CPU seconds a child and its descendants have used: each live process's own, and its
// reaped children's (cutime, cstime), walked through /proc/PID/task/PID/children. The limit a
// child gets is CPU time, so that a grader running 64 files on 2 cores (each child getting a
// thirty-second of a core) stops no trivial compile, while an endless loop still stops at it.
double treeCpuSeconds(pid_t root) {
  static const double ticks = double(sysconf(_SC_CLK_TCK));
  double seconds = 0.0;
  std::vector<pid_t> pending{root};
  for (std::size_t seen = 0; !pending.empty() && seen < 4096; ++seen) {
    const pid_t pid = pending.back();
    pending.pop_back();
    const std::string stat = readHead("/proc/" + std::to_string(pid) + "/stat", 1024);
    const std::size_t close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream fields(stat.substr(close + 2));  // from field 3, the state
    std::string field;
    unsigned long long times[4] = {};
    for (int k = 3; k <= 17 && fields >> field; ++k)
      if (k >= 14) times[k - 14] = std::strtoull(field.c_str(), nullptr, 10);
    seconds += double(times[0] + times[1] + times[2] + times[3]) / ticks;
    std::istringstream children(readHead("/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children", 65536));
    for (long child; children >> child;) pending.push_back(pid_t(child));
  }
  return seconds;
}

// Children running now, in this process (lab grade -j N runs N at a time).
std::atomic<int>& runningChildren() {
  static std::atomic<int> running{0};
  return running;
}

// The wall-clock backstop of a CPU limit, for a child that uses no CPU (one that sleeps or
// waits): four times the limit, or twice its share of the machine when more children than
// cores run at once.
double wallBackstop(double cpuSeconds) {
  const double cores = std::max(1u, std::thread::hardware_concurrency());
  return cpuSeconds * std::max(4.0, 2.0 * double(runningChildren().load()) / cores);
}

// Every descriptor above 2 closed in the child before it runs anything: a grading thread's
// open files (another student's source, a cache entry being written) never reach it, whether
// or not whoever opened them asked for close-on-exec. The runner closes them again itself.
void closeInheritedFiles(posix_spawn_file_actions_t* actions) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  posix_spawn_file_actions_addclosefrom_np(actions, 3);
#else
  (void)actions;  // an older C library: the runner's own closeInheritedDescriptors does it
#endif
}
}  // namespace

std::atomic<bool>& labInterrupted() {
  static std::atomic<bool> interrupted{false};
  static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");
  return interrupted;
}

Result<ChildResult> runChild(const std::vector<std::string>& argv, const std::vector<std::string>& environment,
                             double timeoutSeconds, const std::atomic<bool>* cancel,
                             const std::filesystem::path& outputFile, const ScratchLimit& scratch) {
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
  closeInheritedFiles(&actions);
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
  auto lastLook = start;
  double cpuSeconds = 0.0;
  ++runningChildren();
  struct Done {
    ~Done() { --runningChildren(); }
  } done;
  for (;;) {
    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) return failure(std::string("waitpid failed: ") + std::strerror(errno));
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const bool cancelled = (cancel && cancel->load()) || labInterrupted().load();
    // The scratch directory's size, looked at ten times a second: a child that fills the disk
    // is stopped at the limit (each of its files is capped by RLIMIT_FSIZE too).
    const auto now = std::chrono::steady_clock::now();
    if (now - lastLook > std::chrono::milliseconds(100)) {
      lastLook = now;
      if (!scratch.dir.empty()) r.diskExceeded = diskUse(scratch.dir) > scratch.maxBytes;
      cpuSeconds = treeCpuSeconds(pid);
    }
    if (cpuSeconds > timeoutSeconds || elapsed > wallBackstop(timeoutSeconds) || cancelled || r.diskExceeded) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      r.timedOut = !cancelled && !r.diskExceeded;
      r.cancelled = cancelled;
      break;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(10000));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!r.timedOut && !r.cancelled && !r.diskExceeded) {
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
