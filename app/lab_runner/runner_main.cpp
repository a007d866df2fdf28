// tilescope-lab-runner [--sandbox KIND ... --] --cuda|--cuda-time UNIT CUBIN_STEM REQUEST RESPONSE STOP_FILE
// PROGRAM_NAME [NVRTC_OPTION...]: compiles UNIT with NVRTC and checks and times the student's
// kernel on the GPU (runner_cuda.cpp). The lab's only native code: on the emulator a student's
// kernel is run by the lab's own interpreter, in the lab's process, and never reaches a runner.
//
// Every descriptor above 2 it inherited is closed first; with or without the sandbox it dies
// with the lab that started it. With --sandbox (app/lab/lab_sandbox.h) the runner confines
// itself after it has installed its handlers and started CUDA, before NVRTC compiles.
//
// A process of its own, so that whatever the kernel does ends here: a crash (the signal
// handler writes the signal into STOP_FILE, then dies of it), a kernel still running at the
// request's time limit (an interval timer writes "timeout", then exits). The parent reads
// RESPONSE, or STOP_FILE when there is none, and kills this process should it outlive its
// limit anyway.
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "lab/lab_ipc.h"
#include "lab/lab_sandbox.h"
#include "runner.h"

using namespace tilescope;
using namespace tilescope::lab;
using namespace tilescope::lab::runner;

namespace {

constexpr int kExitTimedOut = 124;  // also what the parent's own kill reports as a time-out
int stopFd = -1;

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

void onFatalSignal(int sig) {
  putText("signal "), putNumber(sig), putText("\n");
  signal(sig, SIG_DFL);
  raise(sig);
}

// The sandbox refused a system call (seccomp's SIGSYS): its number, for the verdict.
void onSandboxSignal(int sig, siginfo_t* info, void*) {
  putText("sandbox "), putNumber(info->si_syscall), putText("\n");
  signal(sig, SIG_DFL);
  raise(sig);
}

void onTimer(int) {
  putText("timeout\n");
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

void dieWithLab(int signal, pid_t lab) {
  prctl(PR_SET_PDEATHSIG, signal, 0, 0, 0);
  if (getppid() != lab) kill(0, SIGKILL);  // the lab died before the line above
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
  if (policy->kind == SandboxKind::GpuRunner) prepareGpu();
  if (Status s = enterSandbox(*policy); !s) return fail(s.error().message);
  sandboxed = true;
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
  closeInheritedDescriptors();
  const pid_t lab = getppid();
  bool sandboxed = false;
  if (int rc = confine(argc, argv, sandboxed); rc != 0) return rc;
  if (!sandboxed) dieWithLab(SIGKILL, lab);
  if (argc > 1 && (std::strcmp(argv[1], "--cuda") == 0 || std::strcmp(argv[1], "--cuda-time") == 0))
    return runOnGpu(argc, argv);
  return fail("usage: tilescope-lab-runner [--sandbox ... --] --cuda|--cuda-time UNIT CUBIN_STEM REQUEST RESPONSE "
              "STOP_FILE PROGRAM_NAME [NVRTC_OPTION...]");
}
