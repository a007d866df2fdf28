// The commonest mistakes in a student's tiled kernel, each one small edit of the book's
// fig. 5.9 (tests/lab/mistakes/*.cu, with the lab settings of assets/lab/examples/pmpp_fig5_9.cu),
// run through the lab as the CLI and the app run them. Each file marks the line the lab must
// name with `// <- the mistake`; the test finds that line in the text itself. Whatever the
// compiler said, the student reads their own file name, that line and plain words, never a path
// into the lab's cache, a header of the lab's or a name of its namespaces.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "lab/lab.h"

namespace tilescope::lab {
namespace {

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The line of `text` that carries the marker, counted from 1; 0 if none does.
int markedLine(const std::string& text) {
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);)
    if (++n, line.find("// <- the mistake") != std::string::npos) return n;
  return 0;
}

struct Ran {
  std::string text;
  int line = 0;
  LabOutcome outcome;
};

Ran run(const std::string& name, std::string text = {}) {
  Ran r;
  r.text = text.empty() ? readFile(std::filesystem::path(TILESCOPE_LAB_MISTAKES) / name) : std::move(text);
  r.line = markedLine(r.text);
  auto request = requestFromFile(r.text, name);
  EXPECT_TRUE(request.ok()) << request.error().message;
  if (!request) return r;
  auto outcome = runLab(*request);
  EXPECT_TRUE(outcome.ok()) << outcome.error().message;
  if (outcome) r.outcome = std::move(*outcome);
  return r;
}

// Everything the student reads of the outcome: the CLI's text and each diagnostic.
void expectOnlyTheStudentsWords(const LabOutcome& o) {
  std::string all = describeOutcome(o) + o.summary;
  for (const LabDiagnostic& d : o.diagnostics) all += d.file + " " + d.message + "\n";
  for (const char* word : {"include-", "kernels/", ".cache", "tslab", "tilescope::", "unit.cpp", "GlobalView", "_ZTW"})
    EXPECT_EQ(all.find(word), std::string::npos) << "'" << word << "' in: " << all;
}

struct CompileMistake {
  const char* file;
  const char* words;  // what the message must say, in plain words
};

TEST(LabMistakes, EachCompileErrorNamesTheStudentsFileAndLine) {
  const CompileMistake mistakes[] = {
      {"missing_semicolon.cu", "expected ';' at the end of this line"},  // g++ put it in the lab's macro
      // A line ending in a literal or a name: g++ reads `0.0f __syncthreads()` as a call.
      {"missing_semicolon_literal.cu", "expected ';' at the end of this line: the statement runs on into the __syncthreads()"},
      {"missing_semicolon_name.cu", "expected ';' at the end of this line: the statement runs on into the __syncthreads()"},
      {"undeclared_name.cu", "'bz' was not declared"},
      {"missing_brace.cu", "a '}' is probably missing here: the for loop of line 23 uses 'k' last at line 24"},
      {"thread_idx_zx.cu", "'threadIdx.z' is a number"},
      {"host_function.cu", "'hostScale' is host code: a function the kernel calls needs __device__"},
      {"shared_by_variable.cu", "size must be a constant"},
      {"wrong_signature.cu", "pointer parameters"},
      {"misspelled_threadidx.cu", "did you mean 'x'?"},
      {"misspelled_syncthreads.cu", "did you mean '__syncthreads'?"},
  };
  for (const CompileMistake& m : mistakes) {
    SCOPED_TRACE(m.file);
    const Ran r = run(m.file);
    ASSERT_GT(r.line, 0) << "the file marks its mistake";
    const LabOutcome& o = r.outcome;
    EXPECT_EQ(o.verdict, LabVerdict::CompileError) << o.summary;
    ASSERT_FALSE(o.diagnostics.empty());
    // The first diagnostic is the editor's mark and the summary's location.
    EXPECT_EQ(o.diagnostics.front().file, m.file);
    EXPECT_EQ(o.diagnostics.front().line, r.line) << o.summary;
    const std::string at = "compile error: " + std::string(m.file) + ":" + std::to_string(r.line) + ": ";
    EXPECT_EQ(o.summary.rfind(at, 0), 0u) << o.summary;
    EXPECT_NE(o.summary.find(m.words), std::string::npos) << o.summary;
    for (const LabDiagnostic& d : o.diagnostics) {
      EXPECT_EQ(d.file, m.file);
      EXPECT_GT(d.line, 0);
    }
    expectOnlyTheStudentsWords(o);
  }
}

TEST(LabMistakes, AnIntegerAccumulatorCompilesAndTheResultSaysWhyItIsWrong) {
  const Ran r = run("int_accumulator.cu");
  const LabOutcome& o = r.outcome;
  EXPECT_EQ(o.verdict, LabVerdict::WrongResult) << o.summary;
  // M and N are drawn from [-1, 1): each product has a fraction the int drops, so P is whole.
  EXPECT_NE(o.summary.find("whole number"), std::string::npos) << o.summary;
  EXPECT_NE(o.summary.find("'Pvalue', an integer variable (line " + std::to_string(r.line) + ")"), std::string::npos)
      << o.summary;
  EXPECT_NE(o.summary.find("stored at line 28"), std::string::npos) << o.summary;  // P[Row*Width + Col] = Pvalue;
  expectOnlyTheStudentsWords(o);
}

