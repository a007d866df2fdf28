// The timeline's contract (app/core/timeline/timeline.h), on the book's examples: how a trace is cut
// into steps, what the cursor means, and what the panels read at a cursor.
#include <gtest/gtest.h>

#include <chrono>

#include "core/run/run.h"
#include "core/timeline/timeline.h"
#include "test_support.h"

namespace tilescope {
namespace {

// The default seed (1): the timeline does not depend on the values, only on the events.
Run runTraced(KernelId kernel, Dims dims, int tile, int bx = 16, int by = 16) {
  return testing::runEmulated(testing::launchConfig(kernel, dims, tile, 1, bx, by), true);
}

// Book 4x4, T=2 (figs. 5.7-5.8): 2 phases of load, barrier, k=0, k=1, barrier; then the store.
class BookExample : public ::testing::Test {
 protected:
  tilescope::Run run = runTraced(KernelId::Tiled, {4, 4, 4}, 2);
  Timeline t = Timeline::build(*run.trace);
};

TEST_F(BookExample, StepsFollowThePhaseStructure) {
  ASSERT_EQ(t.steps(), 11);
  const StepKind expected[] = {StepKind::Load, StepKind::Barrier, StepKind::Compute, StepKind::Compute,
                               StepKind::Barrier};
  for (int ph = 0; ph < 2; ++ph)
    for (int i = 0; i < 5; ++i) {
      EXPECT_EQ(t.step(ph * 5 + i).kind, expected[i]) << "step " << ph * 5 + i;
      EXPECT_EQ(t.step(ph * 5 + i).phase, ph);
    }
  EXPECT_EQ(t.step(2).k, 0);
  EXPECT_EQ(t.step(3).k, 1);
  EXPECT_EQ(t.step(10).kind, StepKind::Store);
  EXPECT_EQ(t.stepLabel(7), "phase 1 \xc2\xb7 k = 0");
  EXPECT_EQ(t.stepLabel(10), "store P");
  EXPECT_EQ(t.phases(), 2);
  EXPECT_EQ(t.threadsPerBlock(), 4);
  EXPECT_EQ(t.blocks(), 4);
}

TEST_F(BookExample, SeekPhaseOneShowsTheSecondTilesOfBlockZero) {
  const Cursor c = t.seekPhase(1);
  EXPECT_EQ(c, (Cursor{5, 4}));
  const BlockTimeline b = BlockTimeline::build(t, 0, 0);
  const int loadStep = b.loadStepAt(c.step);
  ASSERT_EQ(loadStep, 5);
  int mLoads = 0, nLoads = 0;
  for (uint32_t i : b.stepEvents(loadStep)) {
    const Event& e = run.trace->events[i];
    if (e.op == Op::LoadM) {
      ++mLoads;  // M tile: rows 0-1, columns 2-3
      EXPECT_LT(e.globalRow, 2);
      EXPECT_GE(e.globalCol, 2);
    } else if (e.op == Op::LoadN) {
      ++nLoads;  // N tile: rows 2-3, columns 0-1
      EXPECT_GE(e.globalRow, 2);
      EXPECT_LT(e.globalCol, 2);
    }
  }
  EXPECT_EQ(mLoads, 4);
  EXPECT_EQ(nLoads, 4);
}

TEST_F(BookExample, CountersMatchTheChapter) {
  const Counters all = t.countersAt(t.end());
  EXPECT_EQ(all.globalLoads, 2u * 4 * 4 * 4 / 2);  // tiling divides the naive 2jkl loads by T
  EXPECT_EQ(all.fmas, 64u);
  EXPECT_EQ(all.naiveLoads(), 128u);
  EXPECT_EQ(all.stores, 16u);
  EXPECT_DOUBLE_EQ(all.flopsPerByte(), 0.5);  // 0.25 FLOP/B times T
  const Counters none = t.countersAt(t.begin());
  EXPECT_EQ(none.globalLoads, 0u);
  // After phase 0's loads: 4 blocks x 8 loads; half-way through the step, half the threads.
  EXPECT_EQ(t.countersAt({0, 4}).globalLoads, 32u);
  EXPECT_EQ(t.countersAt({0, 2}).globalLoads, 16u);
  EXPECT_EQ(t.phasesDone(t.seekPhase(1)), 1);
  EXPECT_EQ(t.phasesDone(t.end()), 2);
}

TEST_F(BookExample, PFillsInOnlyAtTheStore) {
  const Cursor beforeStore = t.stepEnd(9);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) {
      EXPECT_FALSE(t.pStored(beforeStore, r, c));
      EXPECT_TRUE(t.pStored(t.end(), r, c));
    }
  // Mid-store: threads 0 and 1 (row 0 of each block's tile) have stored.
  EXPECT_TRUE(t.pStored({10, 2}, 0, 0));
  EXPECT_TRUE(t.pStored({10, 2}, 2, 3));
  EXPECT_FALSE(t.pStored({10, 2}, 1, 0));
}

TEST_F(BookExample, BarrierArrivalsAccumulateThenRelease) {
  const BlockTimeline b = BlockTimeline::build(t, 1, 1);
  EXPECT_EQ(b.threadState(t.stepEnd(0), 0), ThreadState::Loading);
  EXPECT_EQ(b.barrierArrivals(t.stepEnd(0)), -1);  // not a barrier step
  const Cursor half{1, 2};
  EXPECT_EQ(b.barrierArrivals(half), 2);
  EXPECT_EQ(b.threadState(half, 0), ThreadState::Waiting);
  EXPECT_EQ(b.threadState(half, 1), ThreadState::Waiting);
  EXPECT_EQ(b.threadState(half, 2), ThreadState::Loading);
  EXPECT_EQ(b.barrierArrivals(t.stepEnd(1)), 4);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(b.threadState(t.stepEnd(1), i), ThreadState::Released);
  EXPECT_EQ(b.threadState({2, 1}, 0), ThreadState::Computing);
  EXPECT_EQ(b.threadState({2, 1}, 1), ThreadState::Released);
  EXPECT_EQ(b.threadState(t.end(), 3), ThreadState::Stored);
}

TEST_F(BookExample, StepGranularities) {
  Cursor c = t.begin();
  c = t.stepForward(c, Granularity::Phase);
  EXPECT_EQ(c, t.stepEnd(4));
  c = t.stepForward(c, Granularity::Phase);
  EXPECT_EQ(c, t.stepEnd(9));
  c = t.stepForward(c, Granularity::Phase);
  EXPECT_EQ(c, t.end());  // the store is its own group
  EXPECT_EQ(t.stepForward(c, Granularity::Phase), t.end());
  EXPECT_EQ(t.stepBack(c, Granularity::Phase), t.stepEnd(9));
  EXPECT_EQ(t.stepForward(t.begin(), Granularity::Interval), t.stepEnd(1));  // loads + barrier
  EXPECT_EQ(t.stepForward(t.stepEnd(1), Granularity::Interval), t.stepEnd(4));
  EXPECT_EQ(t.stepForward(t.begin(), Granularity::KStep), t.stepEnd(0));
  EXPECT_EQ(t.stepBack(t.stepEnd(0), Granularity::KStep), t.begin());
  // Mid-step cursors step to the end of their own group.
  EXPECT_EQ(t.stepForward({2, 1}, Granularity::KStep), t.stepEnd(2));
}

TEST_F(BookExample, PositionRoundTrips) {
  ASSERT_EQ(t.steps(), 11);
  for (int s = 0; s < t.steps(); ++s)
    for (int th = 1; th <= 4; ++th) EXPECT_EQ(t.atPosition(t.position({s, th})), t.normalize({s, th}));
  EXPECT_EQ(t.normalize({3, 0}), t.stepEnd(2));
  EXPECT_EQ(t.atPosition(1e9), t.end());
  EXPECT_EQ(t.atPosition(-1), t.begin());
}

TEST_F(BookExample, SourceLineAndHoverLookups) {
  const BlockTimeline b = BlockTimeline::build(t, 0, 0);
  EXPECT_EQ(b.currentEvent(t.begin()), -1);
  const int64_t e = b.currentEvent(t.stepEnd(2));
  ASSERT_GE(e, 0);
  EXPECT_EQ(run.trace->events[std::size_t(e)].op, Op::ReadN);  // last thread's k=0 read of Nds
  const Op loads[] = {Op::LoadM};
  const int64_t m = b.lastEventAt(t.seekPhase(1), loads, 1, 3);
  ASSERT_GE(m, 0);
  EXPECT_EQ(run.trace->events[std::size_t(m)].phase, 1);
  EXPECT_EQ(b.lastEventAt(t.begin(), loads, 1, 3), -1);
}

TEST(TimelineNaive, OneStepPerKThenTheStore) {
  const tilescope::Run run = runTraced(KernelId::Naive, {4, 4, 4}, 0, 2, 2);
  const Timeline t = Timeline::build(*run.trace);
  ASSERT_EQ(t.steps(), 5);
  for (int s = 0; s < 4; ++s) {
    EXPECT_EQ(t.step(s).kind, StepKind::Compute);
    EXPECT_EQ(t.step(s).k, s);
  }
  EXPECT_EQ(t.step(4).kind, StepKind::Store);
  EXPECT_EQ(t.countersAt(t.end()).globalLoads, 2u * 64);
  EXPECT_EQ(t.countersAt(t.end()).fmas, 64u);
  EXPECT_EQ(t.groups(Granularity::Interval), 1);  // no barriers
}

TEST(TimelineBoundary, ZeroFillsAndEveryPStored) {
  const tilescope::Run run = runTraced(KernelId::TiledBounds, {3, 3, 3}, 2);
  const Timeline t = Timeline::build(*run.trace);
  const Counters all = t.countersAt(t.end());
  EXPECT_GT(all.zeroFills, 0u);
  EXPECT_EQ(all.outOfBounds, 0u);
  EXPECT_EQ(all.stores, 9u);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) EXPECT_TRUE(t.pStored(t.end(), r, c));
}

