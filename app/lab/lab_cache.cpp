#include "lab_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <random>
#include <vector>

namespace tilescope::lab {

namespace {
std::string uniqueSuffix() {
  static std::atomic<unsigned> counter{0};
  std::random_device rd;
  return std::to_string(getpid()) + "-" + std::to_string(counter++) + "-" + hex(rd()).substr(8);
}

// The directory is ours and nobody else's: a cache another user could write would let them
// choose the code a lab run loads.
Status checkOwnership(const std::filesystem::path& dir) {
  struct stat st{};
  if (lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return unavailable("the lab's cache " + dir.string() + " is not a directory");
  if (st.st_uid != geteuid())
    return unavailable("the lab's cache " + dir.string() + " belongs to another user (uid " + std::to_string(st.st_uid) +
                       "): the lab will not load code from it; choose another with TILESCOPE_LAB_CACHE");
  if ((st.st_mode & 077) != 0 && chmod(dir.c_str(), 0700) != 0)
    return unavailable("the lab's cache " + dir.string() + " is open to other users and cannot be made owner-only");
  return Ok{};
}

// run-PID-... directories whose process is gone (a lab killed with SIGKILL).
void removeStaleScratch(const std::filesystem::path& cache) {
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(cache, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("run-", 0) != 0 || !e.is_directory(ec)) continue;
    const int pid = std::atoi(name.c_str() + 4);
    if (pid > 0 && kill(pid, 0) != 0 && errno == ESRCH) (void)removeTree(e.path());
  }
}

// Unlinks every entry of directory `fd` that is not a directory (a symbolic link is removed,
// never followed) and returns the name of one subdirectory, made 0700 so that it can be
// entered, or "" when none is left. False when an entry could not be removed.
bool clearFiles(int fd, std::string& subdirectory) {
  subdirectory.clear();
  const int copy = dup(fd);
  DIR* dir = copy >= 0 ? fdopendir(copy) : nullptr;
  if (!dir) {
    if (copy >= 0) close(copy);
    return false;
  }
  bool ok = true;
  for (dirent* e; ok && (e = readdir(dir));) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    struct stat st{};
    if (fstatat(fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      if (subdirectory.empty()) ok = fchmodat(fd, name.c_str(), 0700, 0) == 0, subdirectory = name;
    } else {
      ok = unlinkat(fd, name.c_str(), 0) == 0;
    }
  }
  closedir(dir);
  return ok;
}
}  // namespace

bool removeTree(const std::filesystem::path& root) {
  struct stat st{};
  if (lstat(root.c_str(), &st) != 0) return errno == ENOENT;
  if (!S_ISDIR(st.st_mode)) return unlink(root.c_str()) == 0;
  chmod(root.c_str(), 0700);  // a child may have taken every permission away (chmod 0)
  int fd = open(root.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return false;
  // Depth first, one open directory at a time (a tree deeper than the open-file limit is
  // no obstacle): the names lead from the root down to the directory open now.
  std::vector<std::string> names;
  std::string sub;
  bool ok = true;
  while (ok) {
    ok = clearFiles(fd, sub);
    if (ok && !sub.empty()) {
      const int child = openat(fd, sub.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      ok = child >= 0;
      if (ok) {
        close(fd);
        fd = child;
        names.push_back(sub);
      }
      continue;
    }
    if (!ok || names.empty()) break;
    const int parent = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    close(fd);
    fd = parent;
    ok = fd >= 0 && unlinkat(fd, names.back().c_str(), AT_REMOVEDIR) == 0;
    names.pop_back();
  }
  if (fd >= 0) close(fd);
  return ok && rmdir(root.c_str()) == 0;
}

uint64_t fnv1a(std::string_view s, uint64_t h) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string hex(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)v);
  return buf;
}

Result<std::string> readFileLimited(const std::filesystem::path& file, uint64_t maxBytes) {
  // The name is looked at once, by this open: a file swapped for a link, or for a fifo or a
  // device, after a folder's scan is refused here (O_NOFOLLOW; O_NONBLOCK so a fifo cannot hold
  // the open), and what was opened is read only when it is a regular file.
  const int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0 && errno == ELOOP)
    return failure("cannot read " + file.string() + ": not a regular file: a symbolic link (not followed)");
  if (fd < 0) return failure("cannot read " + file.string() + ": " + std::strerror(errno));
  struct stat st{};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return failure("cannot read " + file.string() + ": not a regular file");
  }
  if (uint64_t(st.st_size) > maxBytes) {
    close(fd);
    return invalidInput(file.string() + " is " + std::to_string(st.st_size) + " bytes, over the limit of " +
                        std::to_string(maxBytes) + " bytes");
  }
  std::string bytes(std::size_t(st.st_size), '\0');
  std::size_t at = 0;
  while (at < bytes.size()) {
    const ssize_t n = read(fd, bytes.data() + at, bytes.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    at += std::size_t(n);
  }
  close(fd);
  bytes.resize(at);  // a file that shrank while it was read: what was there
  return bytes;
}

