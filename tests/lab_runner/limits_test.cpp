// The lab's bounds, through tilescope-cli as a teacher runs it: a launch whose trace would
// outgrow the memory limit is refused before it runs with both figures (never reported as a
// crash of a correct kernel), and Ctrl-C stops the interpreter and leaves no file behind. Expected figures are hand counts from the
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

namespace tilescope {
namespace {

using testing::CliResult;
using testing::runCli;
namespace fs = std::filesystem;

const std::string kFig59 = std::string(TILESCOPE_LAB_EXAMPLES) + "/pmpp_fig5_9.cu";

// Fig. 5.9 at 512^3 with T = 16: 512 x 512 threads, each reading 2 x 512 shared values in its
// k loops alone, so at least 262144 x 1024 events of 32 B: 8 GiB, far over a limit of 1536 MiB.
TEST(LabLimits, ATraceOverTheMemoryLimitIsRefusedWithBothFigures) {
  const CliResult r =
      runCli("lab run " + kFig59 + " --size 512 --define TILE_WIDTH=16 --memory-limit 1536 --backend emu");
  EXPECT_EQ(r.exitCode, 2) << r.all();
  EXPECT_EQ(r.all().find("crashed"), std::string::npos) << r.all();
  EXPECT_NE(r.all().find("over the lab's memory limit of 1536 MiB"), std::string::npos) << r.all();
  std::smatch m;
  const std::string all = r.all();
  ASSERT_TRUE(std::regex_search(all, m, std::regex(R"(needs about (\d+) MiB)"))) << all;
  EXPECT_GE(std::stoll(m[1]), 8 * 1024) << all;
}

// The same kernel at a small size runs under the smallest limit the lab accepts; below it is
// refused.
TEST(LabLimits, AnHonestKernelRunsUnderTheSmallestLimit) {
  const CliResult r = runCli("lab run " + kFig59 + " --size 16 --define TILE_WIDTH=4 --memory-limit 1536 --backend emu");
  EXPECT_EQ(r.exitCode, 0) << r.all();
  const CliResult low = runCli("lab run " + kFig59 + " --size 16 --memory-limit 1535 --backend emu");
  EXPECT_EQ(low.exitCode, 2) << low.all();
  EXPECT_NE(low.all().find("--memory-limit expects MiB, 1536 to 1048576"), std::string::npos) << low.all();
}

// Ctrl-C while a kernel loops forever in the interpreter: the run is cancelled at once (no
// waiting for its time limit) and the CLI exits 130.
TEST(LabLimits, CtrlCStopsTheInterpreterAtOnce) {
  const fs::path dir = testing::testTempPath("_interrupt");
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path kernel = dir / "spins_forever.cu";
  std::ofstream(kernel) << "__global__ void k(float* M, float* N, float* P, int j, int k, int l) {\n"
                           "  int x = 0;\n  while (true) x = x + 1;\n}\n";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int devnull = ::open("/dev/null", O_WRONLY);
    dup2(devnull, 1);
    dup2(devnull, 2);
    execl(TILESCOPE_CLI, TILESCOPE_CLI, "lab", "run", kernel.c_str(), "--size", "4", "--timeout", "60", "--backend",
          "emu", static_cast<char*>(nullptr));
    _exit(127);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // well into the loop
  const auto sent = std::chrono::steady_clock::now();
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  EXPECT_LT(seconds, 10.0) << "the run went on after Ctrl-C";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tilescope
