// The grader red-teamed again (review of session 11, findings F1, F2, F3, F6, F7, F12): each
// attack, kept in tests/fixtures/lab/hostile, fails its exercise with a message that names what
// is wrong, and the reference solutions still pass (lab_exercise_test). Files that forge P
// carry tables computed for seed 1, so they are graded at seed 1 here: each must fail by the
// check that closes its hole, not merely because a fresh seed changed the answer.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <tuple>
#include <vector>

#include "lab/exercise.h"
#include "lab/lab.h"
#include "lab/lab_source.h"

namespace tilescope::lab {
namespace {

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
std::string hostile(const std::string& name) { return readFile(std::filesystem::path(TILESCOPE_LAB_HOSTILE) / name); }
std::string solution(const std::string& name) { return readFile(std::filesystem::path(TILESCOPE_LAB_SOLUTIONS) / name); }
Exercise exercise(const std::string& id) {
  auto x = findExercise(std::string(TILESCOPE_EXERCISES) + "/" + id + ".exercise");
  EXPECT_TRUE(x.ok()) << x.error().message;
  return x.ok() ? *x : Exercise{};
}
Grade grade(const std::string& id, const std::string& file, uint64_t seed = 1) {
  LabRequest base;
  base.seed = seed;
  auto g = gradeExercise(exercise(id), hostile(file), file, base);
  EXPECT_TRUE(g.ok()) << g.error().message;
  return g.ok() ? *g : Grade{};
}
const GradeItem* item(const Grade& g, const std::string& check) {
  for (const GradeItem& i : g.items)
    if (i.check == check) return &i;
  return nullptr;
}
std::string items(const Grade& g) {
  std::string s;
  for (const GradeItem& i : g.items) s += (i.passed ? "pass " : "FAIL ") + i.check + ": " + i.detail + "\n";
  return s;
}

// F1: no load of M or N, P's values written into the tiles as "boundary fills".
TEST(LabGradeTrust, ABoundaryFillThatIsNotZeroIsNoElementOfM) {
  const Grade g = grade("bounds_jkl", "forge_zero_fill_constants.cu");
  EXPECT_FALSE(g.passed) << items(g);
  const GradeItem* i = item(g, "the trace accounts for P at 8x8x8");
  ASSERT_NE(i, nullptr) << items(g);
  EXPECT_FALSE(i->passed);
  // Thread tx=0, ty=0 writes P[0][0] for seed 1 (2.324848) into slot (0,0) at line 19.
  for (const char* words : {"thread tx=0, ty=0 of block (0,0) wrote 2.324848", "M tile's slot (0,0)", "at line 19",
                            "no element of M", "not 0"})
    EXPECT_NE(i->detail.find(words), std::string::npos) << words << "\n" << i->detail;
}

// F1: each grade's inputs come from the seed it is given, and the seed is the grade's.
TEST(LabGradeTrust, TheGradeKeepsItsSeedAndASolutionPassesAtAnother) {
  LabRequest base;
  base.seed = 987654321;
  auto g = gradeExercise(exercise("bounds_jkl"), solution("bounds_jkl.cu"), "bounds_jkl.cu", base);
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_TRUE(g->passed) << items(*g);
  EXPECT_EQ(g->seed, 987654321u);
  ASSERT_TRUE(g->measured && g->measured->finished);
  EXPECT_EQ(g->measured->finished->run.config.seed, 987654321u);
  // The forgery's tables are seed 1's: at another seed its P is simply wrong.
  EXPECT_FALSE(grade("bounds_jkl", "forge_zero_fill_constants.cu", 2).passed);
}

// F6 + F7: a size whose trace overflowed is not graded as passing.
TEST(LabGradeTrust, ASizeWhoseTraceOverflowedFailsItsChecks) {
  const Grade g = grade("bounds_jkl", "forge_trace_overflow.cu");
  EXPECT_FALSE(g.passed) << items(g);
  for (const char* check : {"correct at 5x7x3", "the trace accounts for P at 5x7x3", "no hazards",
                            "max global-loads-per-multiply-add 0.75 at 5x7x3, 9x4x6"}) {
    const GradeItem* i = item(g, check);
    ASSERT_NE(i, nullptr) << check << "\n" << items(g);
    EXPECT_FALSE(i->passed) << check;
  }
  EXPECT_NE(item(g, "correct at 5x7x3")->detail.find("the trace of 5x7x3 grew past its bound"), std::string::npos);
  EXPECT_NE(item(g, "correct at 5x7x3")->detail.find("this size cannot be checked"), std::string::npos);
  // The race the overflow used to hide is not passed over either.
  const Grade racy = grade("bounds_jkl", "race_hidden_by_overflow.cu");
  const GradeItem* hazards = item(racy, "no hazards");
  ASSERT_NE(hazards, nullptr) << items(racy);
  EXPECT_FALSE(hazards->passed) << hazards->detail;
}

// F7: every metric is measured at every size it names, the worst value graded.
TEST(LabGradeTrust, AMetricIsMeasuredAtEverySizeNotTheFirstOnly) {
  const Grade g = grade("bounds_jkl", "metric_first_size_only.cu", 5);
  const GradeItem* first = item(g, "max global-loads-per-multiply-add 0.5 at 8x8x8");
  const GradeItem* others = item(g, "max global-loads-per-multiply-add 0.75 at 5x7x3, 9x4x6");
  ASSERT_TRUE(first && others) << items(g);
  EXPECT_TRUE(first->passed) << first->detail;
  EXPECT_FALSE(others->passed);
  EXPECT_EQ(others->detail, "measured 2 at 5x7x3, 2 at 9x4x6 (each multiply-add reads M and N from global memory: "
                            "the kernel does not use tiles in shared memory, which this exercise is about)");
  EXPECT_FALSE(g.passed);
}

// The `at` of a metric check: parsed, named, and refused when it names no size of the exercise.
TEST(LabGradeTrust, AMetricCheckNamesTheSizesItIsMeasuredAt) {
  const std::string head = "title: t\ngoal: g\nsizes: 8,8,8 5,7,3\n";
  auto x = parseExercise(head + "check: max global-loads-per-multiply-add 0.5 at 8,8,8\nstarter:\nk\n", "a.exercise");
  ASSERT_TRUE(x.ok()) << x.error().message;
  ASSERT_EQ(x->checks.size(), 1u);
  EXPECT_EQ(checkName(x->checks[0]), "max global-loads-per-multiply-add 0.5 at 8x8x8");
  auto y = parseExercise(head + "check: max bank-conflicts 0 at 4,4,4\nstarter:\nk\n", "b.exercise");
  ASSERT_FALSE(y.ok());
  EXPECT_NE(y.error().message.find("4x4x4 is not one of the sizes"), std::string::npos) << y.error().message;
  auto z = parseExercise(head + "check: max bank-conflicts 0 on 8,8,8\nstarter:\nk\n", "c.exercise");
  ASSERT_FALSE(z.ok());
  EXPECT_NE(z.error().message.find("c.exercise:4: check max bank-conflicts 0 takes 'at J,K,L ...'"), std::string::npos)
      << z.error().message;
}

// F12 (2): a read of P back does not exempt a thread from the accounting.
TEST(LabGradeTrust, AReadOfPBackExemptsNoThread) {
  const Grade g = grade("bounds_jkl", "forge_read_back.cu");
  EXPECT_FALSE(g.passed) << items(g);
  const GradeItem* i = item(g, "the trace accounts for P at 8x8x8");
  ASSERT_NE(i, nullptr) << items(g);
  EXPECT_NE(i->detail.find("its recorded multiply-adds sum to 0 (it recorded none)"), std::string::npos) << i->detail;
}

// F12 (1) and F3: refused before anything runs, at the line: a struct in shared memory is
// outside the lab's subset, and so is code an unbalanced #if 0 leaves at namespace scope (the
// interpreter reads what the preprocessor left, as the compiler would).
LabOutcome interpreted(const std::string& source, const std::string& file) {
  LabRequest q;
  q.source = source;
  q.fileName = file;
  q.defines = {{"TILE_WIDTH", "4"}};
  q.dims = {8, 8, 8};
  auto o = runLabInterpreted(q);
  EXPECT_TRUE(o.ok()) << o.error().message;
  return o.ok() ? *o : LabOutcome{};
}
TEST(LabGradeTrust, ASharedStructAndCodeInsideAnIfAreRefusedAtTheirLine) {
  for (const auto& [file, line, words] :
       std::vector<std::tuple<std::string, int, std::string>>{
           {"forge_shared_struct.cu", 4, "structs are outside the lab's CUDA subset"},
           {"scope_if0_unbalanced.cu", 7, "host code is outside the lab"}}) {
    SCOPED_TRACE(file);
    const LabOutcome o = interpreted(hostile(file), file);
    EXPECT_EQ(o.verdict, LabVerdict::CompileError) << o.summary;
    ASSERT_FALSE(o.diagnostics.empty());
    EXPECT_EQ(o.diagnostics.front().line, line) << o.diagnostics.front().message;
    EXPECT_NE(o.diagnostics.front().message.find(words), std::string::npos) << o.diagnostics.front().message;
  }
  // What the book writes stays accepted.
  const LabOutcome ok = interpreted("#ifndef TILE_WIDTH\n#define TILE_WIDTH 16\n#endif\n" + solution("bounds_jkl.cu"), "ok.cu");
  EXPECT_EQ(ok.verdict, LabVerdict::Verified) << ok.summary;
  const LabOutcome no = interpreted("struct S { float f; int i; };\n__global__ void k(float* M, float* N, float* P, int j, "
                                    "int k, int l) {\n  __shared__ S s[4];\n}\n", "no.cu");
  EXPECT_EQ(no.verdict, LabVerdict::CompileError) << no.summary;
  ASSERT_FALSE(no.diagnostics.empty());
  EXPECT_EQ(no.diagnostics.front().line, 1) << no.diagnostics.front().message;
}

// F2: the naive kernel with four barriers fails every exercise; the two whose goal is about
// shared tiles say why.
TEST(LabGradeTrust, ANaiveKernelFailsEveryExercise) {
  auto all = loadExercises(TILESCOPE_EXERCISES);
  ASSERT_TRUE(all.ok()) << all.error().message;
  for (const Exercise& x : *all) {
    SCOPED_TRACE(x.id);
    LabRequest base;
    base.seed = 3;
    auto graded = gradeExercise(x, hostile("naive_with_barriers.cu"), "naive_with_barriers.cu", base);
    if (!graded.ok()) continue;  // refused outright (dynamic_shared's arguments): no grade at all
    const Grade& g = *graded;
    EXPECT_FALSE(g.passed) << items(g);
    if (x.id != "missing_barrier" && x.id != "bank_padding") continue;
    bool why = false;
    for (const GradeItem& i : g.items)
      why |= !i.passed && i.detail.find("does not use tiles in shared memory") != std::string::npos;
    EXPECT_TRUE(why) << items(g);
  }
}

}  // namespace
}  // namespace tilescope::lab
