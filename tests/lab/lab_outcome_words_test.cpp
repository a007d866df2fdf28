// What a lab run tells the student, held to facts counted by hand: the launch planned by the
// core's one door (grid, threads, the refusals in its words), what the kernel's device printf
// wrote (escaped, bounded, with a note when cut), and a shared-memory hazard in a teacher's
// words (the array, the two threads, the two lines, the barrier that is missing); and what a
// GPU's trace may differ from the interpreter's in (--backend cuda compares them).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/run/launch_door.h"
#include "lab/exercise.h"
#include "lab/interp/interp.h"
#include "lab/lab.h"
#include "lab/lab_trace_compare.h"
#include "test_support.h"

namespace tilescope::lab {
namespace {

LabRequest request(std::string source, Dims dims, std::optional<Dim3> block = std::nullopt) {
  LabRequest q;
  q.source = std::move(source);
  q.fileName = "student.cu";
  q.dims = dims;
  q.block = block;
  q.seed = testing::freshSeed();
  return q;
}

const char* const kNaive = R"(__global__ void naive(float* M, float* N, float* P, int j, int k, int l) {
  int Row = blockIdx.y * blockDim.y + threadIdx.y, Col = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row < j && Col < l) { float s = 0; for (int i = 0; i < k; ++i) s += M[Row*k + i] * N[i*l + Col]; P[Row*l + Col] = s; }
}
)";

// --- the door ------------------------------------------------------------------------------

// 6 x 5 x 7 with 4 x 4 blocks: ceil(7/4) = 2 columns of blocks, ceil(6/4) = 2 rows, 64 threads;
// the run that finishes is planned with that launch, as a built-in kernel's is.
TEST(LabDoor, TheLaunchIsTheDoorsPlan) {
  auto o = runLabInterpreted(request(kNaive, {6, 5, 7}, Dim3{4, 4, 1}));
  ASSERT_TRUE(o.ok()) << o.error().message;
  EXPECT_EQ(o->verdict, LabVerdict::Verified) << o->summary;
  const LaunchPlan& plan = o->launch.plan;
  EXPECT_EQ(plan.launch.gridX, 2u);
  EXPECT_EQ(plan.launch.gridY, 2u);
  EXPECT_EQ(plan.threads, 64u);
  ASSERT_TRUE(o->launch.config.givenShape);
  auto again = planLaunch(o->launch.config, true);  // the door answers the same for the same description
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->threads, 64u);
  ASSERT_TRUE(o->finished);
  const tilescope::Run& run = o->finished->run;
  EXPECT_EQ(run.config, o->launch.config);
  EXPECT_EQ(run.plan.launch.gridX, 2u);
  EXPECT_EQ(run.plan.launch.blockY, 4u);
  EXPECT_TRUE(run.plan.launch.labTiles.has_value());  // a lab kernel: its tiles from its declarations
  EXPECT_EQ(run.trace->launch.gridY, 2u);
}

// The door's refusals, in its words: 2048^3 = 8 Gi multiply-adds is over the emulator's 256 Mi,
// and a block of 64 x 32 = 2048 threads is over 1024.
TEST(LabDoor, RefusesInTheDoorsWords) {
  auto big = runLabInterpreted(request(kNaive, {2048, 2048, 2048}, Dim3{16, 16, 1}));
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.error().message.find("2048^3 = 8 Gi multiply-adds is over the emulator's limit of 256 Mi"),
            std::string::npos)
      << big.error().message;
  auto wide = runLabInterpreted(request(kNaive, {8, 8, 8}, Dim3{64, 32, 1}));
  ASSERT_FALSE(wide.ok());
  EXPECT_NE(wide.error().message.find("block 64x32 is out of range"), std::string::npos) << wide.error().message;
}

// --- device printf -------------------------------------------------------------------------

const char* const kPrinting = R"(__global__ void naive(float* M, float* N, float* P, int j, int k, int l) {
  int Row = blockIdx.y * blockDim.y + threadIdx.y, Col = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row == 0 && Col == 1) printf("thread %d of row %d:\tk=%d\x07\n", Col, Row, k);
  if (Row < j && Col < l) { float s = 0; for (int i = 0; i < k; ++i) s += M[Row*k + i] * N[i*l + Col]; P[Row*l + Col] = s; }
}
)";

TEST(LabPrintf, TheKernelsOutputIsShownEscaped) {
  auto o = runLabInterpreted(request(kPrinting, {4, 3, 4}, Dim3{2, 2, 1}));
  ASSERT_TRUE(o.ok()) << o.error().message;
  EXPECT_EQ(o->verdict, LabVerdict::Verified) << o->summary;
  // The interpreter keeps \x escapes out of a format ('?'); a tab is a control byte.
  EXPECT_EQ(o->printed, "thread 1 of row 0:\tk=3?\n");
  EXPECT_FALSE(o->printedTruncated);
  // The Lab tab shows describeOutcome without a terminal's escaping: the tab as \x09.
  const std::string shown = describeOutcome(*o);
  EXPECT_NE(shown.find("  the kernel printed:\n    | thread 1 of row 0:\\x09k=3?\n"), std::string::npos) << shown;
  EXPECT_EQ(shown.find("(cut"), std::string::npos) << shown;
}

