#include "lab_sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace tilescope::lab {

namespace {

// Landlock's user-space interface (linux/landlock.h), written out because Debian 12's header
// stops at ABI 2 while the kernels this runs on have up to ABI 7. The values are the
// kernel's ABI and never change.
namespace ll {
constexpr uint64_t kExecute = 1ull << 0, kWriteFile = 1ull << 1, kReadFile = 1ull << 2, kReadDir = 1ull << 3,
                   kRemoveDir = 1ull << 4, kRemoveFile = 1ull << 5, kMakeChar = 1ull << 6, kMakeDir = 1ull << 7,
                   kMakeReg = 1ull << 8, kMakeSock = 1ull << 9, kMakeFifo = 1ull << 10, kMakeBlock = 1ull << 11,
                   kMakeSym = 1ull << 12, kRefer = 1ull << 13, kTruncate = 1ull << 14, kIoctlDev = 1ull << 15;
constexpr uint64_t kFileRights = kExecute | kWriteFile | kReadFile | kTruncate | kIoctlDev;  // all a file rule may hold
constexpr uint64_t kNetBindTcp = 1, kNetConnectTcp = 2;
constexpr uint64_t kScopeAbstractUnixSocket = 1, kScopeSignal = 2;
constexpr unsigned kCreateRulesetVersion = 1;
constexpr int kRulePathBeneath = 1;
struct RulesetAttr {
  uint64_t handledAccessFs, handledAccessNet, scoped;
};
struct PathBeneathAttr {
  uint64_t allowedAccess;
  int32_t parentFd;
} __attribute__((packed));

// The file-system rights ABI `abi` knows: every one of them is denied unless a rule allows it.
uint64_t handledFs(int abi) {
  uint64_t h = (kMakeSym << 1) - 1;  // ABI 1: execute .. make-sym
  if (abi >= 2) h |= kRefer;
  if (abi >= 3) h |= kTruncate;
  if (abi >= 5) h |= kIoctlDev;
  return h;
}
}  // namespace ll

int landlockAbi() {
  const long v = syscall(SYS_landlock_create_ruleset, nullptr, 0, ll::kCreateRulesetVersion);
  return v < 0 ? 0 : int(v);
}

Status errnoFailure(const std::string& call) { return failure("sandbox: " + call + " failed: " + std::strerror(errno)); }

Status setLimit(int resource, rlim_t value, const char* name) {
  const rlimit r{value, value};
  if (setrlimit(resource, &r) != 0) return errnoFailure(std::string("setrlimit(") + name + ")");
  return Ok{};
}

Status applyLimits(const SandboxPolicy& p) {
  const SandboxLimits& L = p.limits;
  // Address space: not for the GPU runner (the CUDA driver reserves the GPU's address range
  // in the process) and not under AddressSanitizer, whose shadow memory alone reserves
  // terabytes of address space: a limit there stops the sanitized runner before main. The
  // lab's own prediction of a launch's trace memory still refuses launches over the figure.
#if !defined(__SANITIZE_ADDRESS__)
  if (L.addressSpaceBytes && p.kind != SandboxKind::GpuRunner)
    if (auto s = setLimit(RLIMIT_AS, rlim_t(L.addressSpaceBytes), "RLIMIT_AS"); !s) return s;
#endif
  const rlim_t cpu = rlim_t(std::ceil(std::max(L.cpuSeconds, 1.0)));
  // SIGXCPU at the soft limit, SIGKILL a second later.
  const rlimit cpuLimit{cpu, cpu + 1};
  if (setrlimit(RLIMIT_CPU, &cpuLimit) != 0) return errnoFailure("setrlimit(RLIMIT_CPU)");
  if (auto s = setLimit(RLIMIT_FSIZE, rlim_t(L.fileSizeBytes), "RLIMIT_FSIZE"); !s) return s;
  if (auto s = setLimit(RLIMIT_NOFILE, rlim_t(L.openFiles), "RLIMIT_NOFILE"); !s) return s;
  return setLimit(RLIMIT_CORE, 0, "RLIMIT_CORE");
}

// Run as root (CI does), the child would keep root's capabilities: drop the bounding set (so
// an exec, the compiler's, cannot regain them) and every capability it holds now.
Status dropCapabilities() {
  if (geteuid() != 0) return Ok{};
  for (int cap = 0; cap <= 63; ++cap)
    if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL && errno != EPERM)
      return errnoFailure("prctl(PR_CAPBSET_DROP)");
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2] = {};
  if (syscall(SYS_capset, &header, data) != 0) return errnoFailure("capset");
  prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  return Ok{};
}

