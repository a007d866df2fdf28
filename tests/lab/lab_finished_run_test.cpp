// A lab run is a kind of run: the book's kernel pasted as a student's file and the same kernel
// built in go through the same finished run (app/core/finished), so they get the same facts:
// verification, the out-of-bounds report and the hazards, each held to a count made by hand
// (not only to each other).
#include <gtest/gtest.h>

#include <string>

#include "core/finished/finished_run.h"
#include "kernels/kernel_sources.h"
#include "lab/lab.h"
#include "lab/lab_sandbox.h"
#include "test_support.h"

namespace tilescope::lab {
namespace {

// The built-in kernel's file as a student would paste it: its kernel without the facts, the
// template parameter a #define on the same line (so every line number stays the file's), and
// ceilDiv (a helper of the kernel files) written out.
std::string pastedAsLabFile(KernelId id, int tile) {
  const std::optional<std::string_view> file = kernelSource(id);
  if (!file) return {};
  std::string text(file->substr(0, file->find("// ---- facts")));
  const auto swap = [&](const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    if (at != std::string::npos) text.replace(at, from.size(), to);
  };
  swap("template <int TILE_WIDTH>", "#define TILE_WIDTH " + std::to_string(tile));
  swap("ceilDiv(k, TILE_WIDTH)", "(k + TILE_WIDTH - 1) / TILE_WIDTH");
  return text;
}

struct Both {
  std::shared_ptr<FinishedRun> builtIn;
  LabOutcome lab;
};

// The kernel built in (hazards searched, as the lab asks) and pasted into the lab, same launch.
Both runBoth(KernelId id, Dims dims, int tile) {
  Both both;
  auto emulator = makeEmulatorBackend();
  const uint64_t seed = testing::freshSeed();
  auto builtIn = runAndFinish(*emulator, testing::tiledConfig(id, dims, tile, seed), RunOptions{},
                              FinishOptions{.timeline = false, .hazards = true, .startedAt = std::nullopt});
  EXPECT_TRUE(builtIn.ok()) << builtIn.error().message;
  if (builtIn) both.builtIn = *builtIn;
  LabRequest q;
  q.source = pastedAsLabFile(id, tile);
  q.fileName = "pasted.cu";
  q.dims = dims;
  q.seed = seed;
  q.sandbox = sandboxSupport().complete();  // where the kernel lacks Landlock or seccomp, unconfined
  auto outcome = runLab(q);
  EXPECT_TRUE(outcome.ok()) << outcome.error().message;
  if (outcome) both.lab = std::move(*outcome);
  return both;
}

uint64_t globalLoads(const Trace& t) {
  uint64_t n = 0;
  for (const Event& e : t.events) n += e.op == Op::LoadM || e.op == Op::LoadN;
  return n;
}

TEST(LabFinishedRun, TheBooksTiledKernelPastedHasTheBuiltInsFacts) {
  // Fig. 5.9 at 4x4x4 with T = 2: 2x2 blocks of 4 threads, 2 phases; each thread loads one M
  // and one N element per phase: 16 x 2 x 2 = 64 global loads; nothing out of bounds, no race.
  const Both both = runBoth(KernelId::Tiled, {4, 4, 4}, 2);
  ASSERT_TRUE(both.builtIn && both.lab.finished) << both.lab.summary;
  for (const FinishedRun* f : {both.builtIn.get(), both.lab.finished.get()}) {
    SCOPED_TRACE(kernelName(f->run));
    EXPECT_TRUE(f->run.verification.passed) << f->run.verification.summary();
    EXPECT_EQ(f->run.verification.wrong, 0);
    EXPECT_TRUE(f->outOfBounds.empty());
    ASSERT_TRUE(f->hazards.has_value());
    EXPECT_TRUE(f->hazards->hazards.empty());
    ASSERT_TRUE(f->run.trace.has_value());
    EXPECT_EQ(globalLoads(*f->run.trace), 64u);
  }
  EXPECT_EQ(both.lab.verdict, LabVerdict::Verified) << both.lab.summary;
  EXPECT_EQ(builtInKernel(both.builtIn->run), KernelId::Tiled);
  ASSERT_NE(labKernel(both.lab.finished->run), nullptr);
  EXPECT_EQ(labKernel(both.lab.finished->run)->fileName, "pasted.cu");
}

TEST(LabFinishedRun, FigureFiveElevensOutOfBoundsAccessesAreTheSameByHandInBoth) {
  // Fig. 5.9 (no boundary checks) on fig. 5.11's 3x3 with T = 2: 2x2 blocks cover rows and
  // columns 0..3, 2 phases. M loads (Row, 2ph + tx) leave M when Row = 3 (4 columns x 2
  // phases = 8) or, for Row < 3, in phase 1 at tx = 1 (3 rows x 2 columns = 6): 14. N's loads
  // likewise: 14. A store carries no tile slot, so the trace places it by its linear index
  // Row * 3 + Col: P(0,3) and P(1,3) land on P(1,0) and P(2,0), inside; the five at index 9 or
  // more, (2,3), (3,0), (3,1), (3,2), (3,3), leave P. In all 33, in both runs, access by access.
  const Both both = runBoth(KernelId::Tiled, {3, 3, 3}, 2);
  ASSERT_TRUE(both.builtIn && both.lab.finished) << both.lab.summary;
  const std::vector<BoundsViolation>& a = both.builtIn->outOfBounds;
  const std::vector<BoundsViolation>& b = both.lab.finished->outOfBounds;
  for (const auto* v : {&a, &b}) {
    int m = 0, n = 0, p = 0;
    for (const BoundsViolation& x : *v) (x.matrix == 'M' ? m : x.matrix == 'N' ? n : p) += 1;
    EXPECT_EQ(m, 14);
    EXPECT_EQ(n, 14);
    EXPECT_EQ(p, 5);
  }
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE("violation " + std::to_string(i));
    EXPECT_EQ(a[i].matrix, b[i].matrix);
    EXPECT_EQ(a[i].event.globalRow, b[i].event.globalRow);
    EXPECT_EQ(a[i].event.globalCol, b[i].event.globalCol);
    EXPECT_EQ(a[i].event.line, b[i].event.line);  // the pasted file keeps the kernel file's lines
  }
  EXPECT_EQ(both.lab.verdict, LabVerdict::OutOfBounds) << both.lab.summary;
  EXPECT_EQ(both.lab.boundsViolations().size(), 33u);
}

TEST(LabFinishedRun, AMissingFirstBarrierIsTheSameHazardInBoth) {
  // Fig. 5.9 without its first barrier at 4x4x4, T = 2: each phase is one barrier interval in
  // which every thread writes its Mds and Nds slot and then reads other threads' slots: one
  // read-after-write group per block, phase and tile: 4 x 2 x 2 = 16 (as races_test counts).
  const Both both = runBoth(KernelId::TiledNoFirstSync, {4, 4, 4}, 2);
  ASSERT_TRUE(both.builtIn && both.lab.finished) << both.lab.summary;
  for (const FinishedRun* f : {both.builtIn.get(), both.lab.finished.get()}) {
    SCOPED_TRACE(kernelName(f->run));
    ASSERT_TRUE(f->hazards.has_value());
    EXPECT_FALSE(f->hazards->capped);
    ASSERT_EQ(f->hazards->hazards.size(), 16u);
    for (const Hazard& h : f->hazards->hazards) EXPECT_EQ(h.type, HazardType::ReadAfterWrite);
    EXPECT_TRUE(f->outOfBounds.empty());
  }
  for (std::size_t i = 0; i < 16; ++i) {
    const Hazard& x = both.builtIn->hazards->hazards[i];
    const Hazard& y = both.lab.finished->hazards->hazards[i];
    EXPECT_EQ(x.matrix, y.matrix);
    EXPECT_EQ(x.first.line, y.first.line);
    EXPECT_EQ(x.second.line, y.second.line);
    EXPECT_EQ(x.pairs, y.pairs);
  }
  EXPECT_EQ(both.builtIn->run.verification.passed, both.lab.finished->run.verification.passed);
  EXPECT_EQ(both.lab.hazards().size(), 16u);
}

// `lab run --json` and the app's analysis of a lab run report the hazards the lab searched,
// without a second search: with all but one of the 16 groups taken out of the finished run,
// its analysis reports that one; a run finished without a search is searched by the analysis.
TEST(LabFinishedRun, TheAnalysisReadsTheHazardsTheFinishedRunSearched) {
  Both both = runBoth(KernelId::TiledNoFirstSync, {4, 4, 4}, 2);
  ASSERT_TRUE(both.builtIn && both.lab.finished && both.lab.finished->hazards) << both.lab.summary;
  const DeviceProfile h100 = *profileByName("h100");
  EXPECT_EQ(analyzeRun(*both.lab.finished, h100).hazards.size(), 16u);
  both.lab.finished->hazards->hazards.resize(1);
  EXPECT_EQ(analyzeRun(*both.lab.finished, h100).hazards.size(), 1u);
  both.builtIn->hazards.reset();
  EXPECT_EQ(analyzeRun(*both.builtIn, h100).hazards.size(), 16u);
}

// The roofline names what ran: the pasted kernel by its own name, never the built-in id its
// launch carries unread ("tiled" was drawn beside a lab kernel's point).
TEST(LabFinishedRun, TheRooflineNamesTheLabKernel) {
  const Both both = runBoth(KernelId::Tiled, {4, 4, 4}, 2);
  ASSERT_TRUE(both.builtIn && both.lab.finished) << both.lab.summary;
  const DeviceProfile h100 = *profileByName("h100");
  const std::string labName = labKernel(both.lab.finished->run)->name;
  EXPECT_NE(labName, "tiled");
  EXPECT_EQ(analyzeRun(*both.lab.finished, h100).roofline.label, labName);
  EXPECT_EQ(analyzeRun(*both.builtIn, h100).roofline.label, "tiled");
}

// A lab run finished without a timeline (the lab grades without one) gets only its timeline
// added: the same decoded trace (its events where they were), fig. 5.9's 2 x 2 blocks and
// 4 / 2 = 2 phases at 4x4x4, T = 2.
TEST(LabFinishedRun, AddTimelineCutsOnlyTheTimeline) {
  Both both = runBoth(KernelId::Tiled, {4, 4, 4}, 2);
  ASSERT_TRUE(both.lab.finished && both.lab.finished->run.trace) << both.lab.summary;
  FinishedRun& f = *both.lab.finished;
  EXPECT_FALSE(f.hasTimeline);
  const Event* events = f.run.trace->events.data();
  const std::size_t hazardsFound = f.hazards->hazards.size();
  addTimeline(f);
  ASSERT_TRUE(f.hasTimeline);
  EXPECT_EQ(f.run.trace->events.data(), events);
  EXPECT_EQ(f.timeline.blocks(), 4);
  EXPECT_EQ(f.timeline.phases(), 2);
  EXPECT_EQ(f.hazards->hazards.size(), hazardsFound);
}

}  // namespace
}  // namespace tilescope::lab