// M read down a column, `M[(ph*TILE_WIDTH + tx)*Width + Row]` (line 19), at 4x4 with T = 2. By
// hand: thread tx=0, ty=0 of block (0,0) computes P(0,0), the first element of P; at k = 0 it
// reads Mds[0][0], which it filled itself with M(0,0), right; at k = 1 it reads Mds[0][1]
// (line 24), which thread tx=1, ty=0 filled with M[(0*2 + 1)*4 + 0] = M(1,0), where the
// reference reads M(0,1). The values are the run's own inputs.
TEST(LabMistakes, AWrongIndexIsFollowedBackToTheLoadAtItsLine) {
  const Ran r = run("m_index_transposed.cu");
  const LabOutcome& o = r.outcome;
  ASSERT_EQ(o.verdict, LabVerdict::WrongResult) << o.summary;
  ASSERT_EQ(r.line, 19);
  ASSERT_TRUE(o.finished) << o.summary;
  const Matrix& m = o.finished->run.m;
  auto value = [](float v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", double(v));
    return std::string(text);
  };
  const std::string sentence = "P(0,0) is the first wrong element (" + value(o.finished->run.p.at(0, 0)) + " where ";
  EXPECT_NE(o.summary.find(sentence), std::string::npos) << o.summary;
  const std::string trace = "at k = 1 its thread tx=0, ty=0 of block (0,0) reads Mds[0][1] at line 24, which thread tx=1, ty=0 "
                            "filled at line 19 with M(1,0) = " + value(m.at(1, 0)) + ", where the reference reads M(0,1) = " +
                            value(m.at(0, 1)) + ": check the index at line 19";
  EXPECT_NE(o.summary.find(trace), std::string::npos) << o.summary;
  expectOnlyTheStudentsWords(o);
}

TEST(LabMistakes, ABarrierInABranchIsADivergenceAtItsLine) {
  const Ran r = run("sync_in_branch.cu");
  const LabOutcome& o = r.outcome;
  EXPECT_EQ(o.verdict, LabVerdict::Deadlocked) << o.summary;
  ASSERT_TRUE(o.where.has_value());
  EXPECT_EQ(o.where->line, r.line);  // the editor marks where it stopped
  EXPECT_NE(o.summary.find("__syncthreads() of line " + std::to_string(r.line)), std::string::npos) << o.summary;
  expectOnlyTheStudentsWords(o);
}

// `int tx = threadIdx.y;`: the run's P is all NaN, and the summary says where the first NaN came
// from (thread tx=0, ty=0 reads Mds[0][1] at line 24 at k = 1 before anything was written there, in
// phase 0; the tile's write is line 19: counted by hand on fig. 5.9 at T = 2), not only how many
// elements are NaN. The race lines name their phases, each pair once: the two phases repeat the
// same write-after-write of Mds[0][0] by threads (0,0) and (1,0) at line 19, and so do the
// 4 / 2 x 4 / 2 = 4 blocks: one line names the pair once, with its blocks.
TEST(LabMistakes, ASwappedThreadIndexSaysWhereTheNaNCameFrom) {
  const Ran r = run("thread_idx_swapped.cu");
  const LabOutcome& o = r.outcome;
  EXPECT_EQ(o.verdict, LabVerdict::WrongResult) << o.summary;
  EXPECT_NE(o.summary.find("a NaN in P comes from a shared slot read before any thread of its block wrote it: "
                           "thread tx=0, ty=0 of block (0,0) reads Mds[0][1] at line 24 in phase 0"),
            std::string::npos)
      << o.summary;
  EXPECT_NE(o.summary.find("the write into Mds at line 19"), std::string::npos) << o.summary;
  const std::string text = describeOutcome(o);
  EXPECT_NE(text.find("WAW on Mds[0][0] in blocks (0,0), (1,0), (0,1) and (1,1), phases 0 to 1: thread tx=0, ty=0 line 19 writes, "
                      "thread tx=1, ty=0 line 19 writes"),
            std::string::npos)
      << text;
  std::istringstream lines(text);
  std::vector<std::string> seen;
  for (std::string line; std::getline(lines, line);) {
    EXPECT_EQ(std::count(seen.begin(), seen.end(), line), 0) << "printed twice: " << line;
    seen.push_back(line);
  }
  expectOnlyTheStudentsWords(o);
}

// Issue 26: files that took the grader down through its diagnostics parser.
TEST(LabMistakes, AHugeErrorLineOrLineNumberIsAClearMessage) {
  const std::string book = readFile(std::filesystem::path(TILESCOPE_LAB_MISTAKES) / "undeclared_name.cu");
  const std::string longError = "#error " + std::string(40000, 'A') + "\n" + book;
  const Ran e = run("long_error.cu", longError);
  EXPECT_EQ(e.outcome.verdict, LabVerdict::CompileError);
  EXPECT_EQ(e.outcome.summary.rfind("compile error: long_error.cu:1: #error AAA", 0), 0u) << e.outcome.summary.substr(0, 200);
  EXPECT_LT(e.outcome.summary.size(), 600u);

  const std::string renamed = "#line 1 \"x.cu:99999999999999:1: error: y\"\n" + book;
  const Ran h = run("renamed.cu", renamed);
  EXPECT_EQ(h.outcome.verdict, LabVerdict::CompileError);
  ASSERT_FALSE(h.outcome.diagnostics.empty());
  EXPECT_EQ(h.outcome.diagnostics.front().file, "renamed.cu");
  EXPECT_GT(h.outcome.diagnostics.front().line, 0);  // something for the editor to mark
  EXPECT_NE(h.outcome.summary.find("#line directive"), std::string::npos) << h.outcome.summary;
}

}  // namespace
}  // namespace tilescope::lab
