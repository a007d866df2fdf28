#include "lab_confine.h"

#include <glob.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <unistd.h>

#include "core/run/launch_config.h"
#include "lab_cache.h"

namespace tilescope::lab {

Status requireSandbox(const LabRequest& q) {
  if (!q.sandbox) return Ok{};
  const SandboxSupport& s = sandboxSupport();
  if (s.complete()) return Ok{};
  return unavailable("this machine's kernel lacks " + s.missing +
                     ": the lab will not run a kernel without its sandbox. --no-sandbox runs it anyway, with your "
                     "files, network and processes: only for code you trust");
}

SandboxPolicy runnerPolicy(bool gpu, const std::filesystem::path& scratch, const std::filesystem::path& include,
                           const LabRequest& q, double cpuSeconds, uint64_t fileSizeBytes) {
  SandboxPolicy p;
  p.kind = gpu ? SandboxKind::GpuRunner : SandboxKind::Runner;
  p.readPaths = {"/usr", "/lib", "/lib64", "/lib32", "/etc/ld.so.cache"};
  p.writePaths = {scratch.string(), "/dev/null"};
  if (gpu) {
    // NVRTC reads the lab's headers and its own builtins library; the driver reads its
    // configuration, the process's and the devices' entries in /proc and /sys, and talks to
    // the GPU through the device files' ioctls.
    p.readPaths.insert(p.readPaths.end(), {include.string(), "/opt", "/etc/nvidia", "/proc", "/sys", "/dev/urandom"});
    glob_t g{};
    if (glob("/dev/nvidia*", 0, nullptr, &g) == 0)
      for (std::size_t i = 0; i < g.gl_pathc; ++i) p.devicePaths.push_back(g.gl_pathv[i]);
    globfree(&g);
    for (const char* d : {"/dev/dri", "/dev/char"}) p.readPaths.push_back(d);
    // The driver library where LD_LIBRARY_PATH says it is (containers mount it outside /usr).
    if (const char* dirs = std::getenv("LD_LIBRARY_PATH"))
      for (std::string_view rest = dirs; !rest.empty();) {
        const std::size_t colon = rest.find(':');
        if (const auto dir = rest.substr(0, colon); !dir.empty()) p.readPaths.emplace_back(dir);
        rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
      }
    // The CUDA driver keeps its inter-process state in POSIX shared memory: without /dev/shm
    // it reports "OS call failed" (measured on the H100). It names the threads it starts by
    // writing /proc/self/task/TID/comm, and fails the same way when it cannot (H100, strace).
    p.writePaths.push_back("/dev/shm");
    p.writePaths.push_back("/proc/self/task");
    p.limits.openFiles = 1024;
  }
  p.limits.addressSpaceBytes = q.memoryLimitBytes;
  p.limits.cpuSeconds = cpuSeconds;
  p.limits.fileSizeBytes = fileSizeBytes;
  p.parentPid = getpid();
  return p;
}

void copyGpuModulesIn(const GpuCompileJob& job) {
  const std::string prefix = job.cacheStem.filename().string() + "-";
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(job.cacheStem.parent_path(), ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) != 0 || e.path().extension() == ".sum") continue;
    if (std::string bytes = loadFromCache(e.path()); !bytes.empty())
      (void)writeFileBytes(job.cubinStem.parent_path() / name, bytes);
  }
}

void storeGpuModulesOut(const GpuCompileJob& job) {
  const std::string prefix = job.cubinStem.filename().string() + "-";
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(job.cubinStem.parent_path(), ec)) {
    const std::string name = e.path().filename().string(), ext = e.path().extension().string();
    if (name.rfind(prefix, 0) != 0 || (ext != ".cubin" && ext != ".ptx")) continue;
    const std::filesystem::path entry = job.cacheStem.parent_path() / name;
    if (!std::filesystem::exists(entry, ec)) (void)storeInCache(entry, readFileBytes(e.path()));
  }
}

std::string sandboxStopSummary(int syscall) {
  const std::string name = syscallName(syscall);
  std::string what = "a call the lab's kernels may not make";
  if (name == "socket" || name == "socketpair" || name == "connect") what = "a network connection";
  else if (name == "clone" || name == "fork" || name == "vfork") what = "starting a process";
  else if (name == "execve" || name == "execveat") what = "running a program";
  else if (name == "ptrace" || name == "process_vm_readv" || name == "process_vm_writev") what = "reaching into another process";
  else if (name == "kill" || name == "tgkill" || name == "tkill") what = "a signal to another process";
  return "crashed: the sandbox stopped the kernel at the system call " + name + " (" + what +
         "): a kernel computes with its arguments and nothing else";
}

}  // namespace tilescope::lab
