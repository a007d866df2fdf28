// The sandbox's run-time layer against hostile compiled code. The source check and the import
// check now stop every hostile file of tests/fixtures/lab/hostile before it runs, so these
// kernels are compiled with the checks turned off (lab_testing.h: the same compiler, flags and
// headers, the same sandboxed runner) and handed to tilescope-lab-runner directly.
//
// Each kernel has thread (0,0) of block (0,0) try one thing; only if it succeeded does that
// thread compute the whole of P (and print ESCAPED), so a run that passes is an escape. Every
// run must end as its own verdict (not verified) with a reason in plain words, the test
// process (the runner's parent, as the grader is) must be untouched, and nothing may be left
// on disk: no file outside the scratch directory, no scratch directory, no process.
#include <gtest/gtest.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "lab/lab.h"
#include "lab/lab_sandbox.h"
#include "lab/lab_testing.h"

namespace tilescope {
namespace {

namespace fs = std::filesystem;
using lab::LabVerdict;

// The hostile kernel around one attempt (@DECLS@ at file scope, @ATTACK@ the body of escaped()).
constexpr const char* kTemplate = R"(#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
@DECLS@
__device__ bool escaped() {
@ATTACK@
}
__global__ void matMul(float* M, float* N, float* P, int Width) {
  if (threadIdx.x != 0 || threadIdx.y != 0 || blockIdx.x != 0 || blockIdx.y != 0) return;
  if (!escaped()) return;  // contained: P stays unwritten
  printf("ESCAPED\n");
  for (int r = 0; r < Width; ++r)
    for (int c = 0; c < Width; ++c) {
      float v = 0;
      for (int k = 0; k < Width; ++k) v += M[r * Width + k] * N[k * Width + c];
      P[r * Width + c] = v;
    }
}
)";

struct Attempt {
  const char* name;
  const char* decls;
  const char* attack;
  // The verdicts a contained attempt may end with (the sandbox's layers differ in how they
  // stop it: Landlock refuses a call, seccomp kills at it, a limit stops the process).
  std::vector<LabVerdict> verdicts;
};

const std::vector<Attempt> kAttempts = {
    {"read_outside", "",
     "  int fd = open(\"@ROOT@/secret.txt\", O_RDONLY);\n  if (fd < 0) return false;\n"
     "  char b[64] = {0};\n  if (read(fd, b, 63) <= 0) return false;\n  printf(\"%s\\n\", b);\n  return true;",
     {LabVerdict::WrongResult, LabVerdict::Crashed}},
    {"write_home", "",
     "  FILE* f = fopen(\"@ROOT@/home/written.txt\", \"w\");\n  if (!f) return false;\n"
     "  fputs(\"written\", f);\n  fclose(f);\n  return true;",
     {LabVerdict::WrongResult, LabVerdict::Crashed}},
    {"socket_connect", "#include <sys/socket.h>\n#include <netinet/in.h>",
     "  int s = socket(AF_INET, SOCK_STREAM, 0);\n  if (s < 0) return false;\n  sockaddr_in a;\n"
     "  memset(&a, 0, sizeof a);\n  a.sin_family = AF_INET;\n"
     "  a.sin_port = (unsigned short)(((@PORT@ & 0xff) << 8) | (@PORT@ >> 8));\n"
     "  a.sin_addr.s_addr = 0x0100007f;\n  return connect(s, (sockaddr*)&a, sizeof a) == 0;",
     {LabVerdict::Crashed}},
    {"fork_exec", "",
     "  int pid = fork();\n  if (pid < 0) return false;\n"
     "  if (pid == 0) {\n    execl(\"/bin/sleep\", \"sleep\", \"@SLEEP@\", (char*)0);\n    _exit(0);\n  }\n  return true;",
     {LabVerdict::Crashed}},
    {"kill_parent", "", "  return kill(getppid(), SIGKILL) == 0;", {LabVerdict::Crashed}},
    // The grader's file-size limit lowered to nothing, so that it dies writing the class's CSV.
    {"lower_parents_file_size_limit", "#include <sys/resource.h>",
     "  rlimit l;\n  l.rlim_cur = 0;\n  l.rlim_max = 0;\n  return prlimit(getppid(), RLIMIT_FSIZE, &l, 0) == 0;",
     {LabVerdict::Crashed}},
    {"raise_segv", "", "  raise(SIGSEGV);\n  return true;", {LabVerdict::Crashed}},
    // Every catchable signal ignored (the runner's own timer among them), a hangup sent to
    // its process group, then a spin: only the lab's kill ends it.
    {"ignore_signals_and_spin", "",
     "  for (int s = 1; s < 32; ++s) signal(s, SIG_IGN);\n  kill(0, SIGHUP);\n"
     "  for (volatile int i = 0;; ++i) {\n  }\n  return false;",
     {LabVerdict::TimedOut, LabVerdict::Crashed}},
    // Allocated until the address-space limit refuses (a byte touched per MiB, so that a
    // limit that were not there would show as memory in use): on a slow machine the time
    // limit may come first.
    {"exhaust_memory", "",
     "  for (;;) {\n    char* p = (char*)malloc(64 << 20);\n    if (!p) return false;\n"
     "    for (int i = 0; i < 64; ++i) p[i << 20] = 1;\n  }",
     {LabVerdict::WrongResult, LabVerdict::Crashed, LabVerdict::TimedOut}},
    {"loop_forever", "", "  for (volatile int i = 0;; ++i) {\n  }\n  return false;", {LabVerdict::TimedOut}},
    {"flood_stdout", "",
     "  for (;;) printf(\"flood flood flood flood flood flood flood flood flood flood flood flood\\n\");\n  return false;",
     {LabVerdict::Crashed, LabVerdict::TimedOut}},
    // Its scratch directory filled, as fast as the disk takes it: stopped at the disk or
    // file-size limit, or at the time limit when the disk is slower than that.
    {"fill_scratch", "",
     "  const char* dir = getenv(\"TMPDIR\");\n  if (!dir) return false;\n  char path[4096];\n"
     "  snprintf(path, sizeof path, \"%s/filler\", dir);\n  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);\n"
     "  if (fd < 0) return false;\n  static char chunk[1 << 20];\n  memset(chunk, 'x', sizeof chunk);\n"
     "  for (;;)\n    if (write(fd, chunk, sizeof chunk) < 0) break;\n  return false;",
     {LabVerdict::Crashed, LabVerdict::TimedOut, LabVerdict::WrongResult}},
    // A forged response where the runner writes its own, as large as the file-size limit lets
    // it be (one byte more is refused), then an exit before the runner can overwrite it.
    {"huge_response", "#include <sys/resource.h>",
     "  const char* dir = getenv(\"TMPDIR\");\n  if (!dir) return false;\n  char path[4096];\n"
     "  snprintf(path, sizeof path, \"%s/response\", dir);\n  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);\n"
     "  if (fd < 0) return false;\n  rlimit l;\n  getrlimit(RLIMIT_FSIZE, &l);\n"
     "  const long long size = l.rlim_cur == RLIM_INFINITY ? (1ll << 40) : (long long)l.rlim_cur;\n"
     "  if (ftruncate(fd, size + 1) == 0) printf(\"ESCAPED past the file-size limit\\n\");\n"
     "  ftruncate(fd, size);\n  _exit(0);",
     {LabVerdict::Crashed}},
    // Every descriptor closed and the low numbers taken by other files: what the runner
    // writes next goes elsewhere or nowhere.
    {"close_and_dup_descriptors", "",
     "  for (int fd = 0; fd < 1024; ++fd) close(fd);\n  int a = open(\"/dev/null\", O_RDWR);\n"
     "  for (int fd = 0; fd < 8; ++fd) dup2(a, fd);\n  return false;",
     {LabVerdict::WrongResult, LabVerdict::Crashed}},
};

std::string replaceAll(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
  return s;
}

bool printable(const std::string& s) {
  for (unsigned char c : s)
    if (c < 0x20 && c != '\n') return false;
  return !s.empty();
}

// Entries the lab leaves in its cache: compiled kernels and their errors, the headers. A
// run's or a compile's scratch directory left there is something left behind.
std::vector<std::string> scratchLeft(const fs::path& cache) {
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(cache)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("run-", 0) == 0 || name.rfind("compile-", 0) == 0) left.push_back(name);
  }
  return left;
}