// 8 x 8 threads, each printing "t" and two digits and a newline: 64 lines of 4 bytes. The report
// shows 40 of them and says the other 24 lines, 96 bytes, were not shown.
TEST(LabPrintf, LongOutputIsCutWithANote) {
  const char* source = R"(__global__ void naive(float* M, float* N, float* P, int j, int k, int l) {
  int Row = blockIdx.y * blockDim.y + threadIdx.y, Col = blockIdx.x * blockDim.x + threadIdx.x;
  printf("t%02d\n", Row * 8 + Col);
  if (Row < j && Col < l) { float s = 0; for (int i = 0; i < k; ++i) s += M[Row*k + i] * N[i*l + Col]; P[Row*l + Col] = s; }
}
)";
  auto o = runLabInterpreted(request(source, {8, 8, 8}, Dim3{8, 8, 1}));
  ASSERT_TRUE(o.ok()) << o.error().message;
  EXPECT_EQ(o->printed.size(), 256u);
  const std::string shown = describePrinted(*o);
  EXPECT_EQ(std::count(shown.begin(), shown.end(), '|'), 40) << shown;
  EXPECT_NE(shown.find("    | t00\n"), std::string::npos) << shown;
  EXPECT_NE(shown.find("(cut: 24 more lines, 96 more bytes not shown)"), std::string::npos) << shown;
}

// The interpreter keeps the first MiB a launch prints: 16 threads x 20 000 lines of 16 bytes
// (5 MB) leave exactly kMaxPrintedBytes, and the report says the rest was not kept.
TEST(LabPrintf, TheInterpreterKeepsTheFirstMiB) {
  const char* source = R"(__global__ void naive(float* M, float* N, float* P, int j, int k, int l) {
  for (int i = 0; i < 20000; ++i) printf("%015d\n", i);
  int Row = blockIdx.y * blockDim.y + threadIdx.y, Col = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row < j && Col < l) { float s = 0; for (int i = 0; i < k; ++i) s += M[Row*k + i] * N[i*l + Col]; P[Row*l + Col] = s; }
}
)";
  auto o = runLabInterpreted(request(source, {4, 4, 4}, Dim3{4, 4, 1}));
  ASSERT_TRUE(o.ok()) << o.error().message;
  EXPECT_EQ(o->printed.size(), interp::kMaxPrintedBytes);
  EXPECT_TRUE(o->printedTruncated);
  EXPECT_NE(describePrinted(*o).find("the lab keeps only the first 1 MiB a launch prints"), std::string::npos);
}

// --- a hazard in a teacher's words -----------------------------------------------------------

// The tiled kernel of the missing_barrier exercise with its barriers as the book has them, or
// without the first (after the tiles are loaded, line 9) or the second (at the phase's end).
std::string tiled(bool firstBarrier, bool secondBarrier) {
  std::string s = R"(#define TILE_WIDTH 4
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x; int ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty, Col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < (k + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
        Mds[ty][tx] = Row < j && ph*TILE_WIDTH + tx < k ? M[Row*k + ph*TILE_WIDTH + tx] : 0.0f;
        Nds[ty][tx] = ph*TILE_WIDTH + ty < k && Col < l ? N[(ph*TILE_WIDTH + ty)*l + Col] : 0.0f;
)";
  s += firstBarrier ? "        __syncthreads();\n" : "        // (no barrier here)\n";
  s += "        for (int kk = 0; kk < TILE_WIDTH; ++kk) Pvalue += Mds[ty][kk] * Nds[kk][tx];\n";
  s += secondBarrier ? "        __syncthreads();\n" : "        // (no barrier here)\n";
  s += "    }\n    if (Row < j && Col < l) P[Row*l + Col] = Pvalue;\n}\n";
  return s;
}

// Without the first barrier, at 8 x 8 x 8 with 4 x 4 tiles: 2 x 2 blocks, 2 phases. In each block
// and phase, thread (0,0) writes Mds[0][0] at line 9 and thread (1,0), in the same row, reads it
// at line 12 (Mds[ty][kk] with kk = 0) with no barrier between: a RAW, on Mds and likewise on
// Nds, so 4 blocks x 2 phases x 2 tiles = 16 groups. The sentence names the student's array, the
// two threads, the two lines and where the __syncthreads() goes.
TEST(LabHazardWords, TheFirstBarrierMissing) {
  auto o = runLabInterpreted(request(tiled(false, true), {8, 8, 8}));
  ASSERT_TRUE(o.ok()) << o.error().message;
  EXPECT_EQ(o->hazards().size(), 16u);
  EXPECT_EQ(o->hazardSentence,
            "thread tx=0, ty=0 writes Mds[0][0] at line 9 and thread tx=1, ty=0 reads it at line 12 with no "
            "__syncthreads() between them, so the read may come first and get an old value: a __syncthreads() is "
            "missing between line 9 and line 12, so that the whole tile is written before any thread reads it "
            "(in 4 blocks, phases 0 to 1)");
}

