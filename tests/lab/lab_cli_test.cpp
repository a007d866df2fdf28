// tilescope-cli lab as students and teachers run it: every example the lab ships gives the
// verdict its source deserves (checked by hand against the listing, see the table), and
// kernels that crash, loop forever, deadlock at a barrier, write out of bounds or do not
// compile are each reported with their exit code and a message naming what and where,
// while the CLI itself stays up. These hold the emulator to them (--backend emu, so a
// machine with a GPU checks the same); the GPU's lab runs are tests/gpu/lab_gpu_test.cpp.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <map>

#include "cli_runner.h"

namespace tilescope {
namespace {

using testing::CliResult;
using testing::runCli;

std::string writeKernel(const std::string& name, const std::string& text) {
  const std::string path = testing::testTempPath("_" + name);
  std::ofstream(path) << text;
  return path;
}

// The examples, with the verdict each deserves, worked out from its listing:
struct Expected {
  std::string verdict;
  int exitCode;
  int line;  // of the compile error
};
const std::map<std::string, Expected> kExamples = {
    // fig. 5.9 on a multiple of its tile: correct.
    {"pmpp_fig5_9.cu", {"verified", 0, 0}},
    // fig. 5.13 is printed from line 14 on, without its kernel's first lines: no __global__
    // function; its first code line is the file's line 2.
    {"pmpp_fig5_13_fragment.cu", {"compile error", 2, 2}},
    // fig. 5.14 shows only the kernel's first lines: its body never closes, after line 8 (its last
    // line of code), where the message points.
    {"pmpp_fig5_14_fragment.cu", {"compile error", 2, 8}},
    // the notes' kernel multiplies Mds[ty][tx] * Nds[ty][tx] in its k loop.
    {"notes_tiled.cu", {"wrong result", 1, 0}},
    // the notes' bounds-checked kernel is a fragment from `float Pvalue = 0;` on (line 1).
    {"notes_bounds_fragment.cu", {"compile error", 2, 1}},
    // the slides' naive kernel sums into an int.
    {"slides_naive.cu", {"wrong result", 1, 0}},
    // the slides' shared-memory kernel on a square grid of square blocks: correct.
    {"slides_shared.cu", {"verified", 0, 0}},
    // the tutorial's barrier inside the k loop and its store inside the phase loop cost time,
    // not correctness: every thread meets every barrier, the last store holds the full sum.
    {"tutorial_tiled.cu", {"verified", 0, 0}},
};

TEST(LabExamples, EveryExampleGivesTheVerdictOfItsListing) {
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(TILESCOPE_LAB_EXAMPLES)) {
    const std::string name = entry.path().filename().string();
    SCOPED_TRACE(name);
    const auto expected = kExamples.find(name);
    ASSERT_NE(expected, kExamples.end()) << "an example without an expected verdict in this test";
    const CliResult r = runCli("lab run --backend emu " + entry.path().string() + " --json");
    EXPECT_EQ(r.exitCode, expected->second.exitCode) << r.all();
    EXPECT_NE(r.out.find("\"verdict\":\"" + expected->second.verdict + "\""), std::string::npos) << r.out;
    // The file's own `expect` line says the same (what the app shows beside the example).
    std::ifstream in(entry.path());
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("// lab: expect " + expected->second.verdict + "\n"), std::string::npos);
    EXPECT_NE(text.find("// lab: from "), std::string::npos) << "every example says where it comes from";
    if (expected->second.line > 0) {
      EXPECT_NE(r.err.find(name + ":" + std::to_string(expected->second.line) + ":"), std::string::npos) << r.err;
    }
    ++checked;
  }
  EXPECT_EQ(checked, int(kExamples.size()));
}

