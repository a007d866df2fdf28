// The lab's exercises: each starter kernel fails its grade and a reference solution (kept
// here, not in assets/) passes it; a malformed exercise is refused with its file and line;
// progress survives a save and a load.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "lab/exercise.h"
#include "lab/lab.h"
#include "lab/lab_sandbox.h"

namespace tilescope::lab {
namespace {

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(LabExercises, EveryStarterFailsAndItsSolutionPasses) {
  auto all = loadExercises(TILESCOPE_EXERCISES);
  ASSERT_TRUE(all.ok()) << all.error().message;
  // The six the issue asks for, at least.
  for (const char* id : {"bounds_jkl", "dynamic_shared", "corner_turning", "coarsening", "bank_padding", "missing_barrier"})
    EXPECT_TRUE(std::any_of(all->begin(), all->end(), [&](const Exercise& x) { return x.id == id; })) << id;
  int graded = 0;
  for (const Exercise& x : *all) {
    SCOPED_TRACE(x.id);
    auto starter = gradeExercise(x, x.starter, x.id + ".cu");
    ASSERT_TRUE(starter.ok()) << starter.error().message;
    EXPECT_FALSE(starter->passed);
    const std::filesystem::path solution = std::filesystem::path(TILESCOPE_LAB_SOLUTIONS) / (x.id + ".cu");
    ASSERT_TRUE(std::filesystem::exists(solution)) << "every exercise has a reference solution";
    auto solved = gradeExercise(x, readFile(solution), x.id + ".cu");
    ASSERT_TRUE(solved.ok()) << solved.error().message;
    for (const GradeItem& i : solved->items) EXPECT_TRUE(i.passed) << i.check << ": " << i.detail;
    EXPECT_TRUE(solved->passed);
    ++graded;
  }
  EXPECT_EQ(graded, int(all->size()));
}

TEST(LabExercises, TheStartersFailForTheReasonTheGoalGives) {
  // Hand-derived: fig. 5.9's starter on 5x7x3 reads past row ends; corner turning's starter
  // reads N a row apart per lane: 8 sectors for 32 words of N (128 of 256 bytes used), while
  // M's 32 words fill 4 sectors; the grade takes the least coalesced load line, N's: 0.5.
  auto corner = findExercise(std::string(TILESCOPE_EXERCISES) + "/corner_turning.exercise");
  ASSERT_TRUE(corner.ok()) << corner.error().message;
  auto g = gradeExercise(*corner, corner->starter, "corner_turning.cu");
  ASSERT_TRUE(g.ok());
  auto efficiency = measureMetric("load-efficiency", *g->measured);
  ASSERT_TRUE(efficiency.ok());
  EXPECT_NEAR(*efficiency, 128.0 / 256.0, 1e-9);

  // bank_padding's starter at 32x32x32, T = 16: a warp is two rows of 16 threads; its read
  // of NdsT[tx][kk] touches 16 words 16 floats apart, 8 in bank 0 or 16 each: 8 wavefronts,
  // 7 extra, for each of 8 warps x 16 steps x 2 phases x 4 blocks = 1024 requests.
  auto padding = findExercise(std::string(TILESCOPE_EXERCISES) + "/bank_padding.exercise");
  ASSERT_TRUE(padding.ok()) << padding.error().message;
  auto p = gradeExercise(*padding, padding->starter, "bank_padding.cu");
  ASSERT_TRUE(p.ok());
  auto conflicts = measureMetric("bank-conflicts", *p->measured);
  ASSERT_TRUE(conflicts.ok());
  EXPECT_EQ(*conflicts, 7.0 * 1024);
}

TEST(LabExercises, AMalformedExerciseIsRefusedWithFileAndLine) {
  auto x = parseExercise("title: t\ngoal: g\nsizes: 4,4,4\ncheck: max warp-happiness 3\nstarter:\n__global__ void k() {}\n",
                         "broken.exercise");
  ASSERT_FALSE(x.ok());
  EXPECT_NE(x.error().message.find("broken.exercise:4: unknown metric 'warp-happiness'"), std::string::npos)
      << x.error().message;
  auto y = parseExercise("title: t\nsizes: 4,4\n", "sizes.exercise");
  ASSERT_FALSE(y.ok());
  EXPECT_NE(y.error().message.find("sizes.exercise:2:"), std::string::npos) << y.error().message;
}

TEST(LabExercises, ProgressSurvivesASaveAndALoad) {
  const std::filesystem::path file = std::filesystem::path(::testing::TempDir()) / "lab-progress-test" / "progress";
  ASSERT_TRUE(saveProgress({{"bounds_jkl", true}, {"coarsening", false}}, file).ok());
  const auto p = loadProgress(file);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_TRUE(p.at("bounds_jkl"));
  EXPECT_FALSE(p.at("coarsening"));
}

}  // namespace
}  // namespace tilescope::lab

namespace tilescope::lab {
namespace {

// A lab run's Run names what ran (its kernel, its file, its text), not a built-in kernel:
// exports and the Source panel use it.
TEST(LabRuns, TheRunNamesTheStudentsKernel) {
  const std::string text = readFile(std::filesystem::path(TILESCOPE_LAB_SOLUTIONS) / "bounds_jkl.cu");
  LabRequest q;
  q.source = text;
  q.fileName = "alice.cu";
  q.dims = {5, 7, 3};
  q.block = Dim3{2, 2, 1};
  q.defines = {{"TILE_WIDTH", "2"}};  // the solution leaves its tile width to the launch
  q.sandbox = sandboxSupport().complete();  // where the kernel lacks Landlock or seccomp, unconfined
  auto outcome = runLab(q);
  ASSERT_TRUE(outcome.ok()) << outcome.error().message;
  ASSERT_TRUE(outcome->finished) << outcome->summary;
  const tilescope::Run& run = outcome->finished->run;
  const LabKernel* lab = labKernel(run);
  ASSERT_NE(lab, nullptr);  // the run's kernel is the lab kernel, not a built-in one
  EXPECT_FALSE(builtInKernel(run).has_value());
  EXPECT_EQ(lab->name, "matrixMulKernel");  // the file's __global__ function
  EXPECT_EQ(lab->fileName, "alice.cu");
  EXPECT_EQ(lab->text, text);
  EXPECT_EQ(kernelName(run), "matrixMulKernel");
  EXPECT_TRUE(run.plan.launch.labTiles.has_value());
}

}  // namespace
}  // namespace tilescope::lab
