// tilescope-lab-runner [--sandbox KIND ... --] SHARED_OBJECT REQUEST RESPONSE STOP_FILE: runs a student's kernel,
// compiled by the lab into SHARED_OBJECT, under the emulator (app/lab/lab.h).
// tilescope-lab-runner --cuda|--cuda-time UNIT CUBIN_STEM REQUEST RESPONSE STOP_FILE PROGRAM_NAME [NVRTC_OPTION...]:
// compiles UNIT with NVRTC and traces a run of it on the GPU, or times it (runner_cuda.cpp).
// tilescope-lab-runner [--sandbox compiler ... --] --exec PROGRAM ARG...: confines itself, then
// runs PROGRAM (the lab's compiler) as its child and ends its whole process group should the
// lab die (PR_SET_PDEATHSIG).
//
// Every descriptor above 2 it inherited is closed first; with or without the sandbox it dies
// with the lab that started it.
//
// With --sandbox (app/lab/lab_sandbox.h) the runner confines itself after it has
// installed its handlers and before it loads the student's code or starts CUDA.
//
// A process of its own, so that whatever the kernel does ends here: a crash (the signal
// handler writes the signal and the emulated thread it hit into STOP_FILE, then dies of
// the signal), an endless loop (an interval timer at the request's time limit writes
// "timeout" and where, then exits), a barrier some threads never reach (the emulator
// abandons the block and reports it). The parent reads RESPONSE, or STOP_FILE when there is
// none, and kills this process should it outlive its limit anyway.
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>
#include <limits>

#include "lab/lab_ipc.h"
#include "lab/lab_sandbox.h"
#include "kernels/emu/emulator.h"
#include "runner.h"

using namespace tilescope;
using namespace tilescope::lab;
using namespace tilescope::lab::runner;

namespace {

constexpr int kExitTimedOut = 124;  // also what the parent's own kill reports as a time-out
int stopFd = -1;
const Event* slotsForHandler = nullptr;
unsigned slotsPerThreadForHandler = 0;

// Async-signal-safe text: only write(2) and integer formatting by hand.
void putText(const char* s) {
  if (stopFd >= 0) (void)!write(stopFd, s, std::strlen(s));
}
void putNumber(long long v) {
  char buf[24];
  int i = sizeof buf;
  const bool negative = v < 0;
  unsigned long long u = negative ? 0ull - (unsigned long long)v : (unsigned long long)v;
  buf[--i] = '\0';
  do {
    buf[--i] = char('0' + u % 10);
    u /= 10;
  } while (u && i > 1);
  if (negative) buf[--i] = '-';
  putText(buf + i);
}

// Which emulated thread was running, and the line of the last access it recorded.
void putWhere() {
  const emu::ThreadContext* t = emu::currentThread;
  if (!t) return;
  putText("block "), putNumber(t->blockIdx.x), putText(" "), putNumber(t->blockIdx.y), putText("\n");
  putText("thread "), putNumber(t->threadIdx.x), putText(" "), putNumber(t->threadIdx.y), putText("\n");
  if (!slotsForHandler) return;
  const unsigned long long perBlock = (unsigned long long)t->blockDim.x * t->blockDim.y;
  const unsigned long long block = (unsigned long long)t->blockIdx.y * t->gridDim.x + t->blockIdx.x;
  const unsigned long long thread = block * perBlock + t->threadIdx.y * t->blockDim.x + t->threadIdx.x;
  const Event* first = slotsForHandler + thread * slotsPerThreadForHandler;
  for (unsigned i = slotsPerThreadForHandler; i-- > 0;)
    if (first[i].op != Op::None) {
      putText("line "), putNumber(first[i].line), putText("\n");
      return;
    }
}

void onFatalSignal(int sig) {
  putText("signal "), putNumber(sig), putText("\n");
  putWhere();
  signal(sig, SIG_DFL);
  raise(sig);
}

// The sandbox refused a system call (seccomp's SIGSYS): its number, for the verdict.
void onSandboxSignal(int sig, siginfo_t* info, void*) {
  putText("sandbox "), putNumber(info->si_syscall), putText("\n");
  putWhere();
  signal(sig, SIG_DFL);
  raise(sig);
}

void onTimer(int) {
  putText("timeout\n");
  putWhere();
  _exit(kExitTimedOut);
}

}  // namespace

