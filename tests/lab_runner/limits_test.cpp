// The lab's bounds, through tilescope-cli as a teacher runs it: a launch whose trace would
// outgrow the memory limit is refused before it runs with both figures (never reported as a
// crash of a correct kernel), the compiler has a limit of its own and says when it hits it, and
// Ctrl-C leaves no process and no file behind. Expected figures are hand counts from the
// kernel's text, not from the code under test.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "cli_runner.h"
#include "lab/lab_sandbox.h"

namespace tilescope {
namespace {

using testing::CliResult;
using testing::runCli;
namespace fs = std::filesystem;

const std::string kFig59 = std::string(TILESCOPE_LAB_EXAMPLES) + "/pmpp_fig5_9.cu";

bool sandboxUsable() {
  const lab::SandboxSupport& s = lab::sandboxSupport();
  if (!s.complete()) std::printf("skipped: this machine's kernel lacks %s\n", s.missing.c_str());
  return s.complete();
}

// Fig. 5.9 at 512^3 with T = 16: 512 x 512 threads, each reading 2 x 512 shared values in its
// k loops alone, so at least 262144 x 1024 events of 32 B, held twice (the runner's buffer and
// the response): 16 GiB, far over a limit of 1536 MiB.
TEST(LabLimits, ATraceOverTheMemoryLimitIsRefusedWithBothFigures) {
  const CliResult r =
      runCli("lab run " + kFig59 + " --size 512 --define TILE_WIDTH=16 --memory-limit 1536 --backend emu");
  EXPECT_EQ(r.exitCode, 2) << r.all();
  EXPECT_EQ(r.all().find("crashed"), std::string::npos) << r.all();
  EXPECT_NE(r.all().find("over the lab's memory limit of 1536 MiB"), std::string::npos) << r.all();
  std::smatch m;
  const std::string all = r.all();
  ASSERT_TRUE(std::regex_search(all, m, std::regex(R"(needs about (\d+) MiB)"))) << all;
  EXPECT_GE(std::stoll(m[1]), 16 * 1024) << all;
}

// The same kernel at a small size runs under the smallest limit the lab accepts (1536 MiB: the
// runner maps 783 MiB before any trace in a CUDA build, and 512 could not load a kernel);
// below it is refused.
TEST(LabLimits, AnHonestKernelRunsUnderTheSmallestLimit) {
  if (!sandboxUsable()) GTEST_SKIP() << "Landlock or seccomp unavailable";
  const CliResult r = runCli("lab run " + kFig59 + " --size 16 --define TILE_WIDTH=4 --memory-limit 1536 --backend emu");
  EXPECT_EQ(r.exitCode, 0) << r.all();
#if !defined(__SANITIZE_ADDRESS__)
  EXPECT_NE(r.out.find("1536 MiB memory"), std::string::npos) << r.all();
#endif
  const CliResult low = runCli("lab run " + kFig59 + " --size 16 --memory-limit 1535 --backend emu");
  EXPECT_EQ(low.exitCode, 2) << low.all();
  EXPECT_NE(low.all().find("--memory-limit expects MiB, 1536 to 1048576"), std::string::npos) << low.all();
}

// The compiler's own limit: a fresh cache, so the compile really runs, and a limit no g++
// meets. The message names the limit and the flag that raises it.
TEST(LabLimits, TheCompileStopsAtItsOwnLimitAndSaysSo) {
  const fs::path cache = testing::testTempPath("_cache");
  fs::remove_all(cache);
  setenv("TILESCOPE_LAB_CACHE", cache.c_str(), 1);
  const CliResult r = runCli("lab run " + kFig59 + " --size 4 --compile-timeout 0.01 --backend emu");
  unsetenv("TILESCOPE_LAB_CACHE");
  EXPECT_NE(r.exitCode, 0) << r.all();
  EXPECT_NE(r.all().find("the compile was stopped after 0.01 s, the lab's limit (--compile-timeout SECONDS raises it)"),
            std::string::npos)
      << r.all();
  fs::remove_all(cache);
}

bool processRunning(const std::string& pattern) {
  return std::system(("pgrep -f '" + pattern + "' > /dev/null 2>&1").c_str()) == 0;
}

// Ctrl-C while a kernel loops forever: the CLI stops the runner's whole process group, removes
// its scratch directory and exits 130.
TEST(LabLimits, CtrlCLeavesNoProcessAndNoFile) {
  if (!sandboxUsable()) GTEST_SKIP() << "Landlock or seccomp unavailable";
  const fs::path dir = testing::testTempPath("_interrupt"), cache = dir / "cache";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path kernel = dir / "spins_forever_7c3e.cu";  // a name no other test's runner carries
  std::ofstream(kernel) << "__global__ void k(float* M, float* N, float* P, int j, int k, int l) {\n"
                           "  volatile int x = 0;\n  while (true) x = x + 1;\n}\n";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    setenv("TILESCOPE_LAB_CACHE", cache.c_str(), 1);
    const int devnull = ::open("/dev/null", O_WRONLY);
    dup2(devnull, 1);
    dup2(devnull, 2);
    execl(TILESCOPE_CLI, TILESCOPE_CLI, "lab", "run", kernel.c_str(), "--size", "4", "--timeout", "60", "--backend",
          "emu", static_cast<char*>(nullptr));
    _exit(127);
  }
  // Wait until the runner is up (it carries the scratch directory's files in its arguments).
  bool started = false;
  for (int i = 0; i < 400 && !started; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    started = processRunning("[t]ilescope-lab-runner.*" + cache.string());
  }
  EXPECT_TRUE(started) << "the runner never started";
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_FALSE(processRunning("[t]ilescope-lab-runner.*" + cache.string()));
  if (fs::exists(cache)) {
    for (const auto& e : fs::directory_iterator(cache))
      EXPECT_NE(e.path().filename().string().rfind("run-", 0), 0u) << "a scratch directory was left: " << e.path();
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tilescope
