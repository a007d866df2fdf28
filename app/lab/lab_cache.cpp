#include "lab_cache.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

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
    if (pid > 0 && kill(pid, 0) != 0 && errno == ESRCH) std::filesystem::remove_all(e.path(), ec);
  }
}
}  // namespace

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

std::string readFileBytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Status writeFileBytes(const std::filesystem::path& file, std::string_view bytes) {
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  std::ofstream out(file, std::ios::binary);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  out.close();
  if (!out) return failure("cannot write " + file.string());
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
  std::error_code ec;
  if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
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
  return Ok{};
}

std::string loadFromCache(const std::filesystem::path& entry) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(entry, ec)) return {};
  std::string bytes = readFileBytes(entry);
  if (!bytes.empty() && readFileBytes(entry.string() + ".sum") == hex(fnv1a(bytes))) return bytes;
  std::filesystem::remove(entry, ec);  // altered or half-written: compiled again
  std::filesystem::remove(entry.string() + ".sum", ec);
  return {};
}

}  // namespace tilescope::lab
