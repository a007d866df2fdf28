// The views of the panels that are not pictures of the cursor (Counters, Hazards, Bug gallery,
// Occupancy, Lesson, Controls) and the hovered cells' tooltips, built without a window from the
// book's 4 x 4 example (book_example.h) and held to hand counts: in the book's tiled kernel each
// of the 4 blocks loads 2 elements per thread per phase (one of M, one of N), 2 phases of 4
// threads, so 64 global loads for 64 multiply-adds where the naive kernel loads 128.
#include <gtest/gtest.h>

#include <string>

#include "book_example.h"
#include "core/run/device_profile.h"
#include "core/teaching/bugs.h"
#include "ui/model/cell_tips.h"
#include "ui/model/controls_view.h"
#include "ui/model/counters_view.h"
#include "ui/model/hazards_view.h"
#include "ui/model/lesson_view.h"
#include "ui/model/occupancy_view.h"
#include "ui/model/shared_view.h"
#include "ui/model/thread_story.h"

namespace tilescope::ui {
namespace {

std::string exact(const CountersView& v, std::string_view name) {
  const CounterLine* line = v.line(name);
  return line ? line->exact : "(no line)";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(CountersView, TheWholeRunLoadsHalfWhatTheNaiveKernelWouldForTheSameMultiplyAdds) {
  const BookExample book;
  const CountersView v = countersView(*book.run, book.run->timeline.end(), {});
  EXPECT_EQ(exact(v, "loaded so far / run"), "64 / 64");
  EXPECT_EQ(exact(v, "naive, same k steps"), "128");
  EXPECT_EQ(exact(v, "saving"), "2.00x");  // T = 2
  EXPECT_EQ(exact(v, "bytes loaded"), "256 B");
  EXPECT_EQ(exact(v, "FLOPs"), "128");
  EXPECT_EQ(exact(v, "OP/B"), "0.500");  // 0.25 T
  EXPECT_EQ(exact(v, "shared reads"), "128");
  EXPECT_EQ(exact(v, "loads / multiply-add"), "1.000");  // 2 / T
  EXPECT_EQ(exact(v, "shared reads / multiply-add"), "2.000");
  EXPECT_EQ(exact(v, "zero-filled"), "0");
  EXPECT_EQ(exact(v, "P stored"), "16 / 16");
  EXPECT_EQ(exact(v, "phases done"), "2 / 2");
}

TEST(CountersView, AfterPhaseZerosLoadsTheTilesAreInAndNoMultiplyAddIsDone) {
  const BookExample book;
  const CountersView v = countersView(*book.run, book.stepOf(0, StepKind::Load), {});
  EXPECT_EQ(exact(v, "loaded so far / run"), "32 / 64");  // 4 blocks x 4 threads x 2, all blocks in lockstep
  EXPECT_EQ(exact(v, "naive, same k steps"), "0");
  EXPECT_EQ(v.line("saving"), nullptr) << "no ratio before the first multiply-add";
  EXPECT_EQ(v.line("loads / multiply-add"), nullptr);
  // On a projector: the five lines the lessons speak of, of which three exist before a multiply-add.
  const CountersView strip = countersView(*book.run, book.run->timeline.end(), {.presenter = true});
  ASSERT_EQ(strip.lines.size(), 5u);
  EXPECT_EQ(strip.lines[0].name, "loaded so far / run");
  EXPECT_EQ(strip.lines[4].name, "loads / multiply-add");
}

TEST(HazardsView, TheBooksKernelHasNoHazardAndTheLeftOutFirstBarrierHasReadAfterWriteOnes) {
  const BookExample book;
  const AnalysisReport analysis = analyzeRun(*book.run, *profileByName("h100"));
  const HazardsView v = hazardsView(*book.run, analysis);
  EXPECT_TRUE(v.rows.empty());
  EXPECT_EQ(v.wrong, 0u);
  EXPECT_TRUE(contains(v.verification, "verified")) << v.verification;

  const BookExample racy(testing::tiledConfig(KernelId::TiledNoFirstSync, {4, 4, 4}, 2, testing::freshSeed()));
  const HazardsView r = hazardsView(*racy.run, analyzeRun(*racy.run, *profileByName("h100")));
  ASSERT_FALSE(r.rows.empty());
  for (const HazardRow& h : r.rows) {
    EXPECT_EQ(h.race.rfind("RAW, block (", 0), 0u) << h.race;  // read-after-write
    EXPECT_TRUE(contains(h.race, "Mds[") || contains(h.race, "Nds[")) << h.race;
    EXPECT_TRUE(contains(h.first, "writes")) << h.first;  // the load, then the k loop's read
    EXPECT_TRUE(contains(h.second, "reads")) << h.second;
    EXPECT_GE(h.pairs, 1u);
  }
  EXPECT_TRUE(contains(r.order, "order the emulator ran")) << r.order;
}

// The emulator runs each thread to its barrier before the next starts. Without the first
// barrier, in every block and phase thread (0,0) reads Mds[0][1] and Nds[1][0] before threads
// (1,0) and (0,1) wrote them, thread (1,0) reads Nds[1][1] and thread (0,1) Mds[1][1] before
// thread (1,1) wrote it: 4 stale reads, times 4 blocks and 2 phases = 32.
TEST(BugGalleryView, TheLeftOutFirstBarrierShowsThirtyTwoStaleReads) {
  const Bug* bug = findBug("no-first-sync");
  ASSERT_NE(bug, nullptr);
  auto config = bugConfig(*bug, false, testing::freshSeed());
  ASSERT_TRUE(config.ok()) << config.error().message;
  const BookExample racy(*config);
  const BugGalleryView v = bugGalleryView(*racy.run);
  ASSERT_TRUE(v.gallery);
  EXPECT_EQ(v.onScreen, "On screen: " + std::string(bug->title) + " (buggy)");
  bool staleLine = false;
  for (const EvidenceLine& line : v.evidence)
    if (contains(line.text, "stale shared-memory reads")) {
      staleLine = true;
      EXPECT_EQ(line.text, "32 stale shared-memory reads");
      EXPECT_TRUE(line.bad);
    }
  EXPECT_TRUE(staleLine);
  // The book's own launch is that bug's fix, and k-typo's, first in the gallery's order (the
  // one named): the same symptoms counted, none shown.
  const BugGalleryView fixed = bugGalleryView(*BookExample().run);
  ASSERT_TRUE(fixed.gallery);
  EXPECT_EQ(fixed.onScreen, "On screen: " + std::string(findBug("k-typo")->title) + " (fixed)");
  for (const EvidenceLine& line : fixed.evidence) EXPECT_FALSE(line.bad) << line.text;
  EXPECT_EQ(fixed.evidence.front().text, "P matches the reference");
  EXPECT_FALSE(bugGalleryView(*BookExample(testing::tiledConfig(KernelId::Tiled, {4, 4, 4}, 4, 1)).run).gallery)
      << "T = 4 is no gallery launch";
}

// The book's 2 x 2 blocks on the tutorial's SM (8 block slots, 1536 thread slots): 8 blocks of
// one warp each, 8 of 48 warp slots; the 4 blocks of the grid are one wave on its one SM.
TEST(OccupancyView, TheBooksTinyBlocksAreLimitedByBlockSlots) {
  const BookExample book;
  const DeviceProfile textbook = *profileByName("textbook");
  const OccupancyView v = occupancyView(*book.run, analyzeRun(*book.run, textbook), textbook, {"textbook", 0});
  EXPECT_EQ(v.limits[1].value, "8  <- limit");
  EXPECT_EQ(v.summary, "8 blocks/SM, 32 of 1536 threads: occupancy 16.7%, limited by blocks");
  EXPECT_EQ(v.waves.waveCount(), 1);
  EXPECT_FALSE(v.hasSelector);
}

// The tutorial's register cliff on one 16 x 16 block: 10 registers a thread leave room for 6
// blocks (1536 threads), 12 for 5 (1280).
TEST(OccupancyView, TheRegisterSliderShowsTheTutorialsCliff) {
  const BookExample block16(testing::tiledConfig(KernelId::Tiled, {16, 16, 16}, 16, testing::freshSeed()));
  const DeviceProfile textbook = *profileByName("textbook");
  const AnalysisReport analysis = analyzeRun(*block16.run, textbook);
  const OccupancyView at10 = occupancyView(*block16.run, analysis, textbook, {"textbook", 10});
  const OccupancyView at12 = occupancyView(*block16.run, analysis, textbook, {"textbook", 12});
  EXPECT_TRUE(contains(at10.summary, "6 blocks/SM, 1536 of 1536 threads")) << at10.summary;
  EXPECT_TRUE(contains(at12.summary, "5 blocks/SM, 1280 of 1536 threads")) << at12.summary;
  EXPECT_EQ(at12.limits[2].value, "5  <- limit");
  EXPECT_EQ(at10.kernelRegisters, analysis.resources.registersPerThread) << "the slider starts at the kernel's own";
}

// {loads.requests}: one request per warp per load, 4 blocks of one warp x 2 phases x 2 loads.
TEST(LessonView, APagesFiguresComeFromTheRunOnScreen) {
  const BookExample book;
  const AnalysisReport analysis = analyzeRun(*book.run, *profileByName("h100"));
  LessonPage page;
  page.paragraphs = {"The loads take {loads.requests} requests and {banks.conflicts} bank conflicts.", "No figure here."};
  const LessonView v = lessonView(page, &analysis, book.run.get());
  ASSERT_EQ(v.paragraphs.size(), 2u);
  EXPECT_EQ(v.paragraphs[0], "The loads take 16 requests and 0 bank conflicts.");
  EXPECT_EQ(v.paragraphs[1], "No figure here.");
  EXPECT_FALSE(contains(lessonView(page, nullptr, book.run.get()).paragraphs[0], "16 requests"))
      << "no figure before the analysis";
}

TEST(ControlsView, ThePhaseFollowsTheCursorAndTheRunIsVerified) {
  const BookExample book;
  EXPECT_EQ(controlsPhase(*book.run, book.stepOf(1, StepKind::Load)), 1);
  EXPECT_EQ(controlsPhase(*book.run, book.stepOf(0, StepKind::Compute)), 0);
  const ControlsView v = controlsView(*book.run, 1);
  EXPECT_EQ(v.phase, 1);
  EXPECT_TRUE(contains(v.runLine, ": verified (")) << v.runLine;
}

// Phase 1 of block (0,0): thread (tx=1, ty=0) loads M(0, 2 + 1) into Mds[0][1] and
// N(2 + 0, 1) into Nds[0][1]; P(3,2) is computed by block (1,1), thread (tx=0, ty=1).
TEST(CellTips, TheHoveredCellSaysWhoTouchedItAndAPCellWhoComputesIt) {
  const BookExample book;
  const Cursor loaded = book.stepOf(1, StepKind::Load);
  const CellTip m = matricesTip(*book.run, *book.block, loaded, 'M', {0, 3});
  EXPECT_TRUE(contains(m.text, "M(row 0, col 3) = ")) << m.text;
  EXPECT_TRUE(contains(m.text, "thread tx=1, ty=0 of block (0,0) loaded M(0,3)")) << m.text;
  EXPECT_TRUE(contains(m.text, "into Mds[0][1]")) << m.text;
  const CellTip untouched = matricesTip(*book.run, *book.block, loaded, 'M', {2, 0});
  EXPECT_TRUE(contains(untouched.text, "not touched by this block yet")) << untouched.text;
  const CellTip p = matricesTip(*book.run, *book.block, book.run->timeline.end(), 'P', {3, 2});
  EXPECT_EQ(p.owner.bx, 1);
  EXPECT_EQ(p.owner.by, 1);
  EXPECT_EQ(p.owner.tx, 0);
  EXPECT_EQ(p.owner.ty, 1);
  EXPECT_TRUE(contains(p.text, "stored P(3,2)")) << p.text;
  EXPECT_TRUE(contains(p.text, "click: select block (1,1) and follow thread tx=0, ty=1")) << p.text;
  const SharedView shared = sharedView(*book.run, *book.block, loaded, book.theme, {});
  const CellTip slot = sharedTip(*book.run, shared, 1, {0, 1});
  EXPECT_TRUE(contains(slot.text, "Nds[0][1]")) << slot.text;
  EXPECT_TRUE(contains(slot.text, "thread tx=1, ty=0 of block (0,0) loaded N(2,1)")) << slot.text;
}


// Rung 8 at its teaching tiling 32x64x8/16x32/4x4 on 64^3 (tests/core/timeline/copy_ring_test.cpp
// counts its steps): 2 blocks of 256 threads, the producer tx=128 issues every copy; step 2 is
// phase 0's load step, where it copies M's 32 x 8 box from M(by*32, 0) (1024 bytes) and N's
// 8 x 64 box from N(0, 0) (2048 bytes) into stage 0. No thread loads from global memory: the
// copies are the loads. Per block and k tile 32*8 + 8*64 = 768 elements; 8 k tiles, 2 blocks:
// 12288 in the run (M read once, 4096, N once per block, 8192), 1536 after step 2.
LaunchConfig tmaTeaching() {
  LaunchConfig c = testing::launchConfig(KernelId::TmaPipeline, {64, 64, 64}, 0, testing::freshSeed());
  c.tiling = {32, 64, 8, 16, 32, 4, 4};
  return c;
}

TEST(ThreadStory, ARingsProducerIssuesTheCopiesOfBothTilesAtItsLoadStep) {
  const BookExample run(tmaTeaching());
  const Timeline& t = run.run->timeline;
  ASSERT_EQ(t.step(2).kind, StepKind::Load);
  const BlockTimeline block = BlockTimeline::build(t, 0, 1);
  const std::string caption = stepCaption(*run.run, block, {2, t.threadsPerBlock()}, 128);
  EXPECT_TRUE(contains(caption,
                       "thread tx=128, ty=0 has issued the copy engine's copies of M's 32x8 tile M(32..63,0..7) and N's 8x64 tile "
                       "N(0..7,0..63) into stage 0, 3072 bytes"))
      << caption;
  EXPECT_FALSE(contains(caption, "loads nothing")) << caption;
  // Not followed, the newest thread through the step is the producer (the last): the same
  // words, and not "as do the other 128 threads", which only wait for its copies.
  const std::string newest = stepCaption(*run.run, block, {2, t.threadsPerBlock()}, -1);
  EXPECT_TRUE(contains(newest, "into stage 0, 3072 bytes")) << newest;
  EXPECT_FALSE(contains(newest, "as do the other")) << newest;
}

// Rung 11 at lesson 21's launch (64^3, 32x64x32/32x16/8x2): at phase 0's first k step thread 0
// (of 0..63, which record B's descriptor chunks) has the tensor cores read its chunk of Mds (M's
// tile, B) and reads its A fragments from Nds (N's tile) itself; thread 100 records no chunk of B
// (B's 32 rows are 64 chunks) and only reads its A fragments: 16 values a k tile (4 per MMA, 4
// MMAs), all at k = 0. No thread multiplies.
TEST(ThreadStory, AWarpgroupMmasReadsAreTheTensorCoresAndTheThreadsAFragments) {
  LaunchConfig c = testing::launchConfig(KernelId::WgmmaTf32, {64, 64, 64}, 0, testing::freshSeed());
  c.tiling = {32, 64, 32, 32, 16, 8, 2};
  const BookExample run(c);
  const Timeline& t = run.run->timeline;
  const BlockTimeline block = BlockTimeline::build(t, 0, 0);
  int step = -1;
  for (int s = 0; s < t.steps() && step < 0; ++s)
    if (t.step(s).kind == StepKind::Compute && t.step(s).k == 0) step = s;
  ASSERT_GE(step, 0);
  const std::string first = stepCaption(*run.run, block, {step, t.threadsPerBlock()}, 0);
  EXPECT_TRUE(contains(first, "the tensor cores read Mds[")) << first;
  EXPECT_TRUE(contains(first, "; it reads 16 values of Nds")) << first;
  EXPECT_TRUE(contains(first, "into its A fragments itself")) << first;
  const std::string other = stepCaption(*run.run, block, {step, t.threadsPerBlock()}, 100);
  EXPECT_TRUE(contains(other, "thread tx=100, ty=0 reads 16 values of Nds")) << other;
  EXPECT_TRUE(contains(other, "the A fragments the tensor cores read")) << other;
  for (const std::string& caption : {first, other}) EXPECT_FALSE(contains(caption, "+=")) << caption;
}

TEST(CountersView, ARingsCopiesAreItsLoads) {
  const BookExample run(tmaTeaching());
  const Timeline& t = run.run->timeline;
  EXPECT_EQ(exact(countersView(*run.run, {1, t.threadsPerBlock()}, {}), "loaded so far / run"), "0 / 12288");
  const CountersView v = countersView(*run.run, {2, t.threadsPerBlock()}, {});
  EXPECT_EQ(exact(v, "loaded so far / run"), "1536 / 12288");
  EXPECT_EQ(exact(v, "bytes loaded"), "6144 B");
}

}  // namespace
}  // namespace tilescope::ui