// Without the second: thread (1,0) reads Mds[0][0] at line 12 in phase 0, and thread (0,0)
// overwrites it at line 9 for phase 1 in the same barrier interval: a WAR, one phase boundary
// per block (phase 0 to 1 only), so the barrier goes after line 12.
TEST(LabHazardWords, TheSecondBarrierMissing) {
  auto o = runLabInterpreted(request(tiled(true, false), {8, 8, 8}));
  ASSERT_TRUE(o.ok()) << o.error().message;
  ASSERT_FALSE(o->hazards().empty());
  EXPECT_EQ(o->hazardSentence,
            "thread tx=1, ty=0 reads Mds[0][0] at line 12 and thread tx=0, ty=0 overwrites it at line 9 with no "
            "__syncthreads() between them, so the write may come first and the read get the next value: a "
            "__syncthreads() is missing after line 12, before the next phase reaches line 9, so that every thread "
            "has finished reading the tile before it is loaded again (in 4 blocks, phase 0)");
}

TEST(LabHazardWords, NoneWithBothBarriers) {
  auto o = runLabInterpreted(request(tiled(true, true), {8, 8, 8}));
  ASSERT_TRUE(o.ok()) << o.error().message;
  EXPECT_EQ(o->verdict, LabVerdict::Verified) << o->summary;
  EXPECT_TRUE(o->hazardSentence.empty());
}

// lab check names the hazard once, in those words, not a count of groups and the summary again.
TEST(LabHazardWords, TheExerciseCheckNamesItOnce) {
  auto x = findExercise(std::string(TILESCOPE_EXERCISES) + "/missing_barrier.exercise");
  ASSERT_TRUE(x.ok()) << x.error().message;
  LabRequest base;
  base.seed = testing::freshSeed();
  auto g = gradeExercise(*x, tiled(true, false), "student.cu", base);
  ASSERT_TRUE(g.ok()) << g.error().message;
  const auto item = std::find_if(g->items.begin(), g->items.end(), [](const GradeItem& i) { return i.check == "no hazards"; });
  ASSERT_NE(item, g->items.end());
  EXPECT_FALSE(item->passed);
  EXPECT_TRUE(item->detail.starts_with("at 8x8x8, thread tx=1, ty=0 reads Mds[0][0] at line 12")) << item->detail;
  EXPECT_EQ(item->detail.find("hazard groups"), std::string::npos) << item->detail;
}

// --- the GPU's trace held to the interpreter's --------------------------------------------------

// compareWithGpu on the interpreter's own trace of the tiled kernel at 8x8x8, against copies
// altered as a GPU might: itself is the same; a sum off by an FMA's rounding is the same; one
// shared read's value is a difference, unless the kernel races (then no shared read's value is
// compared); a barrier the "GPU" skipped (thread (0,0)'s first, its third event after two
// loads) is a difference named at that event.
TEST(LabGpuTrace, OnlyWhatAGpuLeavesUndefinedMayDiffer) {
  auto o = runLabInterpreted(request(tiled(true, true), {8, 8, 8}));
  ASSERT_TRUE(o.ok() && o->finished && o->finished->run.trace) << (o ? o->summary : o.error().message);
  const Trace& lab = *o->finished->run.trace;
  EXPECT_EQ(compareWithGpu(lab, lab, false).differences, 0);

  Trace sums = lab;
  for (Event& e : sums.events)
    if (e.op == Op::StoreP) e.value = std::nextafter(e.value, 1e9f);  // one ulp: an FMA's rounding
  EXPECT_EQ(compareWithGpu(lab, sums, false).differences, 0);

  Trace reads = lab;
  std::size_t read = 0;
  while (reads.events[read].op != Op::ReadM) ++read;
  reads.events[read].value += 1.0f;
  EXPECT_EQ(compareWithGpu(lab, reads, false).differences, 1);
  EXPECT_EQ(compareWithGpu(lab, reads, true).differences, 0);

  Trace skipped = lab;
  std::size_t barrier = 0;
  while (skipped.events[barrier].op != Op::Barrier) ++barrier;
  skipped.events.erase(skipped.events.begin() + long(barrier));
  const TraceDifference d = compareWithGpu(lab, skipped, false);
  EXPECT_GT(d.differences, 0);
  EXPECT_TRUE(d.first.starts_with("event " + std::to_string(barrier + 1) + " is barrier at line 11 by block (0,0) thread tx=0, ty=0")) << d.first;
  EXPECT_NE(d.first.find("in the lab's run and"), std::string::npos) << d.first;
}

}  // namespace
}  // namespace tilescope::lab