Status addPathRule(int ruleset, const std::string& path, uint64_t rights, uint64_t handled) {
  const int fd = open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) return Ok{};  // a path this machine lacks (/lib64, a CUDA directory): nothing to allow
  struct stat st{};
  fstat(fd, &st);
  ll::PathBeneathAttr rule{rights & handled & (S_ISDIR(st.st_mode) ? ~0ull : ll::kFileRights), fd};
  const long rc = syscall(SYS_landlock_add_rule, ruleset, ll::kRulePathBeneath, &rule, 0);
  const int saved = errno;
  close(fd);
  errno = saved;
  if (rc != 0) return errnoFailure("landlock_add_rule(" + path + ")");
  return Ok{};
}

Status applyLandlock(const SandboxPolicy& p, int abi) {
  ll::RulesetAttr attr{ll::handledFs(abi), abi >= 4 ? ll::kNetBindTcp | ll::kNetConnectTcp : 0,
                       abi >= 6 ? ll::kScopeAbstractUnixSocket | ll::kScopeSignal : 0};
  // The attribute grew with the ABI: older kernels refuse a size they do not know.
  const std::size_t size = abi >= 6 ? sizeof attr : abi >= 4 ? 2 * sizeof(uint64_t) : sizeof(uint64_t);
  const int ruleset = int(syscall(SYS_landlock_create_ruleset, &attr, size, 0));
  if (ruleset < 0) return errnoFailure("landlock_create_ruleset");
  const uint64_t handled = attr.handledAccessFs;
  const uint64_t read = ll::kReadFile | ll::kReadDir | (p.kind == SandboxKind::Compiler ? ll::kExecute : 0);
  // The emulator's runner writes files into its scratch directory and makes no directories:
  // without them what it leaves is flat, and the lab can measure it while it runs.
  const uint64_t write = ll::kReadFile | ll::kReadDir | ll::kWriteFile | ll::kRemoveDir | ll::kRemoveFile |
                         (p.kind == SandboxKind::Runner ? 0 : ll::kMakeDir) | ll::kMakeReg | ll::kRefer |
                         ll::kTruncate;
  const uint64_t device = ll::kReadFile | ll::kWriteFile | ll::kIoctlDev;
  Status s = Ok{};
  for (const std::string& path : p.readPaths)
    if (s) s = addPathRule(ruleset, path, read, handled);
  for (const std::string& path : p.writePaths)
    if (s) s = addPathRule(ruleset, path, write, handled);
  for (const std::string& path : p.devicePaths)
    if (s) s = addPathRule(ruleset, path, device, handled);
  if (s && syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) s = errnoFailure("landlock_restrict_self");
  close(ruleset);
  return s;
}

// Calls no lab child needs, and that would let one act outside its sandbox.
constexpr const char* kDeniedEverywhere[] = {
    "socket", "socketpair", "ptrace", "process_vm_readv", "process_vm_writev", "pidfd_open", "pidfd_getfd",
    "pidfd_send_signal", "setsid", "setpgid", "mount", "umount2", "move_mount", "fsopen", "fsmount", "open_tree",
    "unshare", "setns", "chroot", "pivot_root", "keyctl", "add_key", "request_key", "bpf", "perf_event_open",
    "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register", "open_by_handle_at",
    "name_to_handle_at", "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load", "reboot",
    "swapon", "swapoff", "acct", "quotactl", "personality", "uselib", "syslog", "iopl", "ioperm"};
// Calls the compiler needs (it starts cc1plus, as and ld) and the runners do not.
constexpr const char* kDeniedToRunners[] = {"execve", "execveat", "fork", "vfork", "tkill"};

Status addRule(scmp_filter_ctx ctx, uint32_t action, const char* name, unsigned count = 0,
               scmp_arg_cmp cmp = {}) {
  const int nr = seccomp_syscall_resolve_name(name);
  if (nr == __NR_SCMP_ERROR) return Ok{};  // not a call of this architecture
  const int rc = count ? seccomp_rule_add(ctx, action, nr, 1, cmp) : seccomp_rule_add(ctx, action, nr, 0);
  if (rc != 0) return failure(std::string("sandbox: seccomp_rule_add(") + name + ") failed: " + std::strerror(-rc));
  return Ok{};
}

