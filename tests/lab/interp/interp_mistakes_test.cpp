// The mistakes a student makes, told by the lab's own front end and interpreter as a teacher
// would: at the line the file marks with `// <- the mistake`, in the exact words below. The
// files are tests/lab/mistakes/*.cu (fig. 5.9 with one edit each), run with their own lab
// settings (`// lab: define`, `// lab: size`) on a size x size x size product.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "lab/interp/interp.h"

namespace tilescope::interp {
namespace {

struct Told {
  std::string text;
  int markedLine = 0;
  std::optional<Diagnostic> said;  // what the lab told, the first thing
};

std::string readFile(const std::string& name) {
  std::ifstream in(std::filesystem::path(TILESCOPE_LAB_MISTAKES) / name, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Compiles and, when it compiles, runs the file as the lab would: T x T blocks over P.
Told tell(const std::string& name, uint64_t stepBudget = 1'000'000) {
  Told t;
  t.text = readFile(name);
  std::vector<Define> defines;
  int size = 4, n = 0, tile = 16;
  std::istringstream lines(t.text);
  for (std::string line; std::getline(lines, line);) {
    ++n;
    if (line.find("// <- the mistake") != std::string::npos) t.markedLine = n;
    if (line.rfind("// lab: define ", 0) == 0) {
      const std::string d = line.substr(15);
      defines.push_back({d.substr(0, d.find('=')), d.substr(d.find('=') + 1)});
      if (defines.back().name == "TILE_WIDTH") tile = std::stoi(defines.back().value);
    }
    if (line.rfind("// lab: size ", 0) == 0) size = std::stoi(line.substr(13));
  }
  const Compiled c = compileSource(t.text, defines);
  if (c.error) return t.said = c.error, t;
  const Instance instance = instantiate(*c.unit, c.kernels[0].name, {});
  if (instance.error) return t.said = instance.error, t;
  std::vector<float> M(size_t(size * size), 1.0f), N = M, P(M.size(), std::numeric_limits<float>::quiet_NaN());
  RunRequest r;
  r.program = instance.program.get();
  const unsigned blocks = unsigned((size + tile - 1) / tile);
  r.grid = {blocks, blocks, 1};
  r.block = {unsigned(tile), unsigned(tile), 1};
  for (bool pointer : c.kernels[0].parameterIsPointer)
    r.arguments.push_back(pointer ? Argument::matrix(int(r.arguments.size())) : Argument::number(size));
  float* data[3] = {M.data(), N.data(), P.data()};
  for (int m = 0; m < 3; ++m) r.matrices[m] = data[m], r.counts[m] = (long long)M.size();
  r.stepBudget = stepBudget;
  const RunResult ran = runProgram(r);
  if (ran.error) t.said = ran.error;
  else if (!ran.report.outOfBounds.empty()) t.said = describeOutOfBounds(ran.report.outOfBounds[0]);
  else if (!ran.report.divergences.empty()) t.said = describeDivergence(ran.report.divergences[0]);
  return t;
}

void expectTold(const std::string& file, const std::string& words) {
  const Told t = tell(file);
  ASSERT_TRUE(t.said.has_value()) << file << ": the lab said nothing";
  EXPECT_EQ(t.said->line, t.markedLine) << file << ": " << t.said->message;
  EXPECT_EQ(t.said->message, words) << file;
  // Whatever it said, the student reads their own line and no path of tilescope's.
  const std::string shown = formatDiagnostic(t.text, *t.said);
  for (const char* word : {"/tmp", "tilescope", "mcpp", "tree-sitter", "ERROR"})
    EXPECT_EQ(shown.find(word), std::string::npos) << shown;
}

TEST(InterpMistakes, AMissingSemicolonIsShownWithACaretAtItsLine) {
  expectTold("missing_semicolon.cu", "expected ';' at the end of this line");
  const Told t = tell("missing_semicolon.cu");
  ASSERT_TRUE(t.said);
  EXPECT_NE(formatDiagnostic(t.text, *t.said).find("^"), std::string::npos);
}

TEST(InterpMistakes, AnUndeclaredNameIsToldWithTheNearestDeclaredOne) {
  expectTold("undeclared_name.cu", "'bz' was not declared; did you mean 'bx' or 'by'?");
}

TEST(InterpMistakes, AMissingSemicolonBeforeANameOrANumberIsToldAtTheLineThatLacksIt) {
  expectTold("missing_semicolon_name.cu",
             "expected ';' at the end of this line: the statement runs on into the __syncthreads()");
  expectTold("missing_semicolon_literal.cu",
             "expected ';' at the end of this line: the statement runs on into the __syncthreads()");
}

TEST(InterpMistakes, ACoordinateMisspeltOrTakenTwiceIsNamed) {
  expectTold("misspelled_threadidx.cu", "'threadIdx' has no member 'X'; did you mean 'x'?");
  expectTold("thread_idx_zx.cu", "'threadIdx.z' is a number: it has no '.x'");
}

TEST(InterpMistakes, AnIndexOutsideAMatrixNamesBlockThreadArrayIndexAndBound) {
  expectTold("index_out_of_range.cu",
             "a read of M[16] is outside M, which has 16 elements (0 to 15): block (0, 1), thread (0, 1)");
}

TEST(InterpMistakes, ABarrierNotEveryThreadReachesIsADeadlockAtItsLine) {
  expectTold("sync_in_branch.cu",
             "block (0, 0) never gets past this __syncthreads(): 2 threads wait here, 2 threads wait at the "
             "__syncthreads() of line 26: every thread of a block must reach the same barrier");
}

TEST(InterpMistakes, AnEndlessLoopIsStoppedAtTheBudgetWithItsLine) {
  expectTold("endless_loop.cu",
             "the launch ran 1000000 loop steps and calls without finishing: is this loop endless? (block (0, 0), "
             "thread (0, 0))");
}

TEST(InterpMistakes, DivisionByZeroIsToldWhereItHappens) {
  expectTold("division_by_zero.cu", "division by zero (block (0, 0), thread (0, 0))");
}

TEST(InterpMistakes, AConstructOutsideTheSubsetIsOneSentenceAtItsLine) {
  const Compiled c = compileSource("__global__ void k(float* M, float* N, float* P) {\n  class Tile { int x; };\n}\n");
  ASSERT_TRUE(c.error);
  EXPECT_EQ(c.error->line, 2);
  EXPECT_EQ(c.error->message, "classes are outside the lab's CUDA subset");
}

TEST(InterpMistakes, HostCodeIsRefused) {
  const Compiled c = compileSource("int helper(int x) { return x; }\n__global__ void k(float* M) {}\n");
  ASSERT_TRUE(c.error);
  EXPECT_EQ(c.error->line, 1);
  EXPECT_EQ(c.error->message, "'helper' is host code: a function the kernel calls needs __device__ (host code is "
                              "outside the lab: write __global__ and __device__ functions only)");
}

}  // namespace
}  // namespace tilescope::interp