TEST(TimelineBoundary, UncheckedKernelCountsOutOfBounds) {
  const tilescope::Run run = runTraced(KernelId::Tiled, {3, 3, 3}, 2);
  const Timeline t = Timeline::build(*run.trace);
  EXPECT_GT(t.countersAt(t.end()).outOfBounds, 0u);
}

// The app's speed target size: a 128x128 T=16 trace (~4.7M events) is cut once, then every
// per-frame query stays cheap. How long the cut takes is the benchmark's to print
// (emulator_bench --benchmark_filter=Stage), not a timed assertion here.
TEST(TimelineLarge, Tiled128T16) {
  const tilescope::Run run = runTraced(KernelId::Tiled, {128, 128, 128}, 16);
  const Timeline t = Timeline::build(*run.trace);
  const BlockTimeline b = BlockTimeline::build(t, 3, 5);
  EXPECT_EQ(t.steps(), 8 * (1 + 1 + 16 + 1) + 1);
  EXPECT_EQ(t.countersAt(t.end()).globalLoads, 2ull * 128 * 128 * 128 / 16);
  const Cursor mid = t.atPosition(t.steps() / 2.0 + 0.5);
  int loading = 0;
  for (int i = 0; i < t.threadsPerBlock(); ++i) loading += b.threadState(mid, i) != ThreadState::Idle;
  EXPECT_EQ(loading, 256);
}

}  // namespace
}  // namespace tilescope