Status addSeccompRules(scmp_filter_ctx ctx, const SandboxPolicy& p) {
  // The emulator's runner dies at the call with SIGSYS, and its handler names the call in
  // the verdict; the compiler and the GPU's driver get an error they can report instead.
  const uint32_t deny = p.kind == SandboxKind::Runner ? SCMP_ACT_TRAP : SCMP_ACT_ERRNO(EPERM);
  Status s = Ok{};
  for (const char* name : kDeniedEverywhere)
    if (s) s = addRule(ctx, deny, name);
  if (!s) return s;
  // The parent's death must end the child: PR_SET_PDEATHSIG stays as set here.
  if (auto r = addRule(ctx, deny, "prctl", 1, SCMP_A0(SCMP_CMP_EQ, PR_SET_PDEATHSIG)); !r) return r;
  // Its own limits only (glibc's setrlimit and getrlimit pass pid 0): prlimit on the grader
  // could lower the file-size limit it writes the class's grades under.
  if (auto r = addRule(ctx, deny, "prlimit64", 1, SCMP_A0(SCMP_CMP_NE, 0)); !r) return r;
  if (p.kind == SandboxKind::Compiler) {
    // kill(-1, ...) reaches every process of the user; the compiler never sends it.
    return addRule(ctx, deny, "kill", 1, SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, 0xffffffffu));
  }
  for (const char* name : kDeniedToRunners)
    if (s) s = addRule(ctx, deny, name);
  // Threads (CLONE_THREAD) only: the CUDA driver starts some; glibc's clone3 carries its flags
  // in memory a filter cannot read, so it reports "not implemented" and glibc falls back to
  // clone, whose flags are checked.
  if (s) s = addRule(ctx, SCMP_ACT_ERRNO(ENOSYS), "clone3");
  if (s) s = addRule(ctx, deny, "clone", 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
  // Signals to itself only (raise, a crash handler that re-raises).
  const scmp_datum_t self = scmp_datum_t(getpid());
  for (const char* name : {"kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo"})
    if (s) s = addRule(ctx, deny, name, 1, SCMP_A0(SCMP_CMP_NE, self));
  return s;
}

Status applySeccomp(const SandboxPolicy& p) {
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) return failure("sandbox: seccomp_init failed");
  Status s = addSeccompRules(ctx, p);
  if (s) {
    const int rc = seccomp_load(ctx);
    if (rc != 0) s = failure(std::string("sandbox: seccomp_load failed: ") + std::strerror(-rc));
  }
  seccomp_release(ctx);
  return s;
}

}  // namespace

const SandboxSupport& sandboxSupport() {
  static const SandboxSupport support = [] {
    SandboxSupport s;
    s.landlockAbi = landlockAbi();
    // A kernel with seccomp filters answers PR_GET_SECCOMP (0 here: none applied yet).
    s.seccomp = prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 && seccomp_api_get() >= 1;
    if (!s.landlockAbi) s.missing = "Landlock (this kernel has none, or it is not in its lsm= list)";
    if (!s.seccomp) s.missing += std::string(s.missing.empty() ? "" : " and ") + "seccomp filters";
    return s;
  }();
  return support;
}

Status enterSandbox(const SandboxPolicy& p) {
  // The compiler's supervisor catches its signal and kills its process group (the compiler's
  // own children, which the signal would not reach); a runner simply dies.
  const int deathSignal = p.kind == SandboxKind::Compiler ? SIGTERM : SIGKILL;
  if (prctl(PR_SET_PDEATHSIG, deathSignal, 0, 0, 0) != 0) return errnoFailure("prctl(PR_SET_PDEATHSIG)");
  // The parent may have died before the line above: then nobody would kill this process.
  if (p.parentPid && getppid() != p.parentPid) return failure("sandbox: the lab that started this process is gone");
  const SandboxSupport& support = sandboxSupport();
  if (!support.complete()) return failure("sandbox: this kernel lacks " + support.missing);
  if (auto s = applyLimits(p); !s) return s;
  if (auto s = dropCapabilities(); !s) return s;
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return errnoFailure("prctl(PR_SET_NO_NEW_PRIVS)");
  // The GPU runner comes here with the CUDA driver already initialised (prepareGpu in the
  // runner): the driver's start-up opens an AF_UNIX socket, which seccomp refuses, and fails
  // with "OS call failed" when it cannot (measured on the H100, 2026-11-24, under strace).
  if (auto s = applyLandlock(p, support.landlockAbi); !s) return s;
  return applySeccomp(p);
}

std::string syscallName(int number) {
  char* name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, number);
  if (!name) return "system call " + std::to_string(number);
  std::string s = name;
  std::free(name);
  return s;
}

namespace {
const char* kindName(SandboxKind k) {
  return k == SandboxKind::Runner ? "runner" : k == SandboxKind::GpuRunner ? "gpu" : "compiler";
}
std::string mebibytes(uint64_t bytes) {
  return bytes >= (1ull << 30) && bytes % (1ull << 30) == 0 ? std::to_string(bytes >> 30) + " GiB"
                                                            : std::to_string(bytes >> 20) + " MiB";
}
}  // namespace

