// The Lab tab's GUI-free model (app/ui/model/lab_state.h): the request the fields describe, the
// settings a file's `// lab:` lines give, the #defines and further parameters read from the
// text, and the autosave that keeps unsaved work through a crash. Expected values are read
// off the files and the book's fig. 5.9 example by hand.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "ui/model/lab_state.h"

namespace tilescope::ui {
namespace {

namespace fs = std::filesystem;

fs::path tempDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("tilescope-lab-state-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& file, const std::string& text) {
  std::ofstream out(file);
  out << text;
}

std::string read(const fs::path& file) {
  std::ifstream in(file);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(LabState, Fig59ExampleOpensWithItsSettings) {
  LabState s;
  ASSERT_TRUE(openLabFile(s, TILESCOPE_LAB_EXAMPLES "/pmpp_fig5_9.cu")) << s.message;
  // The file: `#define TILE_WIDTH 16` on line 1, `// lab: define TILE_WIDTH=2`, `// lab: size 4`.
  EXPECT_FALSE(s.launch.useDims);
  EXPECT_EQ(s.launch.width, 4);
  ASSERT_EQ(s.launch.defines.size(), 1u);
  EXPECT_EQ(s.launch.defines[0].name, "TILE_WIDTH");
  EXPECT_EQ(s.launch.defines[0].value, "2");
  ASSERT_EQ(s.fileDefs.size(), 1u);
  EXPECT_EQ(s.fileDefs[0].line, 1);
  EXPECT_EQ(s.fileDefs[0].value, "16");
  EXPECT_TRUE(s.params.empty());  // M, N, P, Width: nothing further
  EXPECT_EQ(s.expect, "verified");
  EXPECT_FALSE(s.modified);

  const lab::LabRequest q = labRequest(s);
  EXPECT_EQ(q.fileName, "pmpp_fig5_9.cu");
  EXPECT_EQ(q.dims, (Dims{4, 4, 4}));
  EXPECT_FALSE(q.block.has_value());  // the lab's default: T x T from TILE_WIDTH
  EXPECT_FALSE(q.grid.has_value());   // enough blocks to cover P
  ASSERT_EQ(q.defines.size(), 1u);
}

TEST(LabState, FieldsMakeTheRequest) {
  LabState s;
  setLabText(s, "__global__ void k(float* A, float* B, float* C, int j, int k, int l, int n, float alpha) {}\n");
  EXPECT_EQ(s.params, (std::vector<std::string>{"n", "alpha"}));
  s.launch.useDims = true;
  s.launch.dims = {5, 7, 3};
  s.launch.defines = {{"TILE_WIDTH", "4"}, {"HALF", ""}};  // a define being typed (no value yet) is left out
  s.launch.blockX = 4, s.launch.blockY = 2;
  s.launch.gridX = 3, s.launch.gridY = 0;  // half a grid is no grid: the default
  s.launch.args = {{"n", 4}, {"alpha", 0.5}};
  s.launch.sharedBytes = 128;
  s.launch.timeoutSeconds = 1.5;
  const lab::LabRequest q = labRequest(s);
  EXPECT_EQ(q.fileName, "kernel.cu");
  EXPECT_EQ(q.dims, (Dims{5, 7, 3}));
  ASSERT_EQ(q.defines.size(), 1u);
  ASSERT_TRUE(q.block.has_value());
  EXPECT_EQ(q.block->x, 4u);
  EXPECT_EQ(q.block->y, 2u);
  EXPECT_FALSE(q.grid.has_value());
  ASSERT_EQ(q.args.size(), 2u);
  EXPECT_EQ(q.args[1].value, 0.5);
  EXPECT_EQ(q.sharedBytes, 128u);
  EXPECT_EQ(q.timeoutSeconds, 1.5);
}

TEST(LabState, DefinesAreReadWithTheirLines) {
  const auto d = fileDefines("// a kernel\n#define TILE_WIDTH 16  // the tile\n  #define SQR(x) ((x)*(x))\n#define  N 8\n");
  ASSERT_EQ(d.size(), 2u);  // SQR is a macro function, not a value to set
  EXPECT_EQ(d[0].name, "TILE_WIDTH");
  EXPECT_EQ(d[0].value, "16");
  EXPECT_EQ(d[0].line, 2);
  EXPECT_EQ(d[1].name, "N");
  EXPECT_EQ(d[1].line, 4);
}

TEST(LabState, AutosaveRestoresUnsavedTextAfterACrash) {
  const fs::path dir = tempDir("autosave");
  ::setenv("XDG_STATE_HOME", (dir / "state").c_str(), 1);  // where the app keeps it: $XDG_STATE_HOME/tilescope
  EXPECT_EQ(labAutosaveFile(), dir / "state" / "tilescope" / "lab-autosave.cu");
  const fs::path file = dir / "mine.cu";
  write(file, "__global__ void k(float* M, float* N, float* P, int Width) {}\n// lab: size 6\n");
  LabState s;
  ASSERT_TRUE(openLabFile(s, file.string()));
  setLabText(s, s.text + "// my unsaved line\n");
  tickLabAutosave(s, 10.0, 2.0);  // changed, and the interval has passed since the start
  EXPECT_EQ(s.autosavedEdits, s.edits);
  EXPECT_EQ(read(labAutosaveFile()), s.text);

  LabState after;  // the next start, the process having been killed
  initLabState(after);
  EXPECT_TRUE(after.restored);
  EXPECT_EQ(after.text, s.text);
  EXPECT_EQ(after.path, file.string());
  EXPECT_TRUE(after.modified);       // differs from the file on disk
  EXPECT_EQ(after.launch.width, 6);  // the text's own `// lab:` lines
  ::unsetenv("XDG_STATE_HOME");
  fs::remove_all(dir);
}

TEST(LabState, AutosaveWaitsForTheIntervalAndForAChange) {
  LabState s;
  s.lastAutosave = 100.0;
  s.edits = s.autosavedEdits = 3;
  tickLabAutosave(s, 200.0, 2.0);  // nothing changed: nothing written
  EXPECT_EQ(s.lastAutosave, 100.0);
  ++s.edits;
  tickLabAutosave(s, 101.0, 2.0);  // changed, but within the interval
  EXPECT_EQ(s.lastAutosave, 100.0);
}

TEST(LabState, OpeningOverUnsavedTextKeepsItToBringBack) {
  const fs::path dir = tempDir("replace");
  write(dir / "a.cu", "// a\n");
  LabState s;
  setLabText(s, "// my work\n");
  ASSERT_TRUE(openLabFile(s, (dir / "a.cu").string()));
  ASSERT_TRUE(s.replaced.has_value());
  EXPECT_EQ(s.replaced->first, "// my work\n");
  // Saved text is on disk already: nothing to keep.
  ASSERT_TRUE(saveLabFile(s, (dir / "b.cu").string()));
  s.replaced.reset();
  ASSERT_TRUE(openLabFile(s, (dir / "a.cu").string()));
  EXPECT_FALSE(s.replaced.has_value());
  EXPECT_EQ(read(dir / "b.cu"), "// a\n");
  fs::remove_all(dir);
}

TEST(LabState, ExerciseStarterComesWithItsLaunch) {
  auto x = lab::findExercise(TILESCOPE_EXERCISES "/bounds_jkl.exercise");
  ASSERT_TRUE(x) << x.error().message;
  LabState s;
  openExercise(s, *x);
  EXPECT_EQ(s.exercise, "bounds_jkl");
  EXPECT_EQ(s.text, x->starter);
  // bounds_jkl.exercise: define TILE_WIDTH=4, sizes 8,8,8 first.
  EXPECT_EQ(s.launch.width, 8);
  ASSERT_EQ(s.launch.defines.size(), 1u);
  EXPECT_EQ(s.launch.defines[0].value, "4");
}

}  // namespace
// The Occupancy panel's registers for a lab run: NVRTC's count on the GPU, none on the
// emulator (the analysis falls back to the profile's estimate and names it).
TEST(LabResources, TheGpuRunsRegistersReachTheOccupancyPanel) {
  KernelLaunch L;
  L.kernel = KernelId::Naive;
  L.j = L.k = L.l = 32;
  L.blockX = L.blockY = 16;
  L.gridX = L.gridY = 2;
  lab::LabOutcome emulated;
  EXPECT_EQ(labResources(L, emulated).registersPerThread, 0);
  lab::LabOutcome onGpu;
  onGpu.gpu = lab::LabGpuFacts{"NVIDIA H100 80GB HBM3, sm_90", 40, 72, 0, 0};
  const KernelResources r = labResources(L, onGpu);
  EXPECT_EQ(r.registersPerThread, 40);
  EXPECT_EQ(r.threadsPerBlock, 256);
  EXPECT_NE(r.registersSource.find("NVRTC"), std::string::npos);
  EXPECT_NE(r.registersSource.find("H100"), std::string::npos);
}

}  // namespace tilescope::ui