class LabRuntimeSandbox : public ::testing::Test {
 protected:
  void SetUp() override {
    const lab::SandboxSupport& s = lab::sandboxSupport();
    if (!s.complete()) GTEST_SKIP() << "this machine's kernel lacks " << s.missing;
    char tmpl[] = "/tmp/tilescope-runtime-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    fs::create_directories(root_ / "home");
    fs::create_directories(root_ / "cache");
    std::ofstream(root_ / "secret.txt") << kSecret << "\n";
    listener_ = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    ASSERT_GE(listener_, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    ASSERT_EQ(listen(listener_, 4), 0);
    socklen_t len = sizeof a;
    ASSERT_EQ(getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len), 0);
    port_ = ntohs(a.sin_port);
  }
  void TearDown() override {
    if (listener_ >= 0) close(listener_);
    std::error_code ec;
    if (!root_.empty()) fs::remove_all(root_, ec);
  }

  lab::LabRequest request(const std::string& source, const std::string& name) const {
    lab::LabRequest q;
    q.source = source;
    q.fileName = name + ".cu";
    q.dims = {4, 4, 4};
    q.block = Dim3{4, 4, 1};
    q.grid = Dim3{1, 1, 1};
    q.timeoutSeconds = 3.0;
    q.memoryLimitBytes = uint64_t(lab::kMinMemoryLimitMiB) << 20;
    q.cacheDir = (root_ / "cache").string();
    return q;
  }
  std::string sleepMarker() const { return "600." + std::to_string(getpid()); }
  std::string kernel(const Attempt& a) const {
    std::string s = replaceAll(kTemplate, "@DECLS@", a.decls);
    s = replaceAll(s, "@ATTACK@", a.attack);
    s = replaceAll(s, "@ROOT@", root_.string());
    s = replaceAll(s, "@PORT@", std::to_string(port_));
    return replaceAll(s, "@SLEEP@", sleepMarker());
  }