std::vector<std::string> sandboxArguments(const SandboxPolicy& p) {
  std::vector<std::string> a = {"--sandbox", kindName(p.kind)};
  for (const std::string& path : p.readPaths) a.insert(a.end(), {"--read", path});
  for (const std::string& path : p.writePaths) a.insert(a.end(), {"--write", path});
  for (const std::string& path : p.devicePaths) a.insert(a.end(), {"--device", path});
  char cpu[32];
  std::snprintf(cpu, sizeof cpu, "%.3f", p.limits.cpuSeconds);
  a.insert(a.end(), {"--address-space", std::to_string(p.limits.addressSpaceBytes), "--cpu", cpu, "--file-size",
                     std::to_string(p.limits.fileSizeBytes), "--open-files", std::to_string(p.limits.openFiles),
                     "--parent", std::to_string(p.parentPid), "--"});
  return a;
}

Result<SandboxPolicy> parseSandboxArguments(int argc, char** argv, int* index) {
  SandboxPolicy p;
  int i = *index;
  if (i + 1 >= argc || std::strcmp(argv[i], "--sandbox") != 0) return invalidInput("expected --sandbox KIND");
  const std::string kind = argv[i + 1];
  if (kind == "runner") p.kind = SandboxKind::Runner;
  else if (kind == "gpu") p.kind = SandboxKind::GpuRunner;
  else if (kind == "compiler") p.kind = SandboxKind::Compiler;
  else return invalidInput("--sandbox: unknown kind '" + kind + "'");
  for (i += 2; i < argc && std::strcmp(argv[i], "--") != 0; i += 2) {
    if (i + 1 >= argc) return invalidInput(std::string(argv[i]) + " needs a value");
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--read") p.readPaths.push_back(value);
    else if (flag == "--write") p.writePaths.push_back(value);
    else if (flag == "--device") p.devicePaths.push_back(value);
    else if (flag == "--address-space") p.limits.addressSpaceBytes = std::strtoull(value.c_str(), nullptr, 10);
    else if (flag == "--cpu") p.limits.cpuSeconds = std::strtod(value.c_str(), nullptr);
    else if (flag == "--file-size") p.limits.fileSizeBytes = std::strtoull(value.c_str(), nullptr, 10);
    else if (flag == "--open-files") p.limits.openFiles = std::atoi(value.c_str());
    else if (flag == "--parent") p.parentPid = std::atoi(value.c_str());
    else return invalidInput("unknown sandbox flag '" + flag + "'");
  }
  if (i >= argc) return invalidInput("the sandbox flags end with --");
  *index = i + 1;
  return p;
}

std::vector<std::string> childEnvironment(const std::string& scratch) {
  std::vector<std::string> env = {"PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C", "TMPDIR=" + scratch,
                                  "HOME=" + scratch};
  // Not private, and each changes how a child behaves in a way its caller asked for;
  // LD_LIBRARY_PATH is where a container's NVIDIA driver library is found (the GPU runner's
  // policy lets it read those directories, nothing more).
  for (const char* name : {"ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH"})
    if (const char* v = std::getenv(name)) env.push_back(std::string(name) + "=" + v);
  return env;
}

std::string describeSandbox(bool enabled, SandboxKind kind, const SandboxLimits& L) {
  if (!enabled) {
    const SandboxSupport& s = sandboxSupport();
    return std::string("NOT sandboxed (--no-sandbox): the kernel ran with your files, network and processes") +
           (s.complete() ? "" : "; this kernel lacks " + s.missing);
  }
  const int abi = sandboxSupport().landlockAbi;
  std::string memory;
#if defined(__SANITIZE_ADDRESS__)
  memory = "no address-space limit under AddressSanitizer, ";
#else
  if (L.addressSpaceBytes && kind != SandboxKind::GpuRunner) memory = mebibytes(L.addressSpaceBytes) + " memory, ";
#endif
  char cpu[32];
  std::snprintf(cpu, sizeof cpu, "%g s CPU", std::ceil(L.cpuSeconds));
  const std::string where = kind == SandboxKind::GpuRunner ? "sandboxed on the GPU (the CUDA driver started first): "
                                                            : "sandboxed: ";
  return where + "Landlock ABI " + std::to_string(abi) + " (own scratch directory only" +
         (abi >= 4 ? ", no network" : ", TCP not covered below ABI 4") +
         "), seccomp (no processes, exec, sockets or ptrace), limits (" + memory + cpu + ", " +
         mebibytes(L.fileSizeBytes) + " files, " + std::to_string(L.openFiles) +
         " open, no core), no new privileges, own process group";
}

}  // namespace tilescope::lab