std::string readFileBytes(const std::filesystem::path& file) {
  auto bytes = readFileLimited(file, uint64_t(1) << 40);
  return bytes ? std::move(*bytes) : std::string();
}

Status writeFileBytes(const std::filesystem::path& file, std::string_view bytes) {
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  const int fd = open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return failure("cannot write " + file.string() + ": " + std::strerror(errno));
  std::size_t at = 0;
  while (at < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + at, bytes.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    at += std::size_t(n);
  }
  const bool ok = close(fd) == 0 && at == bytes.size();
  if (!ok) return failure("cannot write " + file.string());
  return Ok{};
}

Result<std::filesystem::path> labCacheDirectory(const std::string& requested) {
  std::filesystem::path dir;
  if (!requested.empty()) dir = requested;
  else if (const char* c = std::getenv("TILESCOPE_LAB_CACHE"); c && *c) dir = c;
  else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) dir = std::filesystem::path(x) / "tilescope" / "lab";
  else if (const char* h = std::getenv("HOME"); h && *h) dir = std::filesystem::path(h) / ".cache" / "tilescope" / "lab";
  else dir = std::filesystem::temp_directory_path() / ("tilescope-lab-" + std::to_string(getuid()));
  std::error_code ec;
  std::filesystem::create_directories(dir.parent_path(), ec);
  if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    return unavailable("cannot create the lab's cache directory " + dir.string());
  if (auto s = checkOwnership(dir); !s) return s.error();
  removeStaleScratch(dir);
  return dir;
}

Result<Scratch> Scratch::create(const std::filesystem::path& cache, std::string_view what) {
  std::string name = (cache / ("run-" + std::to_string(getpid()) + "-" + std::string(what) + "-XXXXXX")).string();
  if (!mkdtemp(name.data())) return failure("cannot create a scratch directory in " + cache.string());
  return Scratch(std::filesystem::path(name));
}

Scratch::~Scratch() {
  if (!dir_.empty()) (void)removeTree(dir_);
}

Status storeInCache(const std::filesystem::path& entry, std::string_view bytes) {
  const std::string suffix = ".tmp-" + uniqueSuffix();
  const std::filesystem::path body = entry.string() + suffix, sum = entry.string() + ".sum" + suffix;
  std::error_code ec;
  if (auto s = writeFileBytes(body, bytes); !s) return s;
  if (auto s = writeFileBytes(sum, hex(fnv1a(bytes))); !s) {
    std::filesystem::remove(body, ec);
    return s;
  }
  // The hash first: a reader that finds the entry finds its hash.
  std::filesystem::rename(sum, entry.string() + ".sum", ec);
  if (!ec) std::filesystem::rename(body, entry, ec);
  if (ec) {
    std::filesystem::remove(body, ec);
    std::filesystem::remove(sum, ec);
    return failure("cannot store " + entry.string() + " in the lab's cache");
  }
  trimCache(entry.parent_path(), kCacheMaxBytes);
  return Ok{};
}

std::string loadFromCache(const std::filesystem::path& entry) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(entry, ec)) return {};
  std::string bytes = readFileBytes(entry);
  if (!bytes.empty() && readFileBytes(entry.string() + ".sum") == hex(fnv1a(bytes))) {
    (void)utimensat(AT_FDCWD, entry.c_str(), nullptr, AT_SYMLINK_NOFOLLOW);  // used now: trimmed last
    return bytes;
  }
  std::filesystem::remove(entry, ec);  // altered or half-written: compiled again
  std::filesystem::remove(entry.string() + ".sum", ec);
  return {};
}

void trimCache(const std::filesystem::path& cache, uint64_t maxBytes, std::chrono::seconds spare) {
  namespace fs = std::filesystem;
  struct Entry {
    fs::path path;
    uint64_t bytes = 0;
    fs::file_time_type used;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(cache, ec)) {
    const std::string name = e.path().filename().string();
    const bool sum = name.size() > 4 && name.compare(name.size() - 4, 4, ".sum") == 0;
    if (!e.is_regular_file(ec) || e.is_symlink(ec) || sum || name.find(".tmp-") != std::string::npos) continue;
    Entry x{e.path(), e.file_size(ec), e.last_write_time(ec)};
    if (ec) continue;  // removed meanwhile by a parallel run
    x.bytes += fs::file_size(x.path.string() + ".sum", ec);
    if (ec) ec.clear();
    total += x.bytes;
    entries.push_back(std::move(x));
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
  const auto now = fs::file_time_type::clock::now();
  for (const Entry& x : entries) {
    if (total <= maxBytes || now - x.used < spare) break;  // the rest are newer
    fs::remove(x.path, ec);
    fs::remove(x.path.string() + ".sum", ec);
    total -= x.bytes;
  }
}

}  // namespace tilescope::lab