  static constexpr const char* kSecret = "TOP-SECRET-outside-the-scratch";
  fs::path root_;
  int listener_ = -1;
  int port_ = 0;
};

TEST_F(LabRuntimeSandbox, EveryAttemptEndsAsItsOwnVerdictWithNothingLeft) {
  for (const Attempt& a : kAttempts) {
    SCOPED_TRACE(a.name);
    auto r = lab::runLabWithoutChecksForTesting(request(kernel(a), a.name));
    std::printf("%-26s %s\n", a.name, (r ? r->summary : "error: " + r.error().message).substr(0, 160).c_str());
    if (!r) {  // the lab's error for this run (a forged response refused): a plain reason
      EXPECT_TRUE(printable(r.error().message)) << r.error().message;
      EXPECT_EQ(r.error().message.find(kSecret), std::string::npos);
    } else {
      EXPECT_NE(r->verdict, lab::LabVerdict::Verified) << r->summary;
      EXPECT_NE(std::find(a.verdicts.begin(), a.verdicts.end(), r->verdict), a.verdicts.end())
          << "verdict " << int(r->verdict) << ": " << r->summary;
      EXPECT_TRUE(printable(r->summary)) << r->summary;
      EXPECT_EQ(r->childOutput.find("ESCAPED"), std::string::npos) << r->childOutput.substr(0, 400);
      EXPECT_EQ(r->childOutput.find(kSecret), std::string::npos);
      EXPECT_EQ(r->summary.find(kSecret), std::string::npos);
      EXPECT_LE(r->childOutput.size(), std::size_t(64 << 10) + 256);  // flooded output is bounded
    }
    EXPECT_FALSE(fs::exists(root_ / "home" / "written.txt"));
    EXPECT_TRUE(scratchLeft(root_ / "cache").empty());
    EXPECT_LT(accept(listener_, nullptr, nullptr), 0);  // nothing connected
    const std::string pgrep = "pgrep -f '^sleep " + sleepMarker() + "$' > /dev/null 2>&1";
    EXPECT_NE(std::system(pgrep.c_str()), 0) << "a process outlived the run";
  }
  // The grader is unharmed: an honest kernel still passes, through the same entry.
  const std::string honest = R"(__global__ void matMul(float* M, float* N, float* P, int Width) {
  int Row = blockIdx.y * blockDim.y + threadIdx.y, Col = blockIdx.x * blockDim.x + threadIdx.x;
  float Pvalue = 0;
  for (int k = 0; k < Width; ++k) Pvalue += M[Row * Width + k] * N[k * Width + Col];
  P[Row * Width + Col] = Pvalue;
}
)";
  auto r = lab::runLabWithoutChecksForTesting(request(honest, "honest"));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->verdict, lab::LabVerdict::Verified) << r->summary;
  EXPECT_TRUE(scratchLeft(root_ / "cache").empty());
}

// The same hostile text through the lab as a user runs it: refused before it runs.
TEST_F(LabRuntimeSandbox, TheChecksRefuseTheseKernelsBeforeTheyRun) {
  const Attempt& a = kAttempts.front();
  auto r = lab::runLab(request(kernel(a), a.name));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->verdict, lab::LabVerdict::CompileError) << r->summary;
}

}  // namespace
}  // namespace tilescope