TEST(LabExamples, Fig5_9OnASizeItWasNotWrittenForReadsPastTheRowEnd) {
  // Width 3, T = 2: block (1,0), thread (1,0) has Col = 3 and reads N[0*3 + 3] on line 20 of
  // the listing, which is N(1,0): fig. 5.11's wrap, now on N.
  const CliResult r = runCli("lab run --backend emu " + std::string(TILESCOPE_LAB_EXAMPLES) + "/pmpp_fig5_9.cu --size 3");
  EXPECT_EQ(r.exitCode, 1) << r.all();
  EXPECT_NE(r.out.find("out-of-bounds"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("N(0,3) by blockIdx (1,0) threadIdx (1,0) in phase 0, line 20: index 3 wraps to N(1,0)"),
            std::string::npos)
      << r.out;
}

const char* const kHeader = "__global__ void k(float* M, float* N, float* P, int Width) {\n";

TEST(LabFailures, ACompileErrorNamesItsLine) {
  const std::string file = writeKernel("typo.cu", std::string(kHeader) + "  int Row = threadIdx.y;\n  int Col = threadIdx.x;\n"
                                                                 "  P[Row*Width + Col] = Pvalu;\n}\n");
  const CliResult r = runCli("lab run --backend emu " + file + " --size 2 --block 2x2");
  EXPECT_EQ(r.exitCode, 2) << r.all();
  EXPECT_NE(r.all().find("typo.cu:4:"), std::string::npos) << r.all();
  EXPECT_NE(r.all().find("Pvalu"), std::string::npos) << r.all();
}

TEST(LabFailures, AnOutOfBoundsWriteIsReportedWithItsLine) {
  const std::string file = writeKernel("oob.cu", std::string(kHeader) +
                                                     "  P[threadIdx.y*Width + threadIdx.x + Width*Width] = 1.0f;\n}\n");
  const CliResult r = runCli("lab run --backend emu " + file + " --size 2 --block 2x2");
  EXPECT_EQ(r.exitCode, 1) << r.all();
  EXPECT_NE(r.out.find("out-of-bounds"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("line 2"), std::string::npos) << r.out;
}

// A wild pointer, a division by zero, endless recursion and an endless loop: each is a verdict
// at its line from the interpreter (tests/lab/interp/interp_lab_cli_test.cpp, InterpreterEngine).

TEST(LabFailures, ABarrierSomeThreadsNeverReachIsADeadlock) {
  const std::string file = writeKernel("diverge.cu", std::string(kHeader) + "  if (threadIdx.x == 0) return;\n"
                                                                     "  __syncthreads();\n  P[threadIdx.x] = 1.0f;\n}\n");
  const CliResult r = runCli("lab run --backend emu " + file + " --size 2 --block 2x1");
  EXPECT_EQ(r.exitCode, 3) << r.all();
  EXPECT_NE(r.out.find("deadlocked: barrier divergence in block (0,0): 1 threads wait at the __syncthreads() of line 3, "
                       "1 returned without reaching it"),
            std::string::npos)
      << r.out;
}

TEST(LabFailures, ADeadlockAtTwoBarriersCountsTheThreadsAtEach) {
  // Thread 0 waits at line 3, threads 1-3 at line 5: two groups of 1 and 3, none returned.
  const std::string file = writeKernel("two_barriers.cu", std::string(kHeader) + "  if (threadIdx.x == 0)\n"
                                                                          "    __syncthreads();\n  else\n"
                                                                          "    __syncthreads();\n  P[threadIdx.x] = 1.0f;\n}\n");
  const CliResult r = runCli("lab run --backend emu " + file + " --size 4 --block 4x1");
  EXPECT_EQ(r.exitCode, 3) << r.all();
  EXPECT_NE(r.out.find("deadlocked: barrier divergence in block (0,0): 1 threads wait at the __syncthreads() of line 3, "
                       "3 at the one of line 5 (on a GPU"),
            std::string::npos)
      << r.out;
}

TEST(LabFailures, ASignatureTheLabCannotMapNamesTheAcceptedForms) {
  const std::string file = writeKernel("sig.cu", "__global__ void k(double* A, double* B, double* C, int n) { }\n");
  const CliResult r = runCli("lab run --backend emu " + file);
  EXPECT_EQ(r.exitCode, 2) << r.all();
  EXPECT_NE(r.all().find("sig.cu:1:"), std::string::npos) << r.all();
  EXPECT_NE(r.all().find("float* M, float* N, float* P, int Width"), std::string::npos) << r.all();
}

TEST(LabFailures, ABarrierInsideAHelperIsRefusedWithItsLine) {
  const std::string file = writeKernel("helper.cu", "__device__ void sync() {\n  __syncthreads();\n}\n" + std::string(kHeader) +
                                                        "  sync();\n}\n");
  const CliResult r = runCli("lab run --backend emu " + file);
  EXPECT_EQ(r.exitCode, 2) << r.all();
  EXPECT_NE(r.all().find("helper.cu:2: __syncthreads inside the __device__ function 'sync'"), std::string::npos)
      << r.all();
}

TEST(LabBackends, WithoutADeviceAutoRunsOnTheEmulatorAndCudaIsRefused) {
  const std::string fig59 = std::string(TILESCOPE_LAB_EXAMPLES) + "/pmpp_fig5_9.cu";
  const CliResult automatic = runCli("lab run " + fig59 + " --backend auto");
  if (automatic.out.find(" on cuda") != std::string::npos) GTEST_SKIP() << "this machine has a CUDA device";
  EXPECT_EQ(automatic.exitCode, 0) << automatic.all();
  EXPECT_NE(automatic.out.find("on emulator"), std::string::npos) << automatic.out;
  EXPECT_NE(automatic.out.find("runs on the emulator"), std::string::npos) << automatic.out;
  const CliResult cuda = runCli("lab run " + fig59 + " --backend cuda");
  EXPECT_EQ(cuda.exitCode, 2) << cuda.all();
  EXPECT_NE(cuda.err.find("--backend cuda: "), std::string::npos) << cuda.err;
  EXPECT_NE(cuda.err.find("--backend emu runs the kernel on the emulator"), std::string::npos) << cuda.err;
  // Timing needs the GPU: refused as an unavailable backend, never timed on the emulator.
  const CliResult timed = runCli("lab time " + fig59 + " --sizes 64");
  EXPECT_EQ(timed.exitCode, 2) << timed.all();
  EXPECT_NE(timed.err.find("lab time needs a GPU"), std::string::npos) << timed.err;
  EXPECT_EQ(timed.out, "");
}

TEST(LabTime, BadFlagsAreRefusedWithTheLimit) {
  const std::string fig59 = std::string(TILESCOPE_LAB_EXAMPLES) + "/pmpp_fig5_9.cu";
  struct Case {
    std::string args, message;
  };
  for (const Case& c : {Case{"--sizes 0", "--sizes 0 is out of range: it must be 1 to 16384"},
                        Case{"--sizes 256,x", "--sizes"},
                        Case{"--repeats 0", "--repeats 0 is out of range"},
                        Case{"--trace-out t.json", "unknown flag '--trace-out' for 'lab time'"},
                        Case{"--size 256 --sizes 512", "give either --size/--dims or --sizes, not both"}}) {
    const CliResult r = runCli("lab time " + fig59 + " " + c.args);
    EXPECT_EQ(r.exitCode, 2) << c.args << "\n" << r.all();
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
  }
  const CliResult none = runCli("lab time");
  EXPECT_EQ(none.exitCode, 2);
  EXPECT_NE(none.err.find("lab time expects one file"), std::string::npos) << none.err;
}

// Host code at namespace scope is refused before anything runs, at its line: the verdict names
// it, and an initializer that would touch a file never runs.
TEST(LabSourceChecks, HostCodeIsRefusedBeforeAnythingRuns) {
  const std::string touched = testing::testTempPath("_touched");
  std::filesystem::remove(touched);
  struct Case {
    std::string name, before;
    int line;
    std::string says;
  };
  const Case cases[] = {
      {"main.cu", std::string(kHeader) + "  P[0] = 1.0f;\n}\n\nint main() {\n  return 0;\n}\n", 5,
       "'main' is host code: the lab launches the kernel itself"},
      {"init.cu", "#include <stdlib.h>\n\nstatic int touched = system(\"touch " + touched + "\");\n" + kHeader + "}\n", 3,
       "a variable at file scope is outside the lab's CUDA subset"},
      {"helper.cu", "float twice(float x) { return 2 * x; }\n" + std::string(kHeader) + "  P[0] = twice(M[0]);\n}\n", 1,
       "'twice' is host code: a function the kernel calls needs __device__"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string file = writeKernel(c.name, c.before);
    const CliResult r = runCli("lab run " + file + " --backend emu --size 2 --json");
    EXPECT_EQ(r.exitCode, 2) << r.all();
    EXPECT_NE(r.out.find("\"verdict\":\"compile error\""), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"summary\":\"compile error: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("_" + c.name + ":" + std::to_string(c.line) + ": " + c.says), std::string::npos) << r.out;
  }
  EXPECT_FALSE(std::filesystem::exists(touched));
}

// `float* p = &P[i]` is valid CUDA: a raw pointer into a matrix, indexed, or passed to a
// __device__ helper's `float*`. It stays a view of that matrix (views_global.h), so every access
// through it is still recorded and bounds-checked: a kernel cannot hide accesses behind it.
TEST(LabSourceChecks, ARawPointerIntoAMatrixIsStillObserved) {
  std::ifstream in(std::string(TILESCOPE_LAB_FIXTURES) + "/raw_pointer.cu");
  std::stringstream text;
  text << in.rdbuf();
  const std::string whole = text.str(), body = whole.substr(0, whole.rfind('}'));  // all but the kernel's last brace
  const std::string file = writeKernel("raw_pointer.cu", whole);
  const CliResult r = runCli("lab run --backend emu " + file + " --size 4 --block 4x4 --json");
  EXPECT_EQ(r.exitCode, 0) << r.all();
  EXPECT_NE(r.out.find("\"verdict\":\"verified\""), std::string::npos) << r.out;
  // By hand: 16 threads each read 4 elements of M and 4 of N (4 bytes each) and store one of P.
  EXPECT_NE(r.out.find("\"global_load_bytes\":512,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"global_store_bytes\":64,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"flops\":128,"), std::string::npos) << r.out;
  // A store past P through the pointer is caught at its line, as P[...] itself would be.
  const std::string past = writeKernel("raw_pointer_past.cu", body + "  out[Col + Width * Width] = 1.0f;\n}\n");
  const CliResult oob = runCli("lab run --backend emu " + past + " --size 4 --block 4x4");
  EXPECT_EQ(oob.exitCode, 1) << oob.all();
  EXPECT_NE(oob.out.find("out-of-bounds"), std::string::npos) << oob.out;
  EXPECT_NE(oob.out.find("line 11"), std::string::npos) << oob.out;
}

// A UTF-8 byte order mark (Windows editors write one) is not part of the kernel.
TEST(LabFiles, AByteOrderMarkIsIgnored) {
  const std::string text = std::string("\xEF\xBB\xBF") + kHeader +
                           "  int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  float s = 0;\n  for (int i = 0; i < Width; ++i) s += M[r * Width + i] * N[i * Width + c];\n"
                           "  P[r * Width + c] = s;\n}\n";
  const CliResult r = runCli("lab run --backend emu " + writeKernel("bom.cu", text) + " --size 4 --block 4x4");
  EXPECT_EQ(r.exitCode, 0) << r.all();
  EXPECT_NE(r.out.find("verified"), std::string::npos) << r.out;
  // Its lines keep their numbers: an error on line 2 is reported on line 2.
  const std::string typo = std::string("\xEF\xBB\xBF") + kHeader + "  P[0] = Pvalu;\n}\n";
  const CliResult e = runCli("lab run --backend emu " + writeKernel("bom_typo.cu", typo) + " --size 2");
  EXPECT_EQ(e.exitCode, 2) << e.all();
  EXPECT_NE(e.out.find("_bom_typo.cu:2: 'Pvalu'"), std::string::npos) << e.out;
}

// A quote or a newline in the file's name stays out of the generated code (where it would end
// the #line string or a comment and put the rest of the name into the unit), and errors are
// still reported at their line under the file's real name.
TEST(LabFiles, AQuoteOrANewlineInTheFileNameIsNotCode) {
  const std::string dir = testing::testTempPath("_names");
  std::filesystem::create_directories(dir);
  const std::string good = std::string(kHeader) + "  P[blockIdx.y * blockDim.y * Width + threadIdx.y * Width + "
                                                  "blockIdx.x * blockDim.x + threadIdx.x] = 0.0f;\n}\n";
  const std::string injected = dir + "/ok\n#error injected\n\".cu";
  std::ofstream(injected) << good;
  const CliResult r = runCli("lab run --backend emu '" + injected + "' --size 2 --block 2x2");
  EXPECT_EQ(r.all().find("injected\n#"), std::string::npos) << r.all();
  EXPECT_EQ(r.all().find("error: injected"), std::string::npos) << r.all();
  EXPECT_NE(r.out.find("wrong result"), std::string::npos) << r.all();  // it ran: P is all zeros
  const std::string quoted = dir + "/say \"hi\".cu";
  std::ofstream(quoted) << kHeader << "  P[0] = Pvalu;\n}\n";
  const CliResult e = runCli("lab run --backend emu '" + quoted + "' --size 2");
  EXPECT_EQ(e.exitCode, 2) << e.all();
  EXPECT_NE(e.out.find("compile error: say \"hi\".cu:2: 'Pvalu'"), std::string::npos) << e.out;
}

// What `lab run` and `lab check` print of a student's file goes through the grader's terminal
// escaping (app/cli/grade_output.h): a file name holding a newline and ESC, and an #error line
// holding ESC, reach the terminal as \x0a and \x1b, never as a line of their own or a control
// sequence (clear the screen, colours) that could dress a failure as a pass.
TEST(LabFiles, ANameOrAMessageWithControlBytesIsEscapedOnTheTerminal) {
  const std::string dir = testing::testTempPath("_escaped");
  std::filesystem::create_directories(dir);
  const std::string name = "evil\n== honest.cu: passed\x1b[2J.cu";
  std::ofstream(dir + "/" + name) << "#error \x1b[32m== honest.cu: passed (verified)\x1b[0m\n" << kHeader << "}\n";
  auto noForgery = [](const CliResult& r) {
    const std::string all = r.all();
    EXPECT_EQ(all.find('\x1b'), std::string::npos) << all;
    EXPECT_EQ(all.find("\n== honest.cu"), std::string::npos) << all;
    EXPECT_NE(all.find("\\x1b"), std::string::npos) << all;  // shown, escaped
  };
  const CliResult run = runCli("lab run --backend emu '" + dir + "/" + name + "' --size 2");
  EXPECT_EQ(run.exitCode, 2) << run.all();
  EXPECT_NE(run.out.find("compile error: evil\\x0a== honest.cu: passed\\x1b[2J.cu:1:"), std::string::npos) << run.out;
  noForgery(run);
  const CliResult check = runCli("lab check missing_barrier '" + dir + "/" + name + "'");
  EXPECT_NE(check.exitCode, 0) << check.all();
  noForgery(check);
  // An error about the file itself (it cannot be read) names it escaped too.
  const CliResult missing = runCli("lab run --backend emu '" + dir + "/no\x1b[2Jsuch.cu'");
  EXPECT_EQ(missing.exitCode, 2) << missing.all();
  EXPECT_EQ(missing.all().find('\x1b'), std::string::npos) << missing.all();
}

}  // namespace
}  // namespace tilescope