namespace tilescope::lab::runner {

void openStopFile(const char* path) {
  if (stopFd < 0) stopFd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
}

void armTimeLimit(double timeoutSeconds) {
  // The handlers run on a stack of their own: a kernel that overflowed its fiber's stack
  // has none left.
  static char altStack[64 * 1024];
  stack_t ss{};
  ss.ss_sp = altStack;
  ss.ss_size = sizeof altStack;
  sigaltstack(&ss, nullptr);
  struct sigaction sa{};
  sa.sa_handler = onFatalSignal;
  sa.sa_flags = SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
  sa.sa_handler = onTimer;
  sigaction(SIGALRM, &sa, nullptr);
  struct sigaction sys{};
  sys.sa_sigaction = onSandboxSignal;
  sys.sa_flags = SA_ONSTACK | SA_SIGINFO;
  sigemptyset(&sys.sa_mask);
  sigaction(SIGSYS, &sys, nullptr);
  // Past its file-size limit a write fails (EFBIG) instead of killing the runner.
  signal(SIGXFSZ, SIG_IGN);
  itimerval timer{};
  timer.it_value.tv_sec = time_t(timeoutSeconds);
  timer.it_value.tv_usec = suseconds_t((timeoutSeconds - double(timer.it_value.tv_sec)) * 1e6);
  if (timer.it_value.tv_sec == 0 && timer.it_value.tv_usec == 0) timer.it_value.tv_usec = 1000;
  setitimer(ITIMER_REAL, &timer, nullptr);
}

void disarmTimeLimit() {
  itimerval off{};
  setitimer(ITIMER_REAL, &off, nullptr);
}

int fail(const std::string& message) {
  std::fprintf(stderr, "tilescope-lab-runner: %s\n", message.c_str());
  return 2;
}

#if !TILESCOPE_HAVE_CUDA
int runOnGpu(int, char**) { return fail("this tilescope is built without CUDA: the lab runs kernels on the emulator only"); }
void prepareGpu() {}
#endif

}  // namespace tilescope::lab::runner

#if defined(__SANITIZE_ADDRESS__)
// LeakSanitizer's check at exit stops the process with a helper it starts by clone() and
// ptrace(): both are what the sandbox forbids. The sanitized build's runner leaves leak
// checks to the tests of the lab's own code.
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }
#endif

