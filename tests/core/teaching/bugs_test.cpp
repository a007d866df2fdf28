// The bug gallery: each bug's symptom appears in a run of its buggy kernel and is gone in
// a run of its fixed one. Where the symptom can be predicted from the kernel's index
// arithmetic, the test predicts it independently (which cells, which loads) and compares.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <tuple>

#include "core/teaching/bugs.h"
#include "test_support.h"

namespace tilescope {
namespace {

using testing::freshSeed;
using testing::runEmulated;

struct BugRuns {
  Run buggy, fixed;
  BugEvidence buggyEvidence, fixedEvidence;
};

BugRuns runBug(const Bug& bug, uint64_t seed) {
  BugRuns r;
  auto buggy = bugConfig(bug, false, seed);
  auto fixed = bugConfig(bug, true, seed);
  EXPECT_TRUE(buggy.ok() && fixed.ok());
  if (!buggy || !fixed) return r;
  r.buggy = runEmulated(*buggy, true);
  r.fixed = runEmulated(*fixed, true);
  r.buggyEvidence = examineRun(r.buggy);
  r.fixedEvidence = examineRun(r.fixed);
  return r;
}

bool closeTo(double got, double want, double scale) { return std::fabs(got - want) <= 1e-5 * std::max(1.0, scale); }

TEST(BugGallery, EveryEntryNamesRealKernelsAndAValidLaunch) {
  std::set<std::string_view> ids;
  for (const Bug& bug : bugGallery()) {
    SCOPED_TRACE(std::string(bug.id));
    EXPECT_TRUE(ids.insert(bug.id).second) << "ids are unique";
    EXPECT_TRUE(kernelByName(bug.buggyKernel).has_value());
    EXPECT_TRUE(kernelByName(bug.fixedKernel).has_value());
    EXPECT_NE(bug.buggyKernel, bug.fixedKernel);
    EXPECT_FALSE(bug.explanation.empty());
    EXPECT_FALSE(bug.lookFor.empty());
    EXPECT_TRUE(bugConfig(bug, false, 1).ok());
    EXPECT_TRUE(bugConfig(bug, true, 1).ok());
    EXPECT_EQ(findBug(bug.id), &bug);
  }
  EXPECT_EQ(findBug("no-such-bug"), nullptr);
  // The gallery the README's table documents, entry for entry.
  EXPECT_EQ(ids, (std::set<std::string_view>{"k-typo", "sync-in-k", "no-bounds", "rect-index", "square-grid",
                                             "no-first-sync", "no-second-sync"}));
}

// The app names the gallery entry on screen from the launch alone (any seed): each buggy
// launch is its own entry, each fixed launch is a fixed launch, and the same kernels at
// another size are nobody's.
TEST(BugGallery, LaunchesAreRecognisedFromTheirConfig) {
  ASSERT_EQ(bugGallery().size(), 7u);  // the README's table
  for (const Bug& bug : bugGallery()) {
    SCOPED_TRACE(std::string(bug.id));
    auto buggy = bugConfig(bug, false, 7);
    ASSERT_TRUE(buggy.ok());
    auto match = galleryLaunchOf(*buggy);
    ASSERT_TRUE(match.has_value());
    EXPECT_EQ(match->bug, &bug);
    EXPECT_FALSE(match->fixed);
    auto fixed = bugConfig(bug, true, 123);
    ASSERT_TRUE(fixed.ok());
    match = galleryLaunchOf(*fixed);
    ASSERT_TRUE(match.has_value());
    EXPECT_TRUE(match->fixed);
    EXPECT_EQ(match->bug->fixedKernel, bug.fixedKernel);
    LaunchConfig other = *buggy;
    other.dims.l += 1;
    EXPECT_FALSE(galleryLaunchOf(other).has_value());
  }
}

class EachBug : public ::testing::TestWithParam<int> {};

TEST_P(EachBug, BuggyKernelShowsItsSymptomAndTheFixRemovesIt) {
  const Bug& bug = bugGallery()[std::size_t(GetParam())];
  SCOPED_TRACE(std::string(bug.id));
  const BugRuns r = runBug(bug, freshSeed());
  EXPECT_TRUE(showsSymptom(bug.symptom, r.buggyEvidence)) << describeEvidence(r.buggyEvidence);
  EXPECT_TRUE(isClean(r.fixedEvidence)) << describeEvidence(r.fixedEvidence);
  EXPECT_TRUE(r.fixed.verification.passed) << r.fixed.verification.summary();
}

INSTANTIATE_TEST_SUITE_P(Gallery, EachBug, ::testing::Range(0, int(bugGallery().size())),
                         [](const ::testing::TestParamInfo<int>& info) {
                           std::string name(bugGallery()[std::size_t(info.param)].id);
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

// k-typo: each phase adds T * M[Row][ph*T + tx] * N[ph*T + ty][Col], so P is that sum.
// The gallery's launch: j x k x l with T dividing each, T x T threads per block.
TEST(BugKTypo, EveryCellHoldsTheSameProductCountedTTimes) {
  const Bug& bug = *findBug("k-typo");
  const BugRuns r = runBug(bug, freshSeed());
  ASSERT_TRUE(r.buggy.trace);
  const int T = bug.tile, j = bug.dims.j, k = bug.dims.k, l = bug.dims.l;
  ASSERT_EQ(r.buggy.p.rows, j);
  ASSERT_EQ(r.buggy.p.cols, l);
  const Matrix& M = r.buggy.m;
  const Matrix& N = r.buggy.n;
  for (int row = 0; row < j; ++row)
    for (int col = 0; col < l; ++col) {
      double model = 0.0;
      for (int ph = 0; ph < k / T; ++ph)
        model += T * double(M.at(row, ph * T + col % T)) * double(N.at(ph * T + row % T, col));
      EXPECT_TRUE(closeTo(r.buggy.p.at(row, col), model, std::fabs(model))) << "P(" << row << "," << col << ")";
    }
  EXPECT_EQ(r.buggyEvidence.wrongCells.size(), r.buggy.p.size()) << "random inputs: every cell is wrong";
  uint64_t reads = 0;
  for (const Event& e : r.buggy.trace->events)
    if (e.op == Op::ReadM || e.op == Op::ReadN) {
      ++reads;
      EXPECT_EQ(e.sharedRow, e.threadY);
      EXPECT_EQ(e.sharedCol, e.threadX);
    }
  // Every thread of the j x l grid reads one Mds and one Nds slot per k step, k steps in all.
  EXPECT_EQ(reads, uint64_t(j) * l * k * 2);
}

// sync-in-k: P verifies, but each phase has 1 + T barriers and a store.
TEST(BugSyncInK, CorrectResultWithTPlusOneBarriersAndAStorePerPhase) {
  const BugRuns r = runBug(*findBug("sync-in-k"), freshSeed());
  const int T = r.buggy.config.tile, phases = r.buggy.config.dims.k / T;
  EXPECT_TRUE(r.buggy.verification.passed) << r.buggy.verification.summary();
  EXPECT_EQ(r.buggyEvidence.maxBarriersPerThread, unsigned(phases * (1 + T)));
  EXPECT_EQ(r.fixedEvidence.maxBarriersPerThread, unsigned(phases * 2));
  EXPECT_EQ(r.buggyEvidence.maxStoresPerThread, unsigned(phases));
  EXPECT_EQ(r.fixedEvidence.maxStoresPerThread, 1u);
  EXPECT_EQ(r.buggyEvidence.barrierArrivals, r.buggy.plan.threads * phases * (1 + T));
}

// no-bounds: exactly the loads whose (row, col) the index arithmetic of fig. 5.9 puts outside
// their matrix (fig. 5.11's wrap included) and the stores past P are reported, and the fixed
// kernel has none.
TEST(BugNoBounds, ReportsExactlyTheAccessesOutsideEachMatrix) {
  const Bug& bug = *findBug("no-bounds");
  const BugRuns r = runBug(bug, freshSeed());
  const int T = bug.tile, j = bug.dims.j, k = bug.dims.k, l = bug.dims.l;
  std::set<std::tuple<char, int, int, int, int>> expected;  // matrix, row, col, block linear, thread linear
  const int gx = (l + T - 1) / T, gy = (j + T - 1) / T;
  for (int by = 0; by < gy; ++by)
    for (int bx = 0; bx < gx; ++bx)
      for (int ty = 0; ty < T; ++ty)
        for (int tx = 0; tx < T; ++tx) {
          const int row = by * T + ty, col = bx * T + tx, b = by * gx + bx, t = ty * T + tx;
          for (int ph = 0; ph < (k + T - 1) / T; ++ph) {
            if (row >= j || ph * T + tx >= k) expected.insert({'M', row, ph * T + tx, b, t});
            if (ph * T + ty >= k || col >= l) expected.insert({'N', ph * T + ty, col, b, t});
          }
          // A store has no tile row to say which row it meant: it is reported where it
          // lands, outside P only past the allocation (the rest overwrite other threads' P).
          const int index = row * l + col;
          if (index >= j * l) expected.insert({'P', index / l, index % l, b, t});
        }
  ASSERT_FALSE(expected.empty()) << "the gallery's launch must reach outside its matrices";
  std::set<std::tuple<char, int, int, int, int>> reported;
  for (const BoundsViolation& v : r.buggyEvidence.outOfBounds)
    reported.insert({v.matrix, v.event.globalRow, v.event.globalCol, v.event.blockY * gx + v.event.blockX,
                     v.event.threadY * T + v.event.threadX});
  EXPECT_EQ(reported, expected);
  EXPECT_FALSE(r.buggy.verification.passed);
  EXPECT_TRUE(r.fixedEvidence.outOfBounds.empty());
}

// rect-index: predict from li = ty * blockDim.y + tx which tile slots are never loaded, and
// so which P cells read them; with a square block the prediction is "none".
class BugRectIndex : public ::testing::TestWithParam<std::pair<int, int>> {};

TEST_P(BugRectIndex, WrongCellsAreExactlyThoseThatReadUnloadedSlots) {
  const auto [bw, bh] = GetParam();
  const int tk = std::min(bw, bh);
  std::set<int> given;
  for (int ty = 0; ty < bh; ++ty)
    for (int tx = 0; tx < bw; ++tx) given.insert(ty * bh + tx);
  std::set<int> badRows, badCols;  // local to a block tile
  for (int s = 0; s < bh * tk; ++s)
    if (!given.count(s)) badRows.insert(s / tk);  // M slot (s / tk, s % tk) feeds row s / tk
  for (int s = 0; s < tk * bw; ++s)
    if (!given.count(s)) badCols.insert(s % bw);  // N slot (s / bw, s % bw) feeds column s % bw

  LaunchConfig c = *bugConfig(*findBug("rect-index"), false, freshSeed());
  c.blockX = bw;
  c.blockY = bh;
  c.dims = {2 * bh, 3 * tk, 2 * bw};
  const tilescope::Run buggy = runEmulated(c, true);
  std::set<std::pair<int, int>> expected, got;
  for (int r = 0; r < c.dims.j; ++r)
    for (int col = 0; col < c.dims.l; ++col)
      if (badRows.count(r % bh) || badCols.count(col % bw)) expected.insert({r, col});
  for (const WrongCell& w : examineRun(buggy).wrongCells) got.insert({w.row, w.col});
  EXPECT_EQ(got, expected);

  c.kernel = KernelId::TiledRect;
  const tilescope::Run fixed = runEmulated(c, true);
  EXPECT_TRUE(isClean(examineRun(fixed))) << describeEvidence(examineRun(fixed));
}

INSTANTIATE_TEST_SUITE_P(Shapes, BugRectIndex,
                         ::testing::Values(std::pair{4, 2}, std::pair{2, 4}, std::pair{8, 2}, std::pair{3, 5},
                                           std::pair{4, 4}),
                         [](const auto& info) {
                           return "block" + std::to_string(info.param.first) + "x" + std::to_string(info.param.second);
                         });

// square-grid: with k longer than l the loop stops after gridDim.x phases, so P is the
// product over the first gridDim.x * T steps of k only; with k shorter it is right.
TEST(BugSquareGrid, PMissesExactlyTheTermsPastGridDimXTiles) {
  const uint64_t seed = freshSeed();
  const Bug& bug = *findBug("square-grid");
  const BugRuns r = runBug(bug, seed);
  ASSERT_TRUE(r.buggy.trace);
  const int T = bug.tile, gridX = (bug.dims.l + T - 1) / T, gridY = (bug.dims.j + T - 1) / T;
  const int covered = gridX * T;
  ASSERT_LT(covered, bug.dims.k);
  for (int row = 0; row < bug.dims.j; ++row)
    for (int col = 0; col < bug.dims.l; ++col) {
      double partial = 0.0;
      for (int i = 0; i < covered; ++i) partial += double(r.buggy.m.at(row, i)) * double(r.buggy.n.at(i, col));
      EXPECT_TRUE(closeTo(r.buggy.p.at(row, col), partial, std::fabs(partial))) << "P(" << row << "," << col << ")";
    }
  uint64_t mLoads = 0;
  for (const Event& e : r.buggy.trace->events)
    if (e.op == Op::LoadM) {
      ++mLoads;
      EXPECT_LT(e.globalCol, covered) << "columns past gridDim.x * T are never loaded";
    }
  // Each of the grid's T x T-thread blocks runs gridDim.x phases of one M load per thread.
  EXPECT_EQ(mLoads, uint64_t(gridX) * gridY * T * T * gridX);

  LaunchConfig wide = *bugConfig(bug, false, seed);
  wide.dims = {4, 2, 6};  // k < l: surplus phases load zeros only
  const tilescope::Run run = runEmulated(wide, true);
  EXPECT_TRUE(run.verification.passed) << run.verification.summary();
  EXPECT_EQ(run.plan.phases, 3);
}

// Missing barriers: every stale read really used a value other than the one its phase
// loaded, and the wrong cells are exactly those of threads that made such a read.
class MissingBarrier : public ::testing::TestWithParam<const char*> {};

TEST_P(MissingBarrier, WrongCellsComeFromTheStaleValuesActuallyRead) {
  const BugRuns r = runBug(*findBug(GetParam()), freshSeed());
  ASSERT_FALSE(r.buggyEvidence.staleReads.empty());
  std::set<std::pair<int, int>> threadsMisled, wrong;
  const int T = r.buggy.config.tile;
  for (const StaleRead& s : r.buggyEvidence.staleReads) {
    const Event& e = s.read;
    if (s.expectedKnown && s.expected != e.value)
      threadsMisled.insert({e.blockY * T + e.threadY, e.blockX * T + e.threadX});
  }
  for (const WrongCell& w : r.buggyEvidence.wrongCells) wrong.insert({w.row, w.col});
  EXPECT_FALSE(wrong.empty());
  EXPECT_EQ(wrong, threadsMisled);
  EXPECT_TRUE(r.fixedEvidence.staleReads.empty());
}

INSTANTIATE_TEST_SUITE_P(Gallery, MissingBarrier, ::testing::Values("no-first-sync", "no-second-sync"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

// tiled-rect, the fixed counterpart of rect-index, is a correct kernel for any block shape
// and any size (boundary checks included).
TEST(TiledRect, MatchesTheReferenceForRectangularBlocksAndRaggedSizes) {
  for (auto [bw, bh, j, k, l] : {std::tuple{4, 2, 8, 8, 8}, std::tuple{2, 4, 5, 7, 9}, std::tuple{32, 8, 33, 17, 40},
                                 std::tuple{1, 16, 20, 3, 2}, std::tuple{16, 1, 3, 20, 17}}) {
    SCOPED_TRACE("block " + std::to_string(bw) + "x" + std::to_string(bh) + " dims " + std::to_string(j) + "x" +
                 std::to_string(k) + "x" + std::to_string(l));
    LaunchConfig c;
    c.kernel = KernelId::TiledRect;
    c.dims = {j, k, l};
    c.blockX = bw;
    c.blockY = bh;
    c.seed = freshSeed();
    const tilescope::Run run = runEmulated(c, true);
    EXPECT_TRUE(isClean(examineRun(run))) << describeEvidence(examineRun(run));
    EXPECT_EQ(run.outcome.outOfBoundsTotal, 0u);
  }
}

// Rung 8's ring and rung 9's split grid: every slot a consumer reads was filled by the copy
// engine in the reader's own phase (a copy writes its whole box: 32 x 8 of Mds, 8 x 64 of
// Nds at this tiling), so a correct run shows no stale read; `open` once listed 32768 of them
// ("not written by this block"), one per consumer read.
TEST(RingKernels, CopiedTilesAreNotStaleReads) {
  for (auto [kernel, blocks] : {std::pair{KernelId::TmaPipeline, 0}, std::pair{KernelId::StreamK, 3}}) {
    SCOPED_TRACE(std::string(kernelInfo(kernel).name));
    LaunchConfig c = testing::launchConfig(kernel, {64, 64, 64}, 0, freshSeed());
    c.tiling = {32, 64, 8, 16, 32, 4, 4};
    c.persistentBlocks = blocks;
    const tilescope::Run run = runEmulated(c, true);
    const BugEvidence ev = examineRun(run);
    EXPECT_TRUE(ev.verified);
    EXPECT_TRUE(ev.staleReads.empty()) << describeEvidence(ev);
    EXPECT_TRUE(ev.outOfBounds.empty());
    EXPECT_TRUE(ev.ringWaits);
    EXPECT_NE(describeEvidence(ev).find("waits on mbarriers instead"), std::string::npos);
  }
}

}  // namespace
}  // namespace tilescope
