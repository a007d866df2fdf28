// The lab on its interpreter, the emulator's only engine, as students and teachers run it
// through tilescope-cli: every example the lab ships keeps the
// verdict its own `// lab: expect` line states, every exercise fails its starter and passes its
// reference solution, and a kernel that goes wrong at run time is told by name and place
// while nothing of it ever ran as native code.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli_runner.h"

namespace tilescope {
namespace {

using testing::CliResult;

CliResult runInterpreted(const std::string& args) { return testing::runCli("lab " + args); }

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string writeKernel(const std::string& name, const std::string& text) {
  const std::string path = testing::testTempPath("_" + name);
  std::ofstream(path) << text;
  return path;
}

class InterpreterEngine : public ::testing::Test {};

TEST_F(InterpreterEngine, EveryExampleKeepsTheVerdictItsListingStates) {
  int examples = 0;
  for (const auto& entry : std::filesystem::directory_iterator(TILESCOPE_LAB_EXAMPLES)) {
    const std::string text = readFile(entry.path());
    const std::size_t at = text.find("// lab: expect ");
    if (at == std::string::npos) continue;
    const std::string verdict = text.substr(at + 15, text.find('\n', at) - at - 15);
    const int exitCode = verdict == "verified" ? 0 : verdict == "compile error" ? 2 : 1;
    SCOPED_TRACE(entry.path().filename().string());
    const CliResult r = runInterpreted("run --backend emu " + entry.path().string());
    EXPECT_EQ(r.exitCode, exitCode) << r.all();
    EXPECT_EQ(r.out.find(verdict == "compile error" ? "compile error" : verdict) == std::string::npos, false) << r.all();
    ++examples;
  }
  EXPECT_GE(examples, 8);
}

TEST_F(InterpreterEngine, EveryExerciseFailsItsStarterAndPassesItsSolution) {
  for (const auto& entry : std::filesystem::directory_iterator(TILESCOPE_EXERCISES)) {
    const std::string name = entry.path().stem().string();
    SCOPED_TRACE(name);
    const std::string file = readFile(entry.path());
    const std::string starter = writeKernel(name + "_starter.cu", file.substr(file.find("starter:\n") + 9));
    const CliResult failing = runInterpreted("check " + name + " " + starter);
    EXPECT_NE(failing.exitCode, 0) << failing.all();
    const std::string solution = std::string(TILESCOPE_LAB_SOLUTIONS) + "/" + name + ".cu";
    const CliResult passing = runInterpreted("check " + name + " " + solution);
    EXPECT_EQ(passing.exitCode, 0) << passing.all();
  }
}

const char* const kHeader = "__global__ void k(float* M, float* N, float* P, int Width) {\n";

TEST_F(InterpreterEngine, AWildPointerIsNotInTheLanguage) {
  const std::string file = writeKernel("wild.cu", std::string(kHeader) + "  float* wild = (float*)16;\n"
                                                                  "  wild[threadIdx.x] = 1.0f;\n}\n");
  const CliResult r = runInterpreted("run --backend emu " + file + " --size 2 --block 2x2");
  EXPECT_EQ(r.exitCode, 2) << r.all();
  EXPECT_NE(r.out.find("wild.cu:2: casts to pointers are outside the lab's CUDA subset"), std::string::npos) << r.out;
}

TEST_F(InterpreterEngine, IntegerDivisionByZeroCrashesAtItsLine) {
  const std::string file = writeKernel("div.cu", std::string(kHeader) + "  volatile int zero = 0;\n"
                                                                 "  P[threadIdx.x] = Width / zero;\n}\n");
  const CliResult r = runInterpreted("run --backend emu " + file + " --size 2 --block 2x1");
  EXPECT_EQ(r.exitCode, 3) << r.all();
  EXPECT_NE(r.out.find("crashed: division by zero in block (0,0) thread tx=0, ty=0 at line 3"), std::string::npos) << r.out;
}

TEST_F(InterpreterEngine, EndlessRecursionIsStoppedAndCrashes) {
  const std::string file = writeKernel("deep.cu",
                                       "__device__ int down(int n) { float pad[512]; pad[0] = n; return down(n + 1) + pad[0]; }\n"
                                       "__global__ void k(float* M, float* N, float* P, int Width) {\n"
                                       "  P[threadIdx.x] = down(0);\n}\n");
  const CliResult r = runInterpreted("run --backend emu " + file + " --size 2 --block 2x1");
  EXPECT_EQ(r.exitCode, 3) << r.all();
  EXPECT_NE(r.out.find("crashed: the calls are nested too deeply (endless recursion?)"), std::string::npos) << r.out;
}

// The clock is read every few thousand statements, here in the loop's body (lines 4 and 5): the
// time-out names the loop of line 3, where the mistake is (k never changes).
TEST_F(InterpreterEngine, ATimeOutNamesTheLoopItWasSpinningIn) {
  const std::string file = writeKernel("body.cu", std::string(kHeader) + "  float s = 0;\n  for (int k = 0; k < 4;) {\n"
                                                                  "    s += 1.0f;\n    s *= 0.5f;\n  }\n  P[0] = s;\n}\n");
  const CliResult r = runInterpreted("run --backend emu " + file + " --size 2 --block 2x1 --timeout 0.5");
  EXPECT_EQ(r.exitCode, 3) << r.all();
  EXPECT_NE(r.out.find("(an endless loop?) in block (0,0) thread tx=0, ty=0 at line 3"), std::string::npos) << r.out;
}

TEST_F(InterpreterEngine, AnEndlessLoopTimesOutAtItsLine) {
  const std::string file = writeKernel("spin.cu", std::string(kHeader) + "  float x = M[threadIdx.x];\n"
                                                                  "  volatile int spin = 1;\n  while (spin) { }\n"
                                                                  "  P[0] = x;\n}\n");
  const CliResult r = runInterpreted("run --backend emu " + file + " --size 2 --block 2x1 --timeout 0.5");
  EXPECT_EQ(r.exitCode, 3) << r.all();
  // Thread (0,0) runs first and never leaves the loop of line 4.
  EXPECT_NE(r.out.find("timed out: still running after 0.5 s of CPU time (an endless loop?) in block (0,0) thread tx=0, ty=0 at line 4"),
            std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace tilescope