namespace {
// Whatever descriptors the lab's process had open when it started this one (another student's
// source, a cache entry being written by a grading thread) are closed before anything else
// runs: the lab asks posix_spawn to close them, and this closes them again where the C
// library could not (close_range, else one by one up to the open-file limit).
void closeInheritedDescriptors() {
#if defined(SYS_close_range)
  if (syscall(SYS_close_range, 3u, ~0u, 0u) == 0) return;
#endif
  rlimit r{};
  const long last = getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur != RLIM_INFINITY ? long(r.rlim_cur) : 65536;
  for (long fd = 3; fd < last; ++fd) close(int(fd));
}

// The compiler's supervisor (--exec): the lab's death reaches this process as SIGTERM
// (PR_SET_PDEATHSIG), and the whole process group goes with it: the compiler and what it
// started (cc1plus, as), which would otherwise outlive a killed lab.
void onLabGone(int) { kill(0, SIGKILL); }

void dieWithLab(int signal, pid_t lab) {
  prctl(PR_SET_PDEATHSIG, signal, 0, 0, 0);
  if (getppid() != lab) kill(0, SIGKILL);  // the lab died before the line above
}

// Runs PROGRAM as a child and waits for it, so that a signal from the lab's death can end
// the group; exits as the program did.
int superviseExec(char** programArgv) {
  const pid_t child = fork();
  if (child < 0) return fail(std::string("cannot start ") + programArgv[0] + ": " + std::strerror(errno));
  if (child == 0) {
    signal(SIGTERM, SIG_DFL);
    execv(programArgv[0], programArgv);
    std::fprintf(stderr, "tilescope-lab-runner: cannot run %s: %s\n", programArgv[0], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  const int sig = WIFSIGNALED(status) ? WTERMSIG(status) : SIGKILL;
  signal(sig, SIG_DFL);
  raise(sig);
  return 128 + sig;
}

// `--sandbox ... --` at the front of argv: confines this process (after `prepare`, which
// opens what must be open before) and leaves argv as if the flags were not there.
int confine(int& argc, char**& argv, bool& sandboxed) {
  if (argc < 2 || std::strcmp(argv[1], "--sandbox") != 0) return 0;
  int next = 1;
  auto policy = parseSandboxArguments(argc, argv, &next);
  if (!policy) return fail(policy.error().message);
  argv[next - 1] = argv[0];
  argc -= next - 1;
  argv += next - 1;
  // The stop file and the handlers come first: the sandbox's own refusals are reported there.
  if (argc == 5 && argv[1][0] != '-') {
    openStopFile(argv[4]);
    armTimeLimit(policy->limits.cpuSeconds + 1.0);
  }
  if (policy->kind == SandboxKind::GpuRunner) prepareGpu();
  if (policy->kind == SandboxKind::Compiler) signal(SIGTERM, onLabGone);
  if (Status s = enterSandbox(*policy); !s) return fail(s.error().message);
  sandboxed = true;
  return 0;
}
// Memory that runs out under the address-space limit is the lab's limit, not a crash of the
// kernel: the parent predicts a launch's needs and refuses those over it, and this catches
// what a prediction cannot see (a kernel's own new or malloc, a library's reservation).
[[noreturn]] void outOfMemory() {
  fail("the runner ran out of memory under the lab's memory limit (the trace, or the kernel's own allocations): "
       "choose a smaller size, or raise the limit (--memory-limit MIB)");
  std::_Exit(2);
}
// Runs the kernel on the emulator into `slots`, growing each thread's room until the busiest
// thread's events fit (a kernel's run is deterministic) or the cap is reached; the response
// gets P and what the emulator reported. The room per thread it ended with.
unsigned runTraced(const RunnerRequest& q, ThreadEntry thread, EventVector& slots, RunnerResponse& response) {
  const uint64_t threads = uint64_t(q.grid.x) * q.grid.y * q.block.x * q.block.y;
  unsigned slotsPerThread = std::max(1u, q.slotsPerThread);
  for (;;) {
    slots.assign(threads * slotsPerThread, Event{});
    slotsForHandler = slots.data();
    slotsPerThreadForHandler = slotsPerThread;
    response.p.assign(std::size_t(q.j) * std::size_t(q.l), std::numeric_limits<float>::quiet_NaN());
    std::vector<float> m = q.m, n = q.n;  // a kernel may write its inputs: every attempt starts alike
    unsigned overflow = 0;
    ThreadArgs args;
    args.m = m.data();
    args.n = n.data();
    args.p = response.p.data();
    args.j = q.j, args.k = q.k, args.l = q.l;
    args.sink.slots = slots.data();
    args.sink.slotsPerThread = slotsPerThread;
    args.sink.overflow = &overflow;
    args.sink.j = q.j, args.sink.k = q.k, args.sink.l = q.l;
    for (int i = 0; i < kMaxSharedArrays; ++i) args.sink.shared[i] = q.shared[i];
    for (std::size_t i = 0; i < q.scalars.size() && i < std::size_t(kMaxScalarArgs); ++i) args.scalars[i] = q.scalars[i];
    emu::Report report;
    auto body = [&] { thread(&args); };
    emu::runGrid(q.grid, q.block, q.sharedBytes, emu::ThreadBody(body), report);
    response.error = report.error;
    response.outOfBounds = std::move(report.outOfBounds);
    response.outOfBoundsTotal = report.outOfBoundsTotal;
    response.divergences = std::move(report.divergences);
    response.traceOverflowed = overflow != 0;
    if (!overflow || threads * slotsPerThread * 2 > q.maxTraceSlots) break;
    slotsPerThread *= 2;
  }
  slotsForHandler = nullptr;
  return slotsPerThread;
}

// Only as many slots per thread as the busiest thread used travel back.
void packSlots(const EventVector& slots, uint64_t threads, unsigned slotsPerThread, RunnerResponse& response) {
  unsigned used = 0;
  for (uint64_t t = 0; t < threads; ++t) {
    const Event* s = slots.data() + t * slotsPerThread;
    unsigned u = 0;
    while (u < slotsPerThread && s[u].op != Op::None) ++u;
    used = std::max(used, u);
  }
  response.slotsPerThread = std::max(used, 1u);
  response.slots.resize(threads * response.slotsPerThread);
  for (uint64_t t = 0; t < threads; ++t)
    std::memcpy(static_cast<void*>(response.slots.data() + t * response.slotsPerThread), slots.data() + t * slotsPerThread,
                response.slotsPerThread * sizeof(Event));
}
}  // namespace

int main(int argc, char** argv) {
  closeInheritedDescriptors();
  const pid_t lab = getppid();
  std::set_new_handler(outOfMemory);
  bool sandboxed = false;
  if (int rc = confine(argc, argv, sandboxed); rc != 0) return rc;
  if (argc > 2 && std::strcmp(argv[1], "--exec") == 0) {
    if (!sandboxed) {  // --no-sandbox: only the lifetime (the sandbox set it up otherwise)
      signal(SIGTERM, onLabGone);
      dieWithLab(SIGTERM, lab);
    }
    return superviseExec(argv + 2);
  }
  if (!sandboxed) dieWithLab(SIGKILL, lab);
  if (argc > 1 && (std::strcmp(argv[1], "--cuda") == 0 || std::strcmp(argv[1], "--cuda-time") == 0))
    return runOnGpu(argc, argv);
  if (argc != 5) return fail("usage: tilescope-lab-runner SHARED_OBJECT REQUEST RESPONSE STOP_FILE");
  openStopFile(argv[4]);
  auto request = readRunnerRequest(argv[2]);
  if (!request) return fail(request.error().message);
  const RunnerRequest& q = *request;
  void* library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!library) return fail(std::string("cannot load the compiled kernel: ") + dlerror());
  auto thread = reinterpret_cast<ThreadEntry>(dlsym(library, kThreadEntryName));
  auto geometry = reinterpret_cast<GeometryEntry>(dlsym(library, kGeometryEntryName));
  if (!thread || !geometry) return fail("the compiled kernel lacks the lab's entry points");

  const uint64_t threads = uint64_t(q.grid.x) * q.grid.y * q.block.x * q.block.y;
  RunnerResponse response;
  EventVector slots;
  armTimeLimit(q.timeoutSeconds);
  const unsigned slotsPerThread = runTraced(q, thread, slots, response);
  disarmTimeLimit();
  packSlots(slots, threads, slotsPerThread, response);
  const StaticSharedGeometry* g = geometry();
  for (int i = 0; i < kMaxSharedArrays; ++i) response.geometry[i] = g[i];
  if (auto s = writeRunnerResponse(argv[3], response); !s) return fail(s.error().message);
  return 0;
}
